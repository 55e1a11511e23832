import { z } from 'zod';
import { ON_COMPLETE_VALUES } from '../settings/constants.ts';
import { DATED_TASKS_SETTINGS } from '../settings/dated-tasks.ts';
import { PROJECT_SCOPE_MODES, todoistProjectSchema } from '../settings/project-scope.ts';
import { autoplanSchema } from '../settings/settings.schema.ts';
import { noticePrefsSchema } from './notices.schema.ts';

export const subscriptionStatusSchema = z.enum([
  'trial',
  'active',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'past_due',
  'unpaid',
]);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

export const paymentSchema = z.object({
  validUntil: z.iso.datetime({ offset: true }),
  subscriptionStatus: subscriptionStatusSchema,
  plan: z.object({ interval: z.enum(['month', 'year']).nullable() }),
  canceled: z.boolean(),
  /** A paid plan still in the free trial it was bought in: its first charge is on `validUntil`. */
  trialing: z.boolean(),
});

export const todoistLabelSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  item_order: z.number(),
});
/**
 * A Todoist label as the user view carries it (docs/product-rules.md §3); sorted by `item_order` (see
 * `sortLabels`).
 */
export type TodoistLabel = z.infer<typeof todoistLabelSchema>;

/**
 * todoSettings (docs/product-rules.md §3). `connected` stands for "a token exists"; the token itself never
 * leaves the server.
 */
export const todoSettingsSchema = z.object({
  provider: z.literal('Todoist').nullable(),
  connected: z.boolean(),
  /** Todoist refused our token (access revoked there): the user must connect again. */
  needsReconnect: z.boolean(),
  accountType: z.string().nullable(),
  userId: z.string().nullable(),
  timezone: z.object({ timezone: z.string() }).nullable(),
  labels: z.array(todoistLabelSchema),
  timeboxSettings: z.array(z.object({ label: z.string(), duration: z.number().int() })),
  taskDurationSettings: z.object({ active: z.boolean(), label: z.string().nullable() }),
  onComplete: z.enum(ON_COMPLETE_VALUES),
  onPreComplete: z.boolean(),
  /** The account's active projects as last read from Todoist, each parent before its sub-projects. */
  projects: z.array(todoistProjectSchema),
  /**
   * Which projects sync: all, or the chosen ones with their sub-projects. `missing`: chosen projects
   * Todoist no longer lists (archived or deleted), named for the dashboard's warning.
   */
  projectScope: z.object({
    mode: z.enum(PROJECT_SCOPE_MODES),
    projectIds: z.array(z.string()),
    missing: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
  /** Where new tasks from events go; null is the Inbox (see `projectForNewTasks`). */
  eventProjectId: z.string().nullable(),
  /** Tasks with a date but no time: left alone, or all-day events (see `DATED_TASKS_SETTINGS`). */
  datedTasks: z.enum(DATED_TASKS_SETTINGS),
});
export type TodoSettings = z.infer<typeof todoSettingsSchema>;

/** The calendar providers an account can be with, by their integration keys. */
export const CALENDAR_ACCOUNT_PROVIDERS = ['google', 'microsoft'] as const;

/**
 * One connected calendar account (decision 028). `sync`: the sync's own account, whose calendar
 * `calendarId` names (the first connected); the others are added beside it, and "Plan my day" counts
 * their calendars as busy. `needsReconnect`: the provider no longer accepts Timeboxer's access to it.
 */
export const calendarAccountSchema = z.object({
  id: z.uuid(),
  provider: z.enum(CALENDAR_ACCOUNT_PROVIDERS),
  /** The account's address at the provider (null: not read yet). */
  email: z.string().nullable(),
  sync: z.boolean(),
  needsReconnect: z.boolean(),
  calendars: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      /** The account's main calendar (Google's primary, Microsoft's default). */
      primary: z.boolean(),
      /** Whether Timeboxer could write its events there (false: shared with the account to read only). */
      canWrite: z.boolean(),
    }),
  ),
});
export type CalendarAccount = z.infer<typeof calendarAccountSchema>;

/** calendarSettings (docs/product-rules.md §3), for Google Calendar or Microsoft. */
export const calendarSettingsSchema = z.object({
  provider: z.enum(['Google Calendar', 'Microsoft']).nullable(),
  connected: z.boolean(),
  needsReconnect: z.boolean(),
  calendarId: z.string().nullable(),
  calendars: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      color: z.string().nullable(),
      timeZone: z.string().nullable(),
      /** The account's main calendar (Google's primary, Microsoft's default); see `mainCalendarId`. */
      primary: z.boolean(),
      /** Shared with the account to read only: not offered for Timeboxer's events; its busy times count. */
      readOnly: z.boolean(),
    }),
  ),
  categories: z.array(z.object({ id: z.string(), displayName: z.string(), color: z.string() })),
  /** Google event colour id; '' is the calendar's default colour. */
  color: z.string(),
  category: z.string().nullable(),
  private: z.boolean(),
  todoistLinkDescription: z.boolean(),
  /** Minutes before the event; null is no reminder. */
  reminder: z.number().int().nullable(),
  /** "Plan my day": placing timeboxed tasks that have a date but no time (issue 24). */
  autoplan: autoplanSchema,
  /** Every connected calendar account, the sync's first, then in the order they were added. */
  accounts: z.array(calendarAccountSchema),
});
export type CalendarSettings = z.infer<typeof calendarSettingsSchema>;

/**
 * The signed-in user as `GET /api/current_user` returns it (docs/product-rules.md §3). Never carries a token.
 */
export const currentUserSchema = z.object({
  id: z.uuid(),
  name: z.object({ firstName: z.string(), displayName: z.string() }),
  email: z.string(),
  googleId: z.string().nullable(),
  facebookId: z.string().nullable(),
  syncActive: z.boolean(),
  welcomeWizardSeen: z.boolean(),
  /** E-mails when sync stops or needs the user, and when that is solved (docs/product-rules.md §11). */
  notices: noticePrefsSchema,
  payment: paymentSchema,
  todoSettings: todoSettingsSchema,
  calendarSettings: calendarSettingsSchema,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
