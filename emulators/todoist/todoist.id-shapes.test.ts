import { describe, expect, it } from 'vitest';
import { control, setUpSeededTodoist } from './todoist.test-support.ts';

/**
 * Ids of another shape (`POST /_emulator/forms { idShape: 'digits' }`): numeric strings (REST v2's shape)
 * instead of v1's letters and digits. The SDK takes any string as an id (docs/provider-facts.md §13).
 */
const todoist = setUpSeededTodoist({
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  timezone: 'Europe/Berlin',
});

describe('ids of another shape', () => {
  it('are made from then on, and read, updated and closed by them as by any id', async () => {
    const before = await todoist.api.addTask({ content: 'Before' });
    expect(before.id).toMatch(/^6[A-Za-z0-9]{15}$/);
    const answer = await (await control(todoist.origin, 'forms', { idShape: 'digits' })).json();
    expect(answer.idShape).toBe('digits');

    const task = await todoist.api.addTask({ content: 'Write the report', dueString: 'tomorrow at 9:00' });
    expect(task.id).toMatch(/^\d{11}$/);
    const label = await todoist.api.addLabel({ name: '1h' });
    expect(label.id).toMatch(/^\d{11}$/);
    const project = await todoist.api.addProject({ name: 'Work' });
    expect(project.id).toMatch(/^\d{11}$/);

    await todoist.api.updateTask(task.id, { content: 'Write the report today', labels: ['1h'] });
    expect(await todoist.api.getTask(task.id)).toMatchObject({
      content: 'Write the report today',
      labels: ['1h'],
    });
    await todoist.api.closeTask(task.id);
    expect((await todoist.api.getTasks()).results.map((each) => each.id)).toEqual([before.id]);
  });
});
