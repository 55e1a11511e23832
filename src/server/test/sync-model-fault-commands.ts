import fc from 'fast-check';
import { refusalRetryAt } from '#server/sync/plan/refusal-backoff.ts';
import { emulatorControl } from './sync-fixtures.ts';
import { chosenReadOnly, type Model, type RefusalKind } from './sync-model.ts';
import { Action, type Provider, type Real } from './sync-model-actions.ts';
import type { CalendarKind, LifecycleEvent } from './sync-model-calendars.ts';
import { addRefusalRules, removeRefusalRules } from './sync-model-refusals.ts';

/** What the world does wrong: failing providers, lost or late notifications, expired sync state. */

const provider = fc.constantFrom<Provider>('todoist', 'calendar');

const originOf = (real: Real, name: Provider) =>
  name === 'todoist' ? real.user.todoistOrigin : real.user.calendar.origin;

/**
 * A failing provider, for the app's requests only (the user's own client is not affected): throttled,
 * failing, answering a write with an error after making it, slow (1.5 s), or never answering (the app
 * gives up after its provider deadline, 2 s in the test).
 */
/**
 * A rate limit as the provider sends it: Todoist's and Graph's 429 with Retry-After; for Google one of
 * its documented forms (docs/provider-facts.md §1), picked by the method a rate limit does not match
 * on: a 429 with Retry-After, or a 403 naming rateLimitExceeded, userRateLimitExceeded or
 * quotaExceeded, without one.
 */
function asProviderSends<Rule extends { kind: string }>(
  rule: Rule,
  calendar: CalendarKind | null,
  method: string,
) {
  const google403 = { PATCH: 'rateLimitExceeded', DELETE: 'userRateLimitExceeded', GET: 'quotaExceeded' }[
    method
  ];
  // Without Retry-After the app waits its own back-off (up to a minute): one refusal, so that the wait
  // stays within the harness's two minutes for a run.
  return rule.kind === 'rate-limit' && calendar === 'google' && google403
    ? { ...rule, kind: 'status', status: 403, reason: google403, retryAfterSeconds: undefined, times: 1 }
    : rule;
}

export const providerFault = fc
  .record({
    provider,
    kind: fc.constantFrom('rate-limit', 'status', 'lose-response', 'latency', 'hang'),
    method: fc.constantFrom('POST', 'PATCH', 'DELETE', 'GET'),
    status: fc.constantFrom(500, 502, 503),
    times: fc.integer({ min: 1, max: 2 }),
  })
  .map(({ provider: name, kind, method, status, times }) => {
    // Todoist takes reads and writes as POST /sync; the calendars write with POST, PATCH and DELETE.
    const match = name === 'todoist' ? { method: 'POST' } : kind === 'lose-response' ? { method } : {};
    const rule = {
      kind,
      times,
      ...match,
      ...(kind === 'rate-limit' ? { retryAfterSeconds: 1 } : {}),
      ...(kind === 'status' || kind === 'lose-response' ? { status } : {}),
      ...(kind === 'latency' ? { latencyMs: 1500 } : {}),
    };
    return new Action(
      `fault(${name}, ${JSON.stringify(rule)})`,
      // Aimed at the app's token: none while the calendar is not connected.
      (model) => name === 'todoist' || model.calendarConnected,
      async (_model, real) => {
        const calendar = name === 'calendar' ? real.user.calendar.kind : null;
        await emulatorControl(originOf(real, name), 'faults', {
          ...asProviderSends(rule, calendar, method),
          bearer: await real.appToken(name),
        });
      },
    );
  });

/** Notifications lost, sent twice, out of order, late, or received with the answer lost (so sent again). */
export const notificationFault = fc
  .record({
    provider,
    mode: fc.constantFrom('drop', 'duplicate', 'reorder', 'delay', 'lose-answer'),
    times: fc.integer({ min: 1, max: 3 }),
  })
  .map(
    ({ provider: name, mode, times }) =>
      new Action(
        `notificationFault(${name}, ${mode} ×${times})`,
        () => true,
        async (_model, real) => {
          await emulatorControl(originOf(real, name), 'notifications/faults', {
            mode,
            times,
            ...(mode === 'delay' ? { delayMs: 1500 } : {}),
          });
        },
      ),
  );

