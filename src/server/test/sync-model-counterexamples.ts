import type { Step } from './sync-model-actions.ts';
import { moveEvent } from './sync-model-calendar-commands.ts';
import { settle, step, type UserPlan } from './sync-model-commands.ts';
import { expireChannel, notificationFault } from './sync-model-fault-commands.ts';
import {
  connectAnotherCalendar,
  removeCalendar,
  switchCalendar,
  toggleDatedTasks,
} from './sync-model-settings-commands.ts';
import { addDatedTask } from './sync-model-todoist-commands.ts';

/**
 * Counterexamples the model-based sync test found, as it printed them shrunk: each plays its users'
 * fixed sequences at once (a fault of one user's, a late notification, falls on whoever's come next),
 * named by its seed and what it broke. The convergence test plays each on both databases.
 */
export type Counterexample = {
  name: string;
  plans: UserPlan[];
  /**
   * What the failure's timing did that a sequence cannot say, done at every settle so that the replay
   * fails as the original did (see `createModelHarness`).
   */
  lateTodoistNotice?: boolean;
};

/** A user with Google Calendar, nothing done on completion, and Plan my day on from the start or not. */
const user = (autoplan: boolean, commands: Step[]): UserPlan => ({
  onComplete: 'nothing',
  calendar: 'google',
  autoplan,
  commands,
});

export const counterexamples: Counterexample[] = [
  {
    // Plan my day placed a dated task and the user moved its event to 13:00, with the calendar's
    // channel gone quiet: only a settle's run reads the move. A Todoist notification, one the fault made
    // late, came as the second settle asked: its run read only Todoist, wrote nothing, and the settle
    // took it for its own, finding the block still the app's (the settle now waits for a run that read
    // both sides, as its request asks).
    name: 'seed 1718511943 (path 10:12:18): a block the user moved after Plan my day placed it is the user’s, with a Todoist notification late',
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
    lateTodoistNotice: true,
  },
];
