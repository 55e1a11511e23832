import { z } from 'zod';
import { DATED_TASKS_SETTINGS } from '../settings/dated-tasks.ts';
import { heldCauseSchema } from '../sync/held-removals.ts';
import { REFUSED_WRITES } from '../sync/refused-writes.ts';
import { itemNameSchema } from './activity-names.schema.ts';

/**
 * The sync activity and previews the dashboard shows. The activity holds provider ids only, never a task's
 * or event's text (its names are read apart, activity-names.schema.ts); the previews name what they
 * count from the reads they make for that answer.
 */

export const SYNC_DIRECTIONS = ['todoist-to-calendar', 'calendar-to-todoist'] as const;
export type SyncDirection = (typeof SYNC_DIRECTIONS)[number];

/** `held`: a removal the safety brake held back; `kept`: a held pair the user chose to keep (unlinked). */
export const SYNC_ACTIONS = [
  'created',
  'updated',
  'completed',
  'deleted',
  'skipped',
  'held',
  'kept',
] as const;
export type SyncAction = (typeof SYNC_ACTIONS)[number];

/** Problems only the user can solve; each has a message and what to do in the web app. */
export const SYNC_PROBLEMS = [
  'reconnect-todoist',
  'reconnect-calendar',
  'calendar-missing',
  'quota-reached',
  'subscription-ended',
  /** The safety brake held back many removals at once; the user chooses (see `heldRemovals`). */
  'removals-held',
  /** The user's runs failed several times in a row on an error of ours; cleared by the next run that goes through. */
  'sync-failing',
  /**
   * A calendar account added beside the sync's must be connected again, while Plan my day counts its
   * meetings: until it is, blocks may be placed over them. Holds as long as that is so (never stored).
   */
  'reconnect-other-calendar',
] as const;
export type SyncProblemCode = (typeof SYNC_PROBLEMS)[number];

export const syncActivityEntrySchema = z.object({
  id: z.string(),
  at: z.iso.datetime({ offset: true }),
  direction: z.enum(SYNC_DIRECTIONS),
  action: z.enum(SYNC_ACTIONS),
  taskId: z.string().nullable(),
  eventId: z.string().nullable(),
  /** Why a change was skipped or what changed, as a short code (`title`, `time`, `no-timebox-label` ...). */
  detail: z.string().nullable(),
});
export type SyncActivityEntry = z.infer<typeof syncActivityEntrySchema>;

export const syncProblemSchema = z.object({
  code: z.enum(SYNC_PROBLEMS),
  since: z.iso.datetime({ offset: true }),
});
export type SyncProblem = z.infer<typeof syncProblemSchema>;

/**
 * Other syncs whose events we recognise in the chosen calendar: `todoist` is Todoist's own Google
 * Calendar integration, whose events link to their tasks (docs/product-rules.md §10 "Another sync").
 */
export const OTHER_SYNCS = ['todoist'] as const;
export type OtherSync = (typeof OTHER_SYNCS)[number];

/** What the user chooses for held removals: carry them out once, or unlink the pairs and keep both sides. */
export const BRAKE_CHOICES = ['remove', 'keep'] as const;
export type BrakeChoice = (typeof BRAKE_CHOICES)[number];

/** The most held items one choice may name (the dashboard names one at a time; all at once needs none). */
export const HELD_ITEMS_MAX = 100;
/** A task's or event's id as a provider gave it: no control characters (the database takes no NUL). */
const providerId = z
  .string()
  .min(1)
  .max(1000)
  .regex(/^\P{Cc}+$/u);

/**
 * A held removal, by the ids of its pair as the brake logged them (`heldRemovals.items`): its task id
 * and/or its event id; a choice naming an item gives at least one.
 */
export const heldItemSchema = z
  .object({ taskId: providerId.nullable(), eventId: providerId.nullable() })
  .refine((item) => item.taskId !== null || item.eventId !== null, {
    message: 'A held item is named by its task id, its event id, or both.',
  });
export type HeldItem = z.infer<typeof heldItemSchema>;

/** GET /api/sync/activity */
/** One day with tasks "Plan my day" could not place (they keep their date). */
export const unplacedDaySchema = z.object({
  date: z.iso.date(),
  tasks: z.number().int().positive(),
  minutes: z.number().int().positive(),
});

/** The refused writes the activity lists at most, the latest first (the note says how many in all). */
export const REFUSED_LISTED = 50;

/**
 * A write a provider refused for good (docs/product-rules.md §10), as its pair keeps it: which item (by
 * the pair's ids; its name comes from the activity names), what was refused, by whom, the provider's
 * status and short reason code (never its message), and when it is tried again.
 */
