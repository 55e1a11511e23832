type Palette = Record<string, { background: string; foreground: string }>;

const palette = (backgrounds: string[]): Palette =>
  Object.fromEntries(
    backgrounds.map((background, i) => [String(i + 1), { background, foreground: '#1d1d1d' }]),
  );

/** Google's fixed palettes, unchanged since 2012 (`GET /calendar/v3/colors`). */
export const COLORS = {
  kind: 'calendar#colors',
  updated: '2012-02-14T00:00:00.000Z',
  calendar: palette([
    '#ac725e',
    '#d06b64',
    '#f83a22',
    '#fa573c',
    '#ff7537',
    '#ffad46',
    '#42d692',
    '#16a765',
    '#7bd148',
    '#b3dc6c',
    '#fbe983',
    '#fad165',
    '#92e1c0',
    '#9fe1e7',
    '#9fc6e7',
    '#4986e7',
    '#9a9cff',
    '#b99aff',
    '#c2c2c2',
    '#cabdbf',
    '#cca6ac',
    '#f691b2',
    '#cd74e6',
    '#a47ae2',
  ]),
  event: palette([
    '#a4bdfc',
    '#7ae7bf',
    '#dbadff',
    '#ff887c',
    '#fbd75b',
    '#ffb878',
    '#46d6db',
    '#e1e1e1',
    '#5484ed',
    '#51b749',
    '#dc2127',
  ]),
} as const;
