import { LABEL_COLORS, type LabelColor } from './constants.ts';

/** Todoist's legacy numeric colour codes 30–49 name the same 20 colours, in order (38 is teal). */
export function labelColorKey(color: LabelColor | number): LabelColor {
  if (typeof color === 'string') return color;
  return LABEL_COLORS[color - 30] ?? 'charcoal';
}