export const refusedWriteSchema = z.object({
  taskId: z.string().nullable(),
  eventId: z.string().nullable(),
  write: z.enum(REFUSED_WRITES),
  /** Who refused: Todoist for a task write, the calendar's provider for an event write (null: none connected now). */
  provider: z.enum(['todoist', 'google', 'microsoft']).nullable(),
  /** The provider's HTTP status (Todoist's `http_code`), and its reason code: Google's `reason`, Graph's `error.code`, Todoist's `error_tag`. */
  status: z.number().int().nullable(),
  reason: z.string().nullable(),
  /** The latest refusal, and how many in a row. */
  refusedAt: z.iso.datetime({ offset: true }),
  refusals: z.number().int().positive(),
  /** When the back-off tries it again (sooner when the user changes the item). */
  retryAt: z.iso.datetime({ offset: true }),
});
export type RefusedWriteItem = z.infer<typeof refusedWriteSchema>;

export const syncActivitySchema = z.object({
  entries: z.array(syncActivityEntrySchema),
  problems: z.array(syncProblemSchema),
  /** When the last sync run finished; null before the first. */
  lastRunAt: z.iso.datetime({ offset: true }).nullable(),
  /** Removals the safety brake holds back for the user's choice; null when none are held. */
  heldRemovals: z
    .object({
      /** Events that would be removed. */
      events: z.number().int().nonnegative(),
      /** Tasks that would be deleted, or lose their time and timebox label. */
      tasks: z.number().int().nonnegative(),
      since: z.iso.datetime({ offset: true }),
      /**
       * The held items as the brake last logged them (ids; their names come from the activity names),
       * at most `events + tasks` of them, fewer when the activity kept fewer.
       */
      items: z.array(
        z.object({
          taskId: z.string().nullable(),
          eventId: z.string().nullable(),
          /** What removing it takes away: its event, or its task (deleted, or its time and label). */
          removes: z.enum(['event', 'task']),
          /** The user's choice for this item alone, made and waiting for the next run. */
          choice: z.enum(BRAKE_CHOICES).nullable(),
        }),
      ),
      /** Why they were held, when they share one cause (a label deleted in Todoist, say). */
      cause: heldCauseSchema.nullable(),
      /** The user's choice for every item without a choice of its own, made and waiting for the next run. */
      choice: z.enum(BRAKE_CHOICES).nullable(),
    })
    .nullable(),
  /**
   * Events of ours that stayed in a calendar of an account no longer connected (the user switched to
   * another account or provider), until the user dismisses the note.
   */
  leftBehind: z
    .object({
      provider: z.enum(['google', 'microsoft']),
      calendarId: z.string(),
      calendarName: z.string().nullable(),
      events: z.number().int().positive(),
      at: z.iso.datetime({ offset: true }),
      /** The account is no longer connected, or it can now only read that calendar. */
      why: z.enum(['disconnected', 'read-only']),
    })
    .nullable(),
  /**
   * Another sync writes into the chosen calendar (its events carry its marker and are never turned into
   * tasks): named once, until the user dismisses the note.
   */
  otherSync: z.object({ tool: z.enum(OTHER_SYNCS), seenAt: z.iso.datetime({ offset: true }) }).nullable(),
  /**
   * "Plan my day": the days (from today on) with tasks that did not fit, for "2 tasks (1 h 30) did not
   * fit on Thursday"; empty while it is off or everything fitted.
   */
  autoplanUnplaced: z.array(unplacedDaySchema),
  /**
   * The calendar provider's limit for all of the app's users is reached (the app-wide budget of
   * docs/decisions/017): the user's changes wait until about `until`. Null otherwise, or for a wait of
   * a few seconds.
   */
  providerBusy: z
    .object({ provider: z.enum(['google', 'microsoft']), until: z.iso.datetime({ offset: true }) })
    .nullable(),
  /**
   * Writes a provider refused for good, kept on their pairs and tried again on a back-off: the latest
   * `REFUSED_LISTED` of them and how many there are in all; null when none is refused.
   */
  refusedWrites: z
    .object({
      total: z.number().int().positive(),
      items: z.array(refusedWriteSchema).max(REFUSED_LISTED),
    })
    .nullable(),
});
export type SyncActivity = z.infer<typeof syncActivitySchema>;

/**
 * GET /api/sync/preview/autoplan: where "Plan my day" would put the dated timeboxed tasks of the next 7
 * days with the working hours as saved, and what would not fit, before it is switched on. Titles are
 * read from Todoist for this answer only.
 */
export const autoplanPreviewSchema = z.object({
  placements: z.array(
    z.object({
      taskId: z.string(),
      title: z.string(),
      start: z.iso.datetime({ offset: true }),
      end: z.iso.datetime({ offset: true }),
    }),
  ),
  unplaced: z.array(
    z.object({
      date: z.iso.date(),
      minutes: z.number().int().positive(),
      tasks: z.array(z.object({ taskId: z.string(), title: z.string() })),
    }),
  ),
});
export type AutoplanPreview = z.infer<typeof autoplanPreviewSchema>;

/** The items a preview's line names, the first few by title and time (the line says how many in all). */
export const PREVIEW_NAMED = 5;
const named = z.array(itemNameSchema).max(PREVIEW_NAMED);

