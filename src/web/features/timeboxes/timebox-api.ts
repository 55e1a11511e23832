import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import type { LabelColor } from '#shared/settings/constants.ts';
import { sendUserChange } from '../auth/api/user-change.ts';
import type { SaveStep } from './timebox-form.ts';

const path = (value: string) => encodeURIComponent(value);

export const timeboxCalls = {
  add: (label: string, duration: number) =>
    sendUserChange('POST', '/api/timeboxsettings', { label, duration }),
  edit: (label: string, newLabel: string, duration: number) =>
    sendUserChange('PATCH', '/api/timeboxsettings', { label, newLabel, duration }),
  remove: (label: string) => sendUserChange('DELETE', `/api/timeboxsettings/${path(label)}`),
  createLabel: (label: string, color: LabelColor | number) =>
    sendUserChange('POST', '/api/todoist/label', { label, color }),
  updateLabelColor: (labelId: string, color: LabelColor) =>
    sendUserChange('PATCH', '/api/todoist/label', { labelId, color }),
  deleteLabel: (labelId: string) => sendUserChange('DELETE', `/api/todoist/label/${path(labelId)}`),
  setTaskDurationActive: (active: boolean) =>
    sendUserChange('PATCH', '/api/taskdurationsettings/active', { active }),
  setTaskDurationLabel: (label: string) =>
    sendUserChange('PATCH', '/api/taskdurationsettings/label', { label }),
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
