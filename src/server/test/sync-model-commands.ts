import fc from 'fast-check';
import type { Model } from './sync-model.ts';
import { giveWriteAccessBack, loseWriteAccess } from './sync-model-access-commands.ts';
import { Action, type Step } from './sync-model-actions.ts';
import {
  addEvent,
  deleteEvent,
  makeEventAllDay,
  moveEvent,
  moveEventAway,
  resizeEvent,
  retitleEvent,
} from './sync-model-calendar-commands.ts';
import type { CalendarKind } from './sync-model-calendars.ts';
import {
  expireChannel,
  expireSyncToken,
  liftRefusalNow,
  notificationFault,
  providerFault,
  refuseWrites,
  subscriptionLifecycle,
} from './sync-model-fault-commands.ts';
import {
  changeFilter,
  chooseProjects,
  connectAnotherCalendar,
  openDashboard,
  reconnectCalendar,
  removeCalendar,
  switchCalendar,
  switchSync,
  toggleAutoplan,
  toggleDatedTasks,
  toggleLinkDescription,
  toggleTaskDurations,
  toggleTimeboxSetting,
} from './sync-model-settings-commands.ts';
import {
  addDatedTask,
  addTask,
  archiveWork,
  completeTask,
  deleteLabel,
  deleteTask,
  dropTaskTime,
  moveTask,
  moveTaskToProject,
  relabelTask,
  renameLabel,
  reopenTask,
  retitleTask,
  toggleTimebox,
} from './sync-model-todoist-commands.ts';

export type { Real } from './sync-model-actions.ts';

/**
 * The user's actions and the world's faults as fast-check commands: each acts on the emulators the
 * way the user (through their own Todoist and calendar clients) or a failing network would, and records
 * in the model what the user meant. `settle` lets the sync catch up and compares both sides with it.
 * The commands are in `sync-model-{todoist,calendar,settings,fault}-commands.ts`.
 */

/**
 * How many property runs (each plays several users' sequences), with which seed and how long a
 * sequence may be: SYNC_MODEL_RUNS, SYNC_MODEL_SEED, SYNC_MODEL_MAX_COMMANDS (`npm run test:sync-soak`).
 * `npm test` plays a short pass (12 runs on PGlite, 4 on PostgreSQL); CI sets SYNC_MODEL_PASS=long for
 * the long one (50 and 13).
 */
const LONG_PASS = process.env.SYNC_MODEL_PASS === 'long';
const DEFAULT_MODEL_SEED = 20261125;
export const modelRunOptions = {
  runsFor: (database: string) =>
    Number(
      process.env.SYNC_MODEL_RUNS ?? (database === 'PGlite' ? (LONG_PASS ? 50 : 12) : LONG_PASS ? 13 : 4),
    ),
  // A fixed seed unless told (`npm test` gives the same answer for the same code); the soak picks new ones.
  seed: Number(process.env.SYNC_MODEL_SEED || DEFAULT_MODEL_SEED),
  /** With the seed, replays one run: the path a failure printed (its shrunk counterexample). */
  path: process.env.SYNC_MODEL_PATH || undefined,
  /**
   * With the seed and the path, the `replayPath` the failure printed in its sequences (the same in
   * each): which commands had run at each shrink, without which a path past the first shrink of a
   * sequence cannot be followed (a replay runs none of the values on the way).
   */
  replayPath: process.env.SYNC_MODEL_REPLAY || undefined,
  maxCommands: Number(process.env.SYNC_MODEL_MAX_COMMANDS ?? 12),
};

/**
 * fast-check's report of a failed property run, ending with the environment that replays its shrunk
 * counterexample (seed, path and the sequences' `replayPath`), to be used as the run's `asyncReporter`.
 */