/** The calendar forgets the app's sync token (Google answers 410) or delta token (Graph). */
export const expireSyncToken = fc.constant(
  new Action(
    'expireSyncToken',
    () => true,
    (_model, real) => real.user.calendar.expireSyncState(),
  ),
);

/** The calendar's push channel (Google channel, Graph subscription) goes quiet before its time. */
export const expireChannel = fc.constant(
  new Action(
    'expireChannel',
    () => true,
    async (_model, real) => {
      await real.user.calendar.expireChannel();
      // Gone without a word: the app finds out at the channel's stated expiry, not by the next settle.
      real.pushTold = null;
    },
  ),
);

/**
 * Graph sends a lifecycle event for the app's subscription (on Google the channel goes quiet instead):
 * `reauthorizationRequired` pauses its change notifications until the app renews it, after
 * `subscriptionRemoved` it is gone, `missed` says notifications were lost. The next settle checks the
 * app answered: its subscription live and delivering again.
 */
export const subscriptionLifecycle = fc
  .constantFrom<LifecycleEvent>('reauthorizationRequired', 'subscriptionRemoved', 'missed')
  .map(
    (event) =>
      new Action(
        `subscriptionLifecycle(${event})`,
        (model) => model.syncOn && model.calendarConnected && !chosenReadOnly(model),
        async (_model, real) => {
          const told = await real.user.calendar.lifecycle(event);
          if (told && event !== 'missed') real.pushTold = told;
        },
      ),
  );

/**
 * From now on the provider refuses the app's writes of a kind for good (docs/provider-facts.md §12):
 * the calendar its event creates, updates or both, Todoist its task updates (a Sync command error).
 * Caught up first, so that what each item showed before its write was refused is known. While it holds,
 * a settle compares each refused item's refused side with that (`sync-model-refusals.ts`), the user
 * leaves refused items and the settings alone, and the app tries a refused write again only on its
 * back-off. Once a sequence; not with Plan my day on (its placements would be refused half way).
 */
export const refuseWrites = fc
  .constantFrom<RefusalKind>('event-create', 'event-update', 'event-writes', 'task-update')
  .map(
    (kind) =>
      new Action(
        `refuseWrites(${kind})`,
        (model) =>
          model.clockMovable &&
          model.syncOn &&
          model.calendarConnected &&
          model.refusal === null &&
          model.readOnly === null &&
          !model.autoplan,
        async (model, real) => {
          await real.settle(model);
          const rules = await addRefusalRules(kind, real);
          model.refusal = { kind, items: new Set(), changes: new Map() };
          real.refusal = {
            rules,
            before: new Map(model.items.map((item) => [item.id, structuredClone(item)])),
            ever: new Set(),
            jumpsAtStart: real.clock.jumps(),
            since: real.clock.now(),
            hits: new Map(),
            last: null,
          };
        },
      ),
  );

/**
 * The provider takes the writes again; the app's clock is moved past the back-off of every refused
 * pair, and the next settle (this one) must find both sides exactly as the model says.
 */
export async function liftRefusal(model: Model, real: Real): Promise<void> {
  const { refusal } = real;
  if (!refusal) return;
  await removeRefusalRules(refusal);
  // A run in flight may have marked a refusal just before: it has ended once a run asked now has.
  await real.idle();
  const due = (await real.refusedLinks()).map((link) => refusalRetryAt(link)?.getTime() ?? 0);
  real.clock.advance(Math.max(0, ...due) - real.clock.now() + 60_000);
  model.refusal = null;
  real.refusal = null;
  await real.settle(model);
}

export const liftRefusalNow = fc.constant(
  new Action('liftRefusal', (model) => model.refusal !== null, liftRefusal),
);