/** GET /api/sync/preview: what switching sync on would do, for the chosen calendar. */
export const syncPreviewSchema = z.object({
  calendar: z.object({ id: z.string(), name: z.string() }),
  /** Tasks in scope (timeboxed, with a due time) that would become events. */
  tasksToEvents: z.number().int().nonnegative(),
  /** Events in scope (single, timed, from today, colour or category) that would become tasks. */
  eventsToTasks: z.number().int().nonnegative(),
  /** The main calendar with the default colour (Google) or no category (Microsoft): every event counts. */
  mainCalendarWithDefault: z.boolean(),
  /** The earliest of each count by title and time, read for this answer only (never stored). */
  named: z.object({ tasksToEvents: named, eventsToTasks: named }),
});
export type SyncPreview = z.infer<typeof syncPreviewSchema>;

/**
 * GET /api/sync/preview/change: what a proposed settings change would do to what is already synced, before
 * it is saved (the switch-on preview generalised). One change at a time, in the query.
 */
export const PROPOSED_CHANGES = [
  'removeTimebox',
  'calendar',
  'color',
  'category',
  'taskDuration',
  'projects',
  'datedTasks',
] as const;
export const proposedChangeQuerySchema = z.object({
  change: z.enum(PROPOSED_CHANGES),
  /** removeTimebox: the setting's label. */
  label: z.string().min(1).max(60).optional(),
  /** calendar: the calendar to choose. */
  calendarId: z.string().min(1).max(1000).optional(),
  /** color (Google colour id, '' for the default) or category (Microsoft; '' for none). */
  value: z.string().max(255).optional(),
  /** taskDuration: switched on or off. */
  active: z.enum(['true', 'false']).optional(),
  /** projects: every project, or the chosen ones (`projectIds`, comma-separated). */
  mode: z.enum(['all', 'chosen']).optional(),
  projectIds: z
    .string()
    .max(50_000)
    .regex(/^[\w,-]*$/)
    .optional(),
  /** datedTasks: left alone or all-day events. */
  setting: z.enum(DATED_TASKS_SETTINGS).optional(),
});
export type ProposedChangeQuery = z.infer<typeof proposedChangeQuerySchema>;

const count = z.number().int().nonnegative();
export const changePreviewSchema = z.object({
  eventsCreated: count,
  eventsRemoved: count,
  /** Events that move to the newly chosen calendar. */
  eventsMoved: count,
  tasksCreated: count,
  tasksDeleted: count,
  /** Tasks that lose their time and timebox label (their event was the user's to delete). */
  tasksUnscheduled: count,
  /** Tasks whose events are removed: they stay in Todoist as they are. */
  tasksKept: count,
  /** So many removals that the safety brake would hold them for the user's choice. */
  heldByBrake: z.boolean(),
  /**
   * The first items of each count by title and time, read for this answer only (never stored):
   * events by their own title, tasks by theirs.
   */
  named: z.object({
    eventsMoved: named,
    eventsRemoved: named,
    tasksDeleted: named,
    tasksUnscheduled: named,
    eventsCreated: named,
    tasksCreated: named,
  }),
});
export type ChangePreview = z.infer<typeof changePreviewSchema>;
/** The counts of a preview that name their items (`tasksKept` are the removed events' tasks). */
export type NamedPreviewCount = keyof ChangePreview['named'];

/** The preview of a change that changes nothing. */
export const NO_CHANGE: ChangePreview = {
  eventsCreated: 0,
  eventsRemoved: 0,
  eventsMoved: 0,
  tasksCreated: 0,
  tasksDeleted: 0,
  tasksUnscheduled: 0,
  tasksKept: 0,
  heldByBrake: false,
  named: {
    eventsMoved: [],
    eventsRemoved: [],
    tasksDeleted: [],
    tasksUnscheduled: [],
    eventsCreated: [],
    tasksCreated: [],
  },
};

/**
 * POST /api/sync/held/{choice}: carry held removals out once, or keep both sides and unlink the pairs;
 * for every held item still undecided (no body, or no `items`), or for the items named.
 */
export const brakeChoiceParamsSchema = z.object({ choice: z.enum(BRAKE_CHOICES) });
export const brakeChoiceBodySchema = z
  .object({ items: z.array(heldItemSchema).min(1).max(HELD_ITEMS_MAX).optional() })
  .optional();
export type BrakeChoiceBody = z.infer<typeof brakeChoiceBodySchema>;

/** The sync's paths: the dashboard's two calls (see the contract) and the providers' notifications. */
export const SYNC_PATHS = {
  activity: '/api/sync/activity',
  activityNames: '/api/sync/activity/names',
  preview: '/api/sync/preview',
  previewChange: '/api/sync/preview/change',
  previewAutoplan: '/api/sync/preview/autoplan',
  held: '/api/sync/held/:choice',
  dismissLeftBehind: '/api/sync/left-behind/dismiss',
  dismissOtherSync: '/api/sync/other-sync/dismiss',
  todoistWebhook: '/api/webhooks/todoist',
  googleWebhook: '/api/webhooks/google',
  microsoftWebhook: '/api/webhooks/microsoft',
  microsoftLifecycle: '/api/webhooks/microsoft/lifecycle',
} as const;
