import { z } from 'zod';
import { isPlainText } from '../validation/storable-text.ts';
import {
  AUTOPLAN_MAX_GAP_MINUTES,
  DURATION_MAX,
  DURATION_MIN,
  LABEL_COLORS,
  LABEL_MAX_LENGTH,
  ON_COMPLETE_VALUES,
} from './constants.ts';

/**
 * The messages of docs/product-rules.md §5, defined once: the forms show them, the server answers them in its
 * 400s.
 */
export const MESSAGES = {
  durationEmpty: 'Please enter a duration',
  durationNotNumber: 'Please enter a number for the duration',
  durationNotInteger: 'Please enter an integer (without decimal point)',
  durationRange: 'Please enter a number between 1 and 1440 (= 24h)',
  labelEmpty: 'Please select a label',
  labelTooLong: 'Please enter a label with no more than 60 characters',
  labelDuplicate: 'There is already another setting with that label',
  controlCharacters: 'Please enter text without control characters',
} as const;

/**
 * A duration as typed is ASCII digits, without sign or leading zero (`30`, never `+30`, `030`, `３０`, `0x1E`
 * or `3e1`). Decimals (`30.0`) are named as such, and a minus before digits as a number below 1.
 */
const WHOLE_MINUTES = /^(0|[1-9][0-9]*)$/;
const DECIMALS = /^-?[0-9]+\.[0-9]+$/;
const NEGATIVE = /^-[0-9]+$/;
/** Only the spaces a person types around a number are forgiven (not a byte-order mark or other spaces). */
const trimTyped = (value: string) => value.replace(/^[ \t]+|[ \t]+$/g, '');

/** A string of at most `max` characters without control characters. */
const plainText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => isPlainText(value), MESSAGES.controlCharacters);

/** Duration as typed in a form (string) or sent by a client (number): checked in spec order. */
export function durationError(value: unknown): string | null {
  if (value === undefined || value === null || (typeof value === 'string' && trimTyped(value) === '')) {
    return MESSAGES.durationEmpty;
  }
  if (typeof value === 'string') {
    const typed = trimTyped(value);
    if (DECIMALS.test(typed)) return MESSAGES.durationNotInteger;
    if (NEGATIVE.test(typed)) return MESSAGES.durationRange;
    if (!WHOLE_MINUTES.test(typed)) return MESSAGES.durationNotNumber;
    return rangeError(Number(typed));
  }
  if (typeof value !== 'number' || Number.isNaN(value)) return MESSAGES.durationNotNumber;
  if (!Number.isInteger(value)) return MESSAGES.durationNotInteger;
  return rangeError(value);
}

function rangeError(minutes: number): string | null {
  return minutes < DURATION_MIN || minutes > DURATION_MAX ? MESSAGES.durationRange : null;
}

/** Label rules; `otherLabels` are the labels of the user's other timebox settings. */
export function labelError(value: unknown, otherLabels: readonly string[] = []): string | null {
  if (typeof value !== 'string' || value.trim() === '') return MESSAGES.labelEmpty;
  if (value.length > LABEL_MAX_LENGTH) return MESSAGES.labelTooLong;
  if (!isPlainText(value)) return MESSAGES.controlCharacters;
  const wanted = value.trim().toLowerCase();
  if (otherLabels.some((label) => label.trim().toLowerCase() === wanted)) return MESSAGES.labelDuplicate;
  return null;
}

const duration = z
  .unknown()
  .superRefine((value, context) => {
    const error = durationError(value);
    if (error) context.addIssue({ code: 'custom', message: error });
  })
  .transform((value) => Number(typeof value === 'string' ? trimTyped(value) : value));

const label = z
  .unknown()
  .superRefine((value, context) => {
    const error = labelError(value);
    if (error) context.addIssue({ code: 'custom', message: error });
  })
  .transform((value) => String(value).trim());

export const addTimeboxSchema = z.object({ label, duration });
export const editTimeboxSchema = z.object({ label, newLabel: label, duration });
export const labelParamSchema = z.object({ label: plainText(LABEL_MAX_LENGTH).pipe(z.string().min(1)) });

export const taskDurationActiveSchema = z.object({ active: z.boolean() });
export const taskDurationLabelSchema = z.object({
  label: plainText(LABEL_MAX_LENGTH).pipe(z.string().min(1)),
});

const labelColor = z.union([z.enum(LABEL_COLORS), z.number().int().min(30).max(49)]);
export const createTodoistLabelSchema = z.object({ label, color: labelColor });
export const updateTodoistLabelSchema = z.object({
  labelId: plainText(100).pipe(z.string().min(1)),
  color: labelColor,
});
export const todoistLabelParamSchema = z.object({ labelId: plainText(100).pipe(z.string().min(1)) });

export const calendarIdSchema = z.object({ calendarId: plainText(1024).pipe(z.string().min(1)) });
export const calendarColorSchema = z.object({
  color: z.enum(['', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']),
});
export const calendarCategorySchema = z.object({ category: plainText(255).nullable() });
export const calendarPrivateSchema = z.object({ private: z.boolean() });
export const todoistLinkDescriptionSchema = z.object({ todoistLinkDescription: z.boolean() });
export const reminderSchema = z.object({
  reminder: z.union([z.literal(0), z.literal(15), z.literal(30), z.literal(60), z.literal(120)]).nullable(),
});

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time from 00:00 to 23:59.');

/** "Plan my day": working hours (ISO weekdays, wall-clock times in the Todoist zone), the gap, busy calendars. */
export const autoplanSchema = z
  .object({
    active: z.boolean(),
    days: z
      .array(
        z
          .number()
          .int()
          .min(1, 'Days are 1 (Monday) to 7 (Sunday).')
          .max(7, 'Days are 1 (Monday) to 7 (Sunday).'),
      )
      .min(1, 'Choose at least one working day.')
      .max(7)
      .refine((days) => new Set(days).size === days.length, 'Name each day once.'),
    start: clockTime,
    end: clockTime,
    gapMinutes: z
      .number()
      .int()
      .min(0, 'The gap is 0 to 30 minutes.')
      .max(AUTOPLAN_MAX_GAP_MINUTES, 'The gap is 0 to 30 minutes.'),
    /** The user's choice; null: not chosen, on when the calendar is not the main one (`otherCalendarsCount`). */
    otherCalendarsBusy: z.boolean().nullable(),
  })
  .refine((hours) => hours.end > hours.start, {
    message: 'Working hours must end after they start.',
    path: ['end'],
  });
export type Autoplan = z.infer<typeof autoplanSchema>;

export const onCompleteSchema = z.object({ setting: z.enum(ON_COMPLETE_VALUES) });
export const booleanSettingSchema = z.object({ setting: z.boolean() });
export const wizardSeenSchema = z.object({ wizardSeen: z.boolean() });
