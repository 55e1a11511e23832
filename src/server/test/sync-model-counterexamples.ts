import fc from 'fast-check';
import { expect } from 'vitest';
import { emulatorControl } from './sync-fixtures.ts';
import { giveWriteAccessBack, loseWriteAccess } from './sync-model-access-commands.ts';
import { Action, type Step } from './sync-model-actions.ts';
import { addEvent, moveEvent, resizeEvent } from './sync-model-calendar-commands.ts';
import type { CalendarKind } from './sync-model-calendars.ts';
import { settle, type UserPlan } from './sync-model-commands.ts';
import {
  expireChannel,
  liftRefusalNow,
  notificationFault,
  refuseWrites,
  subscriptionLifecycle,
} from './sync-model-fault-commands.ts';
import {
  connectAnotherCalendar,
  removeCalendar,
  switchCalendar,
  toggleDatedTasks,
} from './sync-model-settings-commands.ts';
import {
  addDatedTask,
  addTask,
  archiveWork,
  completeTask,
  moveTask,
  retitleTask,
} from './sync-model-todoist-commands.ts';

/**
 * What the model-based sync test found, kept as named fixed sequences of its own commands (picked by
 * the labels a failure printed), so that a counterexample is played again by every `npm test`
 * whatever the generator becomes. sync-model-counterexamples.integration.test.ts plays each on both
 * databases, its users at once, and every sequence ends with a settle (the harness's `play`).
 */
export type Counterexample = { name: string; plans: UserPlan[] };

/**
 * The command of `arbitrary` printed as `label` (`moveEvent(13:00)#0`: a label names all a command
 * does). It must be able to run where it stands: a command the model no longer allows there fails the
 * sequence instead of being skipped, as fast-check would skip it.
 */
export function step(arbitrary: fc.Arbitrary<Step>, label: string): Step {
  const found = fc.sample(arbitrary, { numRuns: 5000, seed: 0 }).find((command) => String(command) === label);
  if (!found) throw new Error(`no command ${label}`);
  return new Action(
    label,
    () => true,
    async (model, real) => {
      expect(found.check(model), `${label} may run here`).toBe(true);
      await found.run(model, real);
    },
  );
}

/**
 * `command` (a change in Todoist), then the run the Todoist notification of it brings, which must read
 * Todoist only: a run no request of a settle asked for.
 */
function withItsTodoistRun(command: Step): Step {
  return new Action(
    `${command}, then its notification's run`,
    () => true,
    async (model, real) => {
      const since = real.clock.now();
      await command.run(model, real);
      await emulatorControl(real.user.todoistOrigin, 'notifications/flush', {});
      const { outcome } = await real.runAfter(since);
      expect(outcome.status === 'synced' ? outcome.reads : outcome, `the run after ${command}`).toEqual([
        'todoist',
      ]);
    },
  );
}

/** A user with nothing done on completion, and Plan my day on from the start or not. */
const user = (autoplan: boolean, commands: Step[], calendar: CalendarKind = 'google'): UserPlan => ({
  onComplete: 'nothing',
  calendar,
  autoplan,
  commands,
});

/** The same sequence for a Google Calendar user and a Microsoft 365 one, played at once. */
const onBothCalendars = (autoplan: boolean, commands: () => Step[]): UserPlan[] => [
  user(autoplan, commands(), 'google'),
  user(autoplan, commands(), 'microsoft'),
];

