import type { CalendarSettings } from '#shared/api/current-user.schema.ts';
import { otherCalendarsBusyByDefault, otherCalendarsCount } from '#shared/settings/autoplan-busy.ts';
import { otherCalendarsBusyNote } from '#shared/settings/autoplan-text.ts';
import { AUTOPLAN_MAX_GAP_MINUTES } from '#shared/settings/constants.ts';
import { type Autoplan, autoplanSchema } from '#shared/settings/settings.schema.ts';

/**
 * "Plan my day"'s working hours as the user edits them before saving: everything but the switch, which
 * is saved on its own (docs/product-rules.md §10). The schema's messages say what is wrong.
 */
export type AutoplanDraft = Omit<Autoplan, 'active'>;

/** The fields a message can stand beside. */
export type DraftField = 'days' | 'start' | 'end' | 'gapMinutes';

/** ISO weekdays, Monday first, with the chip's short name and the day's full name. */
export const WEEKDAYS = [
  { day: 1, short: 'Mon', name: 'Monday' },
  { day: 2, short: 'Tue', name: 'Tuesday' },
  { day: 3, short: 'Wed', name: 'Wednesday' },
  { day: 4, short: 'Thu', name: 'Thursday' },
  { day: 5, short: 'Fri', name: 'Friday' },
  { day: 6, short: 'Sat', name: 'Saturday' },
  { day: 7, short: 'Sun', name: 'Sunday' },
] as const;

/** The gap's choices in minutes. */
export const GAP_CHOICES = [0, 5, 10, 15, 20, 30] as const;

const gapLabel = (minutes: number) => (minutes === 0 ? 'No gap' : `${minutes} minutes`);

/** The gap select's options; a saved gap off the list (set through the API) is offered too, in order. */
export function gapOptions(current: number): { value: string; label: string }[] {
  const minutes: number[] = [...GAP_CHOICES];
  const allowed = Number.isInteger(current) && current >= 0 && current <= AUTOPLAN_MAX_GAP_MINUTES;
  if (allowed && !minutes.includes(current)) minutes.push(current);
  return minutes.sort((a, b) => a - b).map((value) => ({ value: String(value), label: gapLabel(value) }));
}

const sortedDays = (days: readonly number[]) => [...new Set(days)].sort((a, b) => a - b);

export const draftOf = (saved: Autoplan): AutoplanDraft => ({
  days: sortedDays(saved.days),
  start: saved.start,
  end: saved.end,
  gapMinutes: saved.gapMinutes,
  otherCalendarsBusy: saved.otherCalendarsBusy,
});

/** Whether the calendar the sync writes to is the account's main one (none chosen: no). */
export const mainCalendarChosen = (calendar: Pick<CalendarSettings, 'calendarId' | 'calendars'>): boolean =>
  calendar.calendars.some((entry) => entry.id === calendar.calendarId && entry.primary);

/**
 * The "other calendars" checkbox: ticked as the rule decides while the user has not chosen (on beside a
 * calendar of its own), with the line that says why; ticking or unticking it is the user's choice.
 */
export function otherCalendarsBox(draft: Pick<AutoplanDraft, 'otherCalendarsBusy'>, mainChosen: boolean) {
  return {
    checked: otherCalendarsCount(draft.otherCalendarsBusy, mainChosen),
    description: otherCalendarsBusyNote(otherCalendarsBusyByDefault(draft.otherCalendarsBusy, mainChosen)),
  };
}

/** The chips' values (strings) as ISO weekdays, Monday first. */
export function daysFromChips(values: readonly string[]): number[] {
  return sortedDays(values.map(Number).filter((day) => Number.isInteger(day) && day >= 1 && day <= 7));
}

export const chipsOfDays = (days: readonly number[]): string[] => days.map(String);

/** A key of the saved hours: the form starts afresh when they change, not when only the switch does. */
export const hoursKey = (saved: Autoplan): string => JSON.stringify(draftOf(saved));

function sameDraft(a: AutoplanDraft, b: AutoplanDraft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What a save sends: the draft, with the switch as it is. */
export const autoplanOf = (draft: AutoplanDraft, active: boolean): Autoplan => ({
  active,
  ...draft,
  days: sortedDays(draft.days),
});

/**
 * Whether the draft differs from what is saved, whether it may be saved, and the schema's message for
 * each field it refuses (the first one per field).
 */
export function draftStatus(draft: AutoplanDraft, saved: Autoplan) {
  const result = autoplanSchema.safeParse(autoplanOf(draft, saved.active));
  const errors: Partial<Record<DraftField, string>> = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = issue.path[0];
      if (field === 'days' || field === 'start' || field === 'end' || field === 'gapMinutes') {
        errors[field] ??= issue.message;
      }
    }
  }
  const changed = !sameDraft(draftOf({ ...draft, active: saved.active }), draftOf(saved));
  const valid = result.success;
  return { changed, valid, errors, canSave: changed && valid };
}
