/** Business constants of docs/product-rules.md §3 and §9, shared by the forms and the server. */

export const DURATION_MIN = 1;
export const DURATION_MAX = 1440;
export const LABEL_MAX_LENGTH = 60;
/** Colour code the missing-label action creates labels with (docs/product-rules.md §4, §9). */
export const NEW_LABEL_COLOR_CODE = 38;

/** Todoist's 20 label colour keys (docs/product-rules.md §3). */
export const LABEL_COLORS = [
  'berry_red',
  'red',
  'orange',
  'yellow',
  'olive_green',
  'lime_green',
  'green',
  'mint_green',
  'teal',
  'sky_blue',
  'light_blue',
  'blue',
  'grape',
  'violet',
  'lavender',
  'magenta',
  'salmon',
  'charcoal',
  'grey',
  'taupe',
] as const;
export type LabelColor = (typeof LABEL_COLORS)[number];

/**
 * Google event colours: name and id; the default calendar colour has the empty id (docs/product-rules.md §3).
 */
export const GOOGLE_EVENT_COLORS = [
  { id: '', name: 'Default Calendar Color' },
  { id: '11', name: 'Tomato' },
  { id: '4', name: 'Flamingo' },
  { id: '6', name: 'Tangerine' },
  { id: '5', name: 'Banana' },
  { id: '2', name: 'Sage' },
  { id: '10', name: 'Basil' },
  { id: '7', name: 'Peacock' },
  { id: '9', name: 'Blueberry' },
  { id: '1', name: 'Lavender' },
  { id: '3', name: 'Grape' },
  { id: '8', name: 'Graphite' },
] as const;

/** Reminder choices in minutes before the event; null is no reminder (docs/product-rules.md §9). */
export const REMINDER_OPTIONS = [
  { value: null, label: 'No reminder' },
  { value: 0, label: '0 minutes' },
  { value: 15, label: '15 minutes' },
  { value: 30, label: '30 minutes' },
  { value: 60, label: '1 hour' },
  { value: 120, label: '2 hours' },
] as const;

/** What happens to the event when its task is completed (docs/product-rules.md §9). */
export const ON_COMPLETE_OPTIONS = [
  { value: 'nothing', label: 'Do nothing' },
  { value: 'checkmark', label: 'Mark calendar event with a checkmark' },
  { value: 'remove', label: 'Remove calendar event' },
] as const;
export type OnComplete = (typeof ON_COMPLETE_OPTIONS)[number]['value'];
/** The on-complete values in the order above, for schemas (`z.enum(ON_COMPLETE_VALUES)`). */
export const ON_COMPLETE_VALUES = ON_COMPLETE_OPTIONS.map((option) => option.value) as [
  OnComplete,
  ...OnComplete[],
];

/** The task-duration label choice that syncs every task with a duration; it sorts first (order 0). */
export const SYNC_ALL_TASKS = '__all__';

export const TODOIST_ACCOUNT_TYPES_WITH_DURATION = ['Premium', 'Business'] as const;

/**
 * "Plan my day" (docs/product-rules.md): off until chosen; Monday to Friday, 09:00–17:00, no gap; other
 * calendars busy as `otherCalendarsCount` says until the user chooses.
 */
export const AUTOPLAN_DEFAULTS = {
  active: false,
  days: [1, 2, 3, 4, 5],
  start: '09:00',
  end: '17:00',
  gapMinutes: 0,
  otherCalendarsBusy: null,
} as const;
export const AUTOPLAN_MAX_GAP_MINUTES = 30;
