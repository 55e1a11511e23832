import type { TodoistAccounts } from './todoist.accounts.ts';
import type { CommandFaults } from './todoist.command-faults.ts';
import type { DueContext } from './todoist.due.ts';
import type { UserRecord } from './todoist.records.ts';
import type { TodoistStore } from './todoist.store.ts';
import type { SyncLimiter } from './todoist.sync-limits.ts';
import type { Clock } from './todoist.time.ts';
import type { WebhookEmitter } from './todoist.webhooks.ts';
import type { WireForms } from './todoist.wire-forms.ts';

/** The sandbox Todoist app (App Management Console entry). */
export type TodoistApp = {
  clientId: string;
  clientSecret: string;
  /** The registered OAuth redirect URI; when absent, any `redirect_uri` query parameter is accepted. */
  redirectUri?: string;
  /** Shown on the consent page; defaults to the client id. */
  name?: string;
};

export type TodoistContext = {
  app: TodoistApp;
  store: TodoistStore;
  accounts: TodoistAccounts;
  clock: Clock;
  webhooks: WebhookEmitter;
  /** Todoist's per-user limits on `/api/v1/sync`. */
  syncLimits: SyncLimiter;
  /** The documented forms the wire is written in (`POST /_emulator/forms`). */
  wire: WireForms;
  /** Sync commands refused one by one (`/_emulator/command-faults`). */
  commandFaults: CommandFaults;
};

export function dueContext(context: TodoistContext, user: UserRecord): DueContext {
  return { now: context.clock.now(), timeZone: user.timeZone };
}
