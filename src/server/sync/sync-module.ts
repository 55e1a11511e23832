import type { Logger } from 'pino';
import type { Database } from '#server/db/client.ts';
import type { SettingsRepository } from '#server/domain/settings/settings.repository.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import type { CalendarTarget } from './calendar-target.port.ts';
import { createActivityNames } from './inbound/activity-names.ts';
import { createNotificationIntake } from './inbound/notification-intake.ts';
import { createChannelVerifier, createSyncChannels } from './inbound/sync-channels.ts';
import { createSyncPreview } from './inbound/sync-preview.ts';
import { appBudgetRules } from './plan/provider-budget.ts';
import type { BrakeThresholds } from './plan/removal-brake.ts';
import { createAppBudget } from './run/app-budget.ts';
import { createSyncEngine } from './run/sync-engine.ts';
import { createOtherAccountsReader } from './store/other-accounts.reader.ts';
import { createProviderAppBudgetRepository } from './store/provider-app-budget.repository.ts';
import { createSyncActivityRepository } from './store/sync-activity.repository.ts';
import { createSyncHintRepository } from './store/sync-hint.repository.ts';
import { createSyncLinkRepository } from './store/sync-link.repository.ts';
import { createSyncRunLeaseRepository } from './store/sync-run-lease.repository.ts';
import { createSyncRunStart } from './store/sync-run-start.repository.ts';
import { createSyncSettingsReader } from './store/sync-settings.repository.ts';
import { createSyncStateRepository } from './store/sync-state.repository.ts';
import { createSyncService } from './sync.service.ts';
import type { TaskSource } from './task-source.port.ts';
import type { TokenScope, WithAccountToken, WithToken } from './with-token.ts';

/** What the sync needs from the rest of the app; the composition root picks every implementation. */
export type SyncModuleDeps = {
  database: Pick<Database, 'db' | 'notificationDb'>;
  /** Where the Todoist labels a run reads go (settings follow their labels by id). */
  labels: Pick<SettingsRepository, 'applyLabelChanges' | 'forgetLabelRenames' | 'saveTodoistProjects'>;
  tasks: TaskSource;
  calendars: Record<'google' | 'microsoft', CalendarTarget | null>;
  withToken: WithToken;
  /** Tokens of the calendar accounts added beside the sync's (Plan my day reads their busy times). */
  withAccountToken?: WithAccountToken;
  tokenScope?: TokenScope;
  queue: Pick<JobQueue, 'requestSyncs'>;
  readTodoistWebhook: Parameters<typeof createSyncService>[0]['readTodoistWebhook'];
  parseGraphNotifications: Parameters<typeof createSyncService>[0]['parseGraphNotifications'];
  /** The app's public origin, where providers reach the webhooks. */
  publicOrigin: () => string | null;
  onChannelRenewal: (provider: 'google' | 'microsoft', outcome: 'renewed' | 'failed') => void;
  /** A worker found the app-wide budget of a calendar provider spent. */
  onAppBudgetShort?: (provider: 'google' | 'microsoft') => void;
  brake?: BrakeThresholds;
  /** The project's Google Calendar quota per minute (the app-wide budget; default 10,000). */
  googleRequestsPerMinute?: number;
  clock: Clock;
  log: Logger;
};

export type SyncModule = ReturnType<typeof createSyncModule>;

/**
 * The sync's parts put together: its repositories, push channels, the engine (run by the worker), the
 * service the HTTP routes call, the preview of a settings change and the names the activity shows.
 */
export function createSyncModule(deps: SyncModuleDeps) {
  const { database, calendars, withToken, clock, log } = deps;
  const states = createSyncStateRepository(database.db);
  const activity = createSyncActivityRepository(database.db);
  const settings = createSyncSettingsReader(database.db);
  const links = createSyncLinkRepository(database.db);
  const channels = createSyncChannels({
    states,
    calendars,
    withToken,
    clock,
    log,
    publicOrigin: deps.publicOrigin,
    onRenewal: deps.onChannelRenewal,
  });
  const appBudget = createAppBudget({
    store: createProviderAppBudgetRepository(database.db),
    rules: appBudgetRules(deps.googleRequestsPerMinute),
    ...(deps.onAppBudgetShort ? { onShort: deps.onAppBudgetShort } : {}),
    clock,
    log,
  });
  const otherAccounts = createOtherAccountsReader(database.db);
  const engine = createSyncEngine({
    ...deps,
    otherAccounts,
    settings,
    links,
    states,
    activity,
    channels,
    hints: createSyncHintRepository(database.db),
    leases: createSyncRunLeaseRepository(database.db),
    runStart: createSyncRunStart(database.db),
    appBudget,
  });
  // Notifications are recorded on connections of their own, never waiting for the runs' ones.
  const noticeStates = createSyncStateRepository(database.notificationDb);
  const intake = createNotificationIntake({
    settings: createSyncSettingsReader(database.notificationDb),
    channels: createChannelVerifier(noticeStates),
    states: noticeStates,
    hints: createSyncHintRepository(database.notificationDb),
    links: createSyncLinkRepository(database.notificationDb),
    queue: deps.queue,
    clock,
  });
  const service = createSyncService({ ...deps, intake, channels, states, activity, links, appBudget });
  const preview = createSyncPreview({ ...deps, settings, links, states, appBudget, otherAccounts });
  const names = createActivityNames({ ...deps, activity, states, links, appBudget });
  return { engine, service, preview, names, settings };
}
