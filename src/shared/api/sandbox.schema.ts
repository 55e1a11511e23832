import { z } from 'zod';
import { LABEL_MAX_LENGTH } from '../settings/constants.ts';

/** The sandbox console's view of emulated Todoist tasks and calendar events (sandbox mode only). */
export const sandboxTaskSchema = z.object({
  id: z.string(),
  content: z.string(),
  /** ISO date (all-day) or date-time; null without a due date. */
  due: z.object({ date: z.string(), datetime: z.string().nullable(), isRecurring: z.boolean() }).nullable(),
  durationMinutes: z.number().nullable(),
  labels: z.array(z.string()),
  /** The project the task is in (every task is in one; the Inbox unless moved). */
  projectId: z.string(),
});
export type SandboxTask = z.infer<typeof sandboxTaskSchema>;

/** A personal Todoist label; tasks carry labels by name. */
export const sandboxLabelSchema = z.object({ id: z.string(), name: z.string() });
export type SandboxLabel = z.infer<typeof sandboxLabelSchema>;

/** An active Todoist project, in Todoist's order (each parent before its sub-projects). */
export const sandboxProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
  /** Every account has exactly one Inbox: it cannot be archived, deleted or be a parent. */
  inbox: z.boolean(),
});
export type SandboxProject = z.infer<typeof sandboxProjectSchema>;

/** An archived project: out of the lists with its tasks until it is unarchived. */
export const sandboxArchivedProjectSchema = z.object({ id: z.string(), name: z.string() });
export type SandboxArchivedProject = z.infer<typeof sandboxArchivedProjectSchema>;

export const sandboxTodoistSchema = z.object({
  tasks: z.array(sandboxTaskSchema),
  labels: z.array(sandboxLabelSchema),
  projects: z.array(sandboxProjectSchema),
  archivedProjects: z.array(sandboxArchivedProjectSchema),
});
export type SandboxTodoist = z.infer<typeof sandboxTodoistSchema>;

export const sandboxEventSchema = z.object({
  id: z.string(),
  summary: z.string(),
  start: z.string(),
  end: z.string(),
  allDay: z.boolean(),
  recurring: z.boolean(),
});
export type SandboxEvent = z.infer<typeof sandboxEventSchema>;

export const sandboxCalendarSchema = z.object({
  calendars: z.array(z.object({ id: z.string(), name: z.string(), primary: z.boolean() })),
  calendarId: z.string(),
  events: z.array(sandboxEventSchema),
});
export type SandboxCalendar = z.infer<typeof sandboxCalendarSchema>;

const email = z.email('Please enter an e-mail address');
const isoDateTime = z.iso.datetime({ offset: true, message: 'Please choose a date and time' });

/** Which emulated calendar service the console shows; Google unless asked otherwise. */
export const sandboxCalendarProviderSchema = z.enum(['google', 'microsoft'], {
  message: 'Please choose google or microsoft',
});
export type SandboxCalendarProvider = z.infer<typeof sandboxCalendarProviderSchema>;
const provider = sandboxCalendarProviderSchema.default('google');

export const sandboxAccountQuerySchema = z.object({ email, calendarId: z.string().optional() });

export const sandboxCalendarQuerySchema = sandboxAccountQuerySchema.extend({ provider });
export type SandboxCalendarQuery = z.infer<typeof sandboxCalendarQuerySchema>;

/** A calendar day, `YYYY-MM-DD`, as Todoist's `due_date` takes it. */
const isoDate = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'Please choose a date (YYYY-MM-DD)');

/**
 * A task as the console adds or edits it. Its due is a time (`due`), a date without a time
 * (`dueDate`), or neither (editing: neither clears the due).
 */
export const sandboxTaskInputSchema = z
  .object({
    email,
    content: z.string().trim().min(1, 'Please enter a task name').max(500),
    due: isoDateTime.optional(),
    dueDate: isoDate.optional(),
    labels: z.array(z.string().trim().min(1).max(60)).max(10).default([]),
    durationMinutes: z.number().int().min(1).max(1440).optional(),
    /** Adding: the project to add it to (else the Inbox). Editing: another project moves the task there. */
    projectId: z.string().min(1).max(200).optional(),
  })
  .refine((task) => task.due === undefined || task.dueDate === undefined, {
    message: 'Please give either a due time or a due date, not both',
    path: ['dueDate'],
  });
