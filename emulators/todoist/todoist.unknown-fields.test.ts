import { describe, expect, it } from 'vitest';
import { UNKNOWN_FIELD } from '../shared/unknown-fields.ts';
import { control, setUpSeededTodoist } from './todoist.test-support.ts';

/**
 * Answers with fields the client does not know (`POST /_emulator/unknown-fields`), as Todoist adds them
 * over time: the official SDK reads them as before (docs/provider-facts.md §13).
 */
const todoist = setUpSeededTodoist({
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  timezone: 'Europe/Berlin',
});

describe('answers with fields the client does not know', () => {
  it('are read by the SDK as before, and carry the fields on the wire while switched on', async () => {
    await control(todoist.origin, 'unknown-fields', { on: true });
    const task = await todoist.api.addTask({
      content: 'Write the report',
      dueString: 'tomorrow at 9:00',
      labels: ['1h'],
    });
    expect(task).toMatchObject({ content: 'Write the report', labels: ['1h'] });
    expect(task.due?.date).toMatch(/T09:00:00/);
    const listed = (await todoist.api.getTasks()).results;
    expect(listed.map((each) => each.content)).toEqual(['Write the report']);

    const raw = await fetch(`${todoist.origin}/api/v1/tasks/${task.id}`, {
      headers: { authorization: `Bearer ${todoist.user.accessToken}` },
    });
    const body = await raw.json();
    expect(body[UNKNOWN_FIELD]).toBeDefined();
    expect(body.due[UNKNOWN_FIELD]).toBeUndefined();

    await control(todoist.origin, 'unknown-fields', { on: false });
    const plain = await fetch(`${todoist.origin}/api/v1/tasks/${task.id}`, {
      headers: { authorization: `Bearer ${todoist.user.accessToken}` },
    });
    expect((await plain.json())[UNKNOWN_FIELD]).toBeUndefined();
  });
});
