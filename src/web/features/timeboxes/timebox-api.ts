import { contract } from '#shared/api/contract.ts';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import type { LabelColor } from '#shared/settings/constants.ts';
import { api } from '../../lib/api-client.ts';
import type { SaveStep } from './timebox-form.ts';

const { timeboxes, todoistLabels, taskDuration } = contract;

export const timeboxCalls = {
  add: (label: string, duration: number) => api(timeboxes.add, { label, duration }),
  edit: (label: string, newLabel: string, duration: number) =>
    api(timeboxes.edit, { label, newLabel, duration }),
  remove: (label: string) => api(timeboxes.delete, { params: { label } }),
  createLabel: (label: string, color: LabelColor | number) => api(todoistLabels.create, { label, color }),
  updateLabelColor: (labelId: string, color: LabelColor) => api(todoistLabels.setColor, { labelId, color }),
  deleteLabel: (labelId: string) => api(todoistLabels.delete, { params: { labelId } }),
  setTaskDurationActive: (active: boolean) => api(taskDuration.setActive, { active }),
  setTaskDurationLabel: (label: string) => api(taskDuration.setLabel, { label }),
};

export function runSaveStep(step: SaveStep): Promise<CurrentUser> {
  switch (step.kind) {
    case 'createLabel':
      return timeboxCalls.createLabel(step.label, step.color);
    case 'updateLabelColor':
      return timeboxCalls.updateLabelColor(step.labelId, step.color);
    case 'add':
      return timeboxCalls.add(step.label, step.duration);
    case 'edit':
      return timeboxCalls.edit(step.label, step.newLabel, step.duration);
  }
}

/**
 * Runs the calls one after another. Each answers with the user, which is stored at once, so that a
 * failure half-way still leaves the dashboard showing what the server has; the last user is returned.
 */
export async function runSteps<S>(
  steps: readonly S[],
  run: (step: S) => Promise<CurrentUser>,
  store: (user: CurrentUser) => void,
): Promise<CurrentUser> {
  let user: CurrentUser | undefined;
  for (const [index, step] of steps.entries()) {
    user = await run(step);
    if (index < steps.length - 1) store(user);
  }
  if (!user) throw new Error('Nothing to save');
  return user;
}