export type SandboxTaskInput = z.infer<typeof sandboxTaskInputSchema>;

/** A label's new name, as the console sends it: trimmed, 1 to 60 characters, no control characters. */
export const sandboxLabelNameSchema = z
  .string()
  .trim()
  .min(1, 'Please enter a label name')
  .max(LABEL_MAX_LENGTH, `Please enter a label name of at most ${LABEL_MAX_LENGTH} characters`)
  .regex(/^\P{Cc}*$/u, 'A label name cannot contain control characters');

export const sandboxLabelRenameSchema = z.object({ email, name: sandboxLabelNameSchema });
export type SandboxLabelRename = z.infer<typeof sandboxLabelRenameSchema>;

/** Todoist's limit on a project's name. */
export const PROJECT_NAME_MAX_LENGTH = 120;

/** A project's name, as the console sends it: trimmed, 1 to 120 characters, no control characters. */
export const sandboxProjectNameSchema = z
  .string()
  .trim()
  .min(1, 'Please enter a project name')
  .max(
    PROJECT_NAME_MAX_LENGTH,
    `Please enter a project name of at most ${PROJECT_NAME_MAX_LENGTH} characters`,
  )
  .regex(/^\P{Cc}*$/u, 'A project name cannot contain control characters');

export const sandboxProjectIdParamsSchema = z.object({ id: z.string().min(1).max(200) });

/** A new project: at the root, or under `parentId` (an active project other than the Inbox). */
export const sandboxProjectInputSchema = z.object({
  email,
  name: sandboxProjectNameSchema,
  parentId: z.string().min(1).max(200).optional(),
});
export type SandboxProjectInput = z.infer<typeof sandboxProjectInputSchema>;

export const sandboxProjectRenameSchema = z.object({ email, name: sandboxProjectNameSchema });
export type SandboxProjectRename = z.infer<typeof sandboxProjectRenameSchema>;

export const sandboxEventInputSchema = z
  .object({
    email,
    provider,
    calendarId: z.string().min(1),
    summary: z.string().trim().min(1, 'Please enter a title').max(500),
    start: isoDateTime,
    end: isoDateTime,
    /**
     * Google only: the event is one Todoist's own calendar integration would have written, its
     * description linking to a Todoist task (the sync leaves such events alone). Editing: false keeps
     * the description as it is.
     */
    fromTodoistSync: z.boolean().default(false),
  })
  .refine((event) => Date.parse(event.end) > Date.parse(event.start), {
    message: 'The end must be after the start',
    path: ['end'],
  })
  .refine((event) => !event.fromTodoistSync || event.provider === 'google', {
    message: 'Todoist’s own calendar sync writes only to Google Calendar',
    path: ['fromTodoistSync'],
  });
export type SandboxEventInput = z.infer<typeof sandboxEventInputSchema>;

/** One event of one calendar, as a delete names it. */
export type SandboxEventRef = {
  email: string;
  provider: SandboxCalendarProvider;
  calendarId: string;
  id: string;
};

/**
 * GET /api/sandbox/accounts: the emulated accounts the signed-in user connected, so the console opens
 * on them. Null where nothing is connected (or nobody is signed in); `email` is null when the emulator
 * no longer knows the account.
 */
export const sandboxAccountsSchema = z.object({
  todoist: z.object({ email: z.string().nullable() }).nullable(),
  calendar: z
    .object({
      provider: sandboxCalendarProviderSchema,
      email: z.string().nullable(),
      /** The calendar chosen for sync in the Calendar Settings, if any. */
      calendarId: z.string().nullable(),
    })
    .nullable(),
  /** The calendar accounts added beside the sync's (decision 028), each shown with its calendars. */
  others: z.array(z.object({ provider: sandboxCalendarProviderSchema, email: z.string().nullable() })),
});
export type SandboxAccounts = z.infer<typeof sandboxAccountsSchema>;
