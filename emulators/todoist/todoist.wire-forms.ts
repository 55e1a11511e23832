import type { Due } from './todoist.due.ts';

/**
 * The forms Todoist's documents allow for the same value, which the emulator writes on the wire (REST,
 * Sync and webhooks) so that the app is tested against each, not only against the emulator's own:
 * - `dueFractionalSeconds`: a due's time with six fractional digits, as Todoist's due-date document
 *   writes it (`2016-12-01T12:00:00.000000`, `2016-12-06T13:00:00.000000Z`), or without them, as the
 *   v1 SDKs' fixtures do (`2016-12-01T12:00:00`). docs/provider-facts.md, "Due dates".
 * Stored records keep one form; only their wire form changes.
 */
export type WireForms = { dueFractionalSeconds: boolean };

export const PLAIN_WIRE_FORMS: WireForms = { dueFractionalSeconds: false };

const TIME_WITHOUT_FRACTION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(Z?)$/;

/** A due as the forms write it: a date-time gets `.000000` before its `Z` (or at its end) when asked. */
export function dueWire(due: Due, forms: WireForms): Due {
  const time = forms.dueFractionalSeconds ? TIME_WITHOUT_FRACTION.exec(due.date) : null;
  return time ? { ...due, date: `${time[1]}.000000${time[2]}` } : { ...due };
}
