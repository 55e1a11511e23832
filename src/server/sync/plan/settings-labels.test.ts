import { describe, expect, it } from 'vitest';
import { syncSettings } from '#server/test/sync-settings.fixture.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { taskSnapshot } from './plan.fixture.ts';
import { withFollowedLabels, withRenamedTaskLabels } from './settings-labels.ts';

const settings = syncSettings({ taskDuration: { active: true, label: 'focus', allowed: true } });

const task = (id: string, labels: string[]): TaskSnapshot => taskSnapshot({ id, labels });

describe('labels renamed in Todoist during a run', () => {
  const followed = withFollowedLabels(settings, {
    timeboxes: [{ from: '30min', to: { label: 'Half hour', labelId: 'L1' } }],
    taskDurationLabel: { label: 'Deep focus', labelId: 'L3' },
  });

  it('matches the timebox and the task-duration setting by the labels’ new names', () => {
    expect(followed.timeboxes.map((timebox) => timebox.label)).toContain('Half hour');
    expect(followed.timeboxes.map((timebox) => timebox.label)).not.toContain('30min');
    expect(followed.taskDuration.label).toBe('Deep focus');
  });

  it('matches a task still carrying a label’s old name by its new one, and says what to write back', () => {
    const renames = [
      { from: '30min', to: 'Half hour' },
      { from: 'focus', to: 'Deep focus' },
    ];
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

  it('follows a chain of renames to the last name, and stops on a cycle', () => {
    const chain = [
      { from: 'A', to: 'B' },
      { from: 'B', to: 'C' },
    ];
    expect(
      withRenamedTaskLabels([task('a', ['a']), task('b', ['B'])], chain).tasks.map((t) => t.labels),
    ).toEqual([['C'], ['C']]);
    const cycle = [
      { from: 'A', to: 'B' },
      { from: 'B', to: 'A' },
    ];
    const { relabelled } = withRenamedTaskLabels([task('a', ['A'])], cycle);
    expect(relabelled.get('a')).toHaveLength(1);
  });

  it('leaves every task as read when nothing was renamed', () => {
    const read = [task('a', ['30min'])];
    const { tasks, relabelled } = withRenamedTaskLabels(read, []);
    expect(tasks).toEqual(read);
    expect(relabelled.size).toBe(0);
  });
});
