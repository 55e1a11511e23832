import { LABEL_COLORS, type LabelColor } from '#shared/settings/constants.ts';
import { labelColorKey } from '#shared/settings/label-colors.ts';

/** How Todoist paints its 20 colours (labels and projects); the keys themselves live in the shared constants. */
export const LABEL_COLOR_HEX: Record<LabelColor, string> = {
  berry_red: '#b8256f',
  red: '#db4035',
  orange: '#ff9933',
  yellow: '#fad000',
  olive_green: '#afb83b',
  lime_green: '#7ecc49',
  green: '#299438',
  mint_green: '#6accbc',
  teal: '#158fad',
  sky_blue: '#14aaf5',
  light_blue: '#96c3eb',
  blue: '#4073ff',
  grape: '#884dff',
  violet: '#af38eb',
  lavender: '#eb96eb',
  magenta: '#e05194',
  salmon: '#ff8d85',
  charcoal: '#808080',
  grey: '#b8b8b8',
  taupe: '#ccac93',
};

/** 'olive_green' → 'Olive green'. */
export function labelColorName(color: LabelColor): string {
  const words = color.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A Todoist label's colour as one of the 20 keys: a key as is, a legacy code 30–49 by its number. */
export function toLabelColor(color: string | null | undefined): LabelColor | null {
  if (!color) return null;
  if ((LABEL_COLORS as readonly string[]).includes(color)) return color as LabelColor;
  if (/^\d+$/.test(color)) return labelColorKey(Number(color));
  return null;
}

/** Black or white, whichever is easier to see on the colour (for the tick on a chosen swatch). */
export function markColorOn(hex: string): '#000' | '#fff' {
  const channels = [1, 3, 5].map((start) => {
    const value = Number.parseInt(hex.slice(start, start + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  const [r = 0, g = 0, b = 0] = channels;
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.179 ? '#000' : '#fff';
}
