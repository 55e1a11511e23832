import { describe, expect, it } from 'vitest';
import { syncSettings } from '#server/test/sync-settings.fixture.ts';
import { renamesBetween, withFollowedLabels, withRenamedTaskLabels } from './settings-labels.ts';
import type { TaskSnapshot } from './task-source.port.ts';

const settings = syncSettings({ taskDuration: { active: true, label: 'focus', allowed: true } });

const task = (id: string, labels: string[]): TaskSnapshot => ({
  id,
  content: 'Write',
  description: '',
  labels,
  due: { date: '2026-07-16T09:00:00', timezone: null, isRecurring: false, string: 'tomorrow at 9' },
  duration: null,
  checked: false,
  completedAt: null,
  isDeleted: false,
  updatedAt: '2026-07-15T05:00:00Z',
});

describe('labels renamed in Todoist during a run', () => {
  const followed = withFollowedLabels(settings, {
    timeboxes: [{ from: '30min', to: { label: 'Half hour', labelId: 'L1' } }],
    taskDurationLabel: { label: 'Deep focus', labelId: 'L3' },
  });

  it('names the renames the run followed, and no letter-case-only change', () => {
    expect(renamesBetween(settings, followed)).toEqual([
      { from: '30min', to: 'Half hour' },
      { from: 'focus', to: 'Deep focus' },
    ]);
    const recased = withFollowedLabels(settings, {
      timeboxes: [{ from: '1h', to: { label: '1H', labelId: 'L2' } }],
      taskDurationLabel: null,
    });
    expect(renamesBetween(settings, recased)).toEqual([]);
    expect(renamesBetween(settings, settings)).toEqual([]);
  });

  it('matches a task still carrying a label’s old name by its new one, and says what to write back', () => {
    const renames = renamesBetween(settings, followed);
    const { tasks, relabelled } = withRenamedTaskLabels(
      [
        task('stale', ['30MIN', 'home']),
        task('current', ['Half hour']),
        task('both', ['30min', 'Half hour']),
      ],
      renames,
    );
    expect(tasks.map((entry) => entry.labels)).toEqual([['Half hour', 'home'], ['Half hour'], ['Half hour']]);
    expect([...relabelled]).toEqual([
      ['stale', ['Half hour', 'home']],
      ['both', ['Half hour']],
    ]);
  });

  it('leaves every task as read when nothing was renamed', () => {
    const read = [task('a', ['30min'])];
    const { tasks, relabelled } = withRenamedTaskLabels(read, []);
    expect(tasks).toEqual(read);
    expect(relabelled.size).toBe(0);
  });
});
