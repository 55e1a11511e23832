/** How the providers paint their colours; the ids and names themselves live in the shared constants. */

/** Google Calendar's event colours by id (the '' default takes the calendar's own colour). */
export const GOOGLE_EVENT_COLOR_HEX: Record<string, string> = {
  '1': '#7986cb',
  '2': '#33b679',
  '3': '#8e24aa',
  '4': '#e67c73',
  '5': '#f6bf26',
  '6': '#f4511e',
  '7': '#039be5',
  '8': '#616161',
  '9': '#3f51b5',
  '10': '#0b8043',
  '11': '#d50000',
};

/** Microsoft calendar colour names (docs/product-rules.md §3) and Outlook's category presets 0–24. */
const MICROSOFT_COLOR_HEX: Record<string, string> = {
  lightBlue: '#a6d1f5',
  lightTeal: '#9fdbdb',
  lightGreen: '#a8d695',
  lightGray: '#c0c0c0',
  lightRed: '#f19f9f',
  lightPink: '#f1a0c1',
  lightBrown: '#d1a986',
  lightOrange: '#fcab73',
  lightYellow: '#f4d07a',
  preset0: '#e74856',
  preset1: '#ff8c00',
  preset2: '#ab8b6b',
  preset3: '#fff100',
  preset4: '#47d041',
  preset5: '#30c6cc',
  preset6: '#73aa24',
  preset7: '#4894fe',
  preset8: '#8764b8',
  preset9: '#f495bf',
  preset10: '#a0aeb2',
  preset11: '#4c596a',
  preset12: '#c4c4c4',
  preset13: '#8d8d8d',
  preset14: '#333333',
  preset15: '#a4262c',
  preset16: '#ca5010',
  preset17: '#8e562e',
  preset18: '#c19c00',
  preset19: '#0b6a0b',
  preset20: '#038387',
  preset21: '#5c7e1f',
  preset22: '#004e8c',
  preset23: '#5c2e91',
  preset24: '#8e0e4f',
};

/** A swatch colour for a calendar or category colour: a hex as is, a Microsoft name by its shade. */
export function swatchColor(color: string | null | undefined): string | null {
  if (!color) return null;
  if (/^#[0-9a-f]{3,8}$/i.test(color)) return color;
  return MICROSOFT_COLOR_HEX[color] ?? null;
}

/** The Select values stand in for the empty id and the missing category, which a Select cannot hold. */
export const DEFAULT_EVENT_COLOR = 'default';
export const NO_CATEGORY = 'none';
export const NO_REMINDER = 'none';

export const toEventColorValue = (color: string) => (color === '' ? DEFAULT_EVENT_COLOR : color);
export const fromEventColorValue = (value: string) => (value === DEFAULT_EVENT_COLOR ? '' : value);
export const toCategoryValue = (category: string | null) => category ?? NO_CATEGORY;
export const fromCategoryValue = (value: string) => (value === NO_CATEGORY ? null : value);
export const toReminderValue = (reminder: number | null) =>
  reminder === null ? NO_REMINDER : String(reminder);
export const fromReminderValue = (value: string) => (value === NO_REMINDER ? null : Number(value));
