import { randomBytes } from 'node:crypto';
import type { CalendarTarget } from '../calendar-target.port.ts';
import type { SyncChannels } from '../inbound/sync-channels.ts';
import type { SyncContext } from '../plan/sync-context.ts';
import type { SyncActivityRepository } from '../store/sync-activity.repository.ts';
import type { RunStartRows } from '../store/sync-run-start.repository.ts';
import type { SyncSettingsReader } from '../store/sync-settings.repository.ts';
import type { SyncStateRepository } from '../store/sync-state.repository.ts';
import type { SyncState } from '../sync-state.ts';
import type { TokenScope } from '../with-token.ts';
import type { createRunBudget } from './run-budget.ts';
import type { SyncOutcome } from './sync-outcome.ts';

export type AdmissionDeps = {
  settings: SyncSettingsReader;
  states: SyncStateRepository;
  activity: SyncActivityRepository;
  channels: SyncChannels;
  calendars: Record<'google' | 'microsoft', CalendarTarget | null>;
  tokenScope?: TokenScope;
  budget: Pick<ReturnType<typeof createRunBudget>, 'readState' | 'waitMs'>;
};

/** A run that may go ahead: what the gate checked. */
export type Admitted = {
  context: Extract<SyncContext, { runnable: true }>;
  state: SyncState | null;
  calendar: CalendarTarget;
  titleSalt: string;
};

/** Whether the run may go ahead now: sync on and paid for, no back-off, budget left, a calendar. */
export async function admit(
  deps: AdmissionDeps,
  userId: string,
  options: { spaced?: boolean; routine?: boolean },
  now: Date,
  /** The settings and state as the run's start read them with its lease (null: read them now). */
  started: RunStartRows | null = null,
): Promise<Admitted | SyncOutcome> {
  const context = started?.context ?? (await deps.settings.load(userId, now));
  if (!context.runnable) {
    if (context.block === 'not-entitled') await deps.activity.raise(userId, 'subscription-ended', now);
    // Switched off, unpaid or disconnected: no more notifications until sync may run again.
    if (context.block !== 'no-user') await deps.channels.stop(userId);
    return { status: 'skipped', reason: context.block };
  }
  deps.tokenScope?.known(context.connections);
  const state = started ? started.state : await deps.states.find(userId);
  const { calendarProvider } = context.settings;
  deps.budget.readState(state, calendarProvider);
  if (state?.backoffUntil && state.backoffUntil > now) {
    return { status: 'retry-later', afterMs: state.backoffUntil.getTime() - now.getTime() };
  }
  // A user who calls the providers faster than their per-user limits allow waits for the budget to
  // refill (and everyone, while the app's calls reach the provider's limit for the whole app); changes
  // meanwhile are read by that run together.
  const wait = options.spaced ? await deps.budget.waitMs(state, calendarProvider, now, options.routine) : 0;
  if (wait > 0) return { status: 'retry-later', afterMs: wait };
  let titleSalt = state?.titleSalt;
  if (!titleSalt) {
    titleSalt = randomBytes(16).toString('base64url');
    await deps.states.save(userId, { titleSalt }, now);
  }
  const calendar = deps.calendars[context.settings.calendarProvider];
  if (!calendar) return { status: 'skipped', reason: 'calendar-not-configured' };
  return { context, state, calendar, titleSalt };
}