export const counterexamples: Counterexample[] = [
  {
    // Not found by a failure: the delivery rules, played by every run. Graph pauses a subscription's
    // change notifications after reauthorizationRequired until the app renews it, and a removed one is
    // gone; a webhook whose answer was lost comes again with the same delivery id. The settles check
    // both sides and that the app's subscription delivers again.
    name: 'the delivery rules: a subscription paused for reauthorization or removed is renewed, a webhook sent twice changes nothing twice',
    plans: onBothCalendars(false, () => [
      step(addTask, 'addTask(9:00, 30 min, inbox)'),
      step(settle, 'settle'),
      step(subscriptionLifecycle, 'subscriptionLifecycle(reauthorizationRequired)'),
      step(notificationFault, 'notificationFault(todoist, lose-answer ×2)'),
      step(addTask, 'addTask(10:00, 60 min, inbox)'),
      step(retitleTask, 'retitleTask#0'),
      step(settle, 'settle'),
      step(subscriptionLifecycle, 'subscriptionLifecycle(subscriptionRemoved)'),
      step(notificationFault, 'notificationFault(calendar, lose-answer ×1)'),
      step(addEvent, 'addEvent(12:00, 30 min)'),
      step(settle, 'settle'),
    ]),
  },
  {
    // Not found by a failure: writes the calendar refuses for good, played by every run (the random
    // sequences reach them now and then). A new task's event create and a moved task's event update are
    // refused: the task waits without an event, the event stays at its old time, and neither is tried
    // again by the settles that follow (the app's clock stands); lifted and past the back-off, the next
    // settle makes the one event and moves the other.
    name: 'the calendar refuses an event create and an update for good: tried again on the back-off only, then written once',
    plans: onBothCalendars(false, () => [
      step(addTask, 'addTask(9:00, 30 min, inbox)'),
      step(refuseWrites, 'refuseWrites(event-writes)'),
      step(addTask, 'addTask(13:00, 60 min, inbox)'),
      step(moveTask, 'moveTask(11:00)#0'),
      step(settle, 'settle'),
      step(settle, 'settle'),
      step(addEvent, 'addEvent(15:00, 60 min)'),
      step(settle, 'settle'),
      step(liftRefusalNow, 'liftRefusal'),
    ]),
  },
  {
    // Todoist refuses the app's task update (a Sync command error) for the event the user moved: the task
    // keeps its time until the refusal is lifted and its back-off has passed.
    name: 'Todoist refuses a task update for good: the task keeps its time until the back-off, then follows its event',
    plans: onBothCalendars(false, () => [
      step(addTask, 'addTask(9:00, 30 min, inbox)'),
      step(addEvent, 'addEvent(11:00, 60 min)'),
      step(refuseWrites, 'refuseWrites(task-update)'),
      step(moveEvent, 'moveEvent(13:00)#0'),
      step(settle, 'settle'),
      step(settle, 'settle'),
      step(liftRefusalNow, 'liftRefusal'),
    ]),
  },
  {
    // Not found by a failure: the two ways out of a calendar the account can only read now, each played
    // by every run (the random sequences reach them rarely). Before f8e79e8 choosing another calendar
    // then left the sync stopped on Microsoft 365 (Graph's delete of the old event refused for good).
    name: 'the chosen calendar shared read only: the sync stops, and goes on in another calendar chosen, each task with one event',
    plans: onBothCalendars(false, () => [
      step(addTask, 'addTask(9:00, 30 min, inbox)'),
      step(addTask, 'addTask(10:00, 60 min, inbox)'),
      step(addEvent, 'addEvent(11:00, 60 min)'),
      step(settle, 'settle'),
      step(completeTask, 'completeTask#1'),
      step(loseWriteAccess, 'loseWriteAccess'),
      step(addTask, 'addTask(13:00, 30 min, inbox)'),
      step(retitleTask, 'retitleTask#0'),
      step(settle, 'settle'),
      step(switchCalendar, 'switchCalendar(other)'),
      step(settle, 'settle'),
    ]),
  },
  {
    name: 'the chosen calendar shared read only, then writable again: the sync catches up with what was done meanwhile',
    plans: onBothCalendars(false, () => [
      step(addTask, 'addTask(9:00, 30 min, inbox)'),
      step(addEvent, 'addEvent(11:00, 60 min)'),
      step(loseWriteAccess, 'loseWriteAccess'),
      step(addTask, 'addTask(13:00, 60 min, inbox)'),
      step(completeTask, 'completeTask#0'),
      step(settle, 'settle'),
      step(giveWriteAccessBack, 'giveWriteAccessBack'),
      step(settle, 'settle'),
    ]),
  },
  {
    // Plan my day placed a dated task at 9:00; with the calendar's channel gone quiet, the user moved its
    // event to 13:00 and put a meeting at 9:00, and then added another dated task in Todoist. Its
    // notification's run read only Todoist, but the calendar's window for the waiting task, which showed
    // the block's event at 13:00: the block was the user's. Before 5e9848a the run still took it for
    // the app's, moved it off the meeting and wrote its time over the user's move.
    name: 'a block the user moved in the calendar stays where they put it, though a run that read only Todoist sees a meeting at its old time',
    plans: onBothCalendars(true, () => [
      step(addDatedTask, 'addDatedTask(60 min, inbox)'),
      step(settle, 'settle'),
      step(expireChannel, 'expireChannel'),
      step(moveEvent, 'moveEvent(13:00)#0'),
      step(addEvent, 'addEvent(9:00, 60 min, foreign colour or category)'),
      withItsTodoistRun(step(addDatedTask, 'addDatedTask(30 min, inbox)')),
    ]),
  },
  {
    // Seed -1303208527, path 9:3:2:4:5:6:6:0:0:0:0:0:0:0:0, "the user's time, never the app's": the user
    // "resized" the event of a block Plan my day had placed to the length it had. Nothing changed that
    // the sync could see, and the block stayed the app's, as it should: the model had taken it for the
    // user's (it fails so on today's code with the model as it was, on both databases and calendars).
    name: 'seed -1303208527: a block whose event the user saved at its time and length stays the app’s',
    plans: onBothCalendars(true, () => [
      step(addDatedTask, 'addDatedTask(60 min, inbox)'),
      step(settle, 'settle'),
      step(resizeEvent, 'resizeEvent(60 min)#0'),
    ]),
  },
  {
    // Seed 1718511943, path 10:12:18 on PostgreSQL, "the user's time, never the app's": with Todoist's
    // notifications late (another user's fault on the shared emulator), the run a settle's request
    // brought was preceded by a late notification's, which read Todoist only; the settle took that run
    // for its answer and checked a block whose move in the calendar no run had read yet. The sync was
    // right; a settle now asks again until a quiet run read both sides (within its rounds).
    name: 'seed 1718511943: a settle is answered by a run that read both sides, not by a late notification’s',
    plans: [
      user(true, [
        step(toggleDatedTasks, 'toggleDatedTasks'),
        step(expireChannel, 'expireChannel'),
        step(settle, 'settle'),
        step(connectAnotherCalendar, 'connectAnotherCalendar(same provider)'),
      ]),
      user(false, [step(switchCalendar, 'switchCalendar(other)'), step(removeCalendar, 'removeCalendar')]),
      user(true, [
        step(addDatedTask, 'addDatedTask(30 min, work)'),
        step(expireChannel, 'expireChannel'),
        step(settle, 'settle'),
        step(moveEvent, 'moveEvent(13:00)#0'),
        step(settle, 'settle'),
      ]),
      user(false, [step(notificationFault, 'notificationFault(todoist, delay ×2)')]),
    ],
  },
  {
    // Seed 1601961268, path 7:2:0:0:0:1 on both databases: a notification fault armed on the shared
    // Graph emulator (by another user of the same replay) lost the subscriptionRemoved event on its way,
    // and the settle still asked the app to have answered it. The app was never told, as when a
    // subscription goes quiet without a word: only an event that reached the app is checked.
    name: 'seed 1601961268: a lifecycle event lost on the way is not held against the app; one that arrives is answered',
    plans: [
      user(
        true,
        [
          step(notificationFault, 'notificationFault(calendar, drop ×1)'),
          step(subscriptionLifecycle, 'subscriptionLifecycle(subscriptionRemoved)'),
          step(archiveWork, 'archiveWork'),
          step(settle, 'settle'),
          step(subscriptionLifecycle, 'subscriptionLifecycle(subscriptionRemoved)'),
          step(addTask, 'addTask(9:00, 30 min, inbox)'),
          step(settle, 'settle'),
        ],
        'microsoft',
      ),
    ],
  },
];