export async function replayableReport(details: fc.RunDetails<[UserPlan[]]>): Promise<void> {
  if (!details.failed) return;
  const report = (await fc.asyncDefaultReportMessage(details)) ?? 'the property failed';
  const sequence = String(details.counterexample?.[0]?.[0]?.commands ?? '');
  // None to pass on before the first shrink (an empty one prints as ':').
  const replayPath = /replayPath="([^"]*)"/.exec(sequence)?.[1]?.replace(/^:$/, '');
  const replay = [
    `SYNC_MODEL_SEED=${details.seed}`,
    `SYNC_MODEL_PATH=${details.counterexamplePath}`,
    ...(replayPath ? [`SYNC_MODEL_REPLAY='${replayPath}'`] : []),
  ].join(' ');
  throw new Error(`${report}\n\nReplay it: ${replay} npx vitest run ${CONVERGENCE_TEST}`, {
    cause: details.errorInstance,
  });
}
const CONVERGENCE_TEST = 'src/server/sync/sync-convergence.integration.test.ts';

export const settle = fc.constant(
  new Action(
    'settle',
    () => true,
    (model, real) => real.settle(model),
  ),
);

/**
 * `arbitrary`'s commands, not while a provider refuses writes: settings and the calendar's access change
 * many pairs at once, which the model of a refusal (each refused item as before) leaves out.
 */
const unlessRefused = (arbitrary: fc.Arbitrary<Step>): fc.Arbitrary<Step> =>
  arbitrary.map(
    (command) =>
      new Action(
        String(command),
        (model) => model.refusal === null && command.check(model),
        (model, real) => command.run(model, real),
      ),
  );

/** Random sequences of what a user and the world do to one account. */
export function userSequences(maxCommands: number, replayPath = modelRunOptions.replayPath) {
  return fc.commands(
    [
      ...Array(4).fill(addTask),
      ...Array(3).fill(addEvent),
      ...Array(2).fill(refuseWrites),
      retitleTask,
      moveTask,
      relabelTask,
      toggleTimebox,
      completeTask,
      reopenTask,
      deleteTask,
      moveEvent,
      resizeEvent,
      retitleEvent,
      deleteEvent,
      moveEventAway,
      unlessRefused(renameLabel),
      unlessRefused(deleteLabel),
      unlessRefused(toggleTimeboxSetting),
      unlessRefused(changeFilter),
      ...Array(2).fill(unlessRefused(switchSync)),
      ...Array(3).fill(unlessRefused(switchCalendar)),
      unlessRefused(removeCalendar),
      unlessRefused(reconnectCalendar),
      unlessRefused(connectAnotherCalendar),
      unlessRefused(toggleTaskDurations),
      unlessRefused(toggleLinkDescription),
      ...Array(2).fill(moveTaskToProject),
      ...Array(2).fill(unlessRefused(chooseProjects)),
      ...Array(2).fill(unlessRefused(archiveWork)),
      openDashboard,
      ...Array(3).fill(addDatedTask),
      dropTaskTime,
      makeEventAllDay,
      ...Array(3).fill(unlessRefused(toggleDatedTasks)),
      ...Array(4).fill(unlessRefused(toggleAutoplan)),
      ...Array(3).fill(settle),
      providerFault,
      providerFault,
      notificationFault,
      expireSyncToken,
      expireChannel,
      ...Array(2).fill(unlessRefused(subscriptionLifecycle)),
      liftRefusalNow,
      ...Array(3).fill(unlessRefused(loseWriteAccess)),
      unlessRefused(giveWriteAccessBack),
    ],
    { maxCommands, ...(replayPath ? { replayPath } : {}) },
  );
}

/** What one user of a property run does: their completion setting, their calendar and their sequence. */
export type UserPlan = {
  onComplete: Model['onComplete'];
  calendar: CalendarKind;
  /** "Plan my day" on from the start. */
  autoplan: boolean;
  commands: Iterable<Step>;
};

/** `count` users' plans, each with any completion setting, either calendar and a random sequence. */
export function userPlans(count: number, maxCommands: number): fc.Arbitrary<UserPlan[]> {
  return fc.array(
    fc.record({
      onComplete: fc.constantFrom<Model['onComplete']>('nothing', 'checkmark', 'remove'),
      calendar: fc.constantFrom<CalendarKind>('google', 'microsoft'),
      autoplan: fc.boolean(),
      commands: userSequences(maxCommands),
    }),
    { minLength: count, maxLength: count },
  );
}
