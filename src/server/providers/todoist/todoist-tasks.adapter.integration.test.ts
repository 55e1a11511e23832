import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  control,
  type RunningTodoist,
  type SeededUser,
  seedUser,
  startTodoist,
} from '#emulators/todoist/todoist.test-support.ts';
import { createTodoistTasks } from './todoist-tasks.adapter.ts';

let todoist: RunningTodoist;
let user: SeededUser;
const config = () => ({
  clientId: 'test-todoist-client',
  clientSecret: 'test-todoist-secret',
  oauthUrl: todoist.origin,
  apiUrl: todoist.origin,
});

beforeAll(async () => {
  todoist = await startTodoist();
  user = await seedUser(todoist.origin, { email: 'deadline@example.com', timezone: 'Europe/Berlin' });
});
afterAll(async () => {
  await todoist?.app.close();
});

describe('Todoist tasks adapter', () => {
  it('gives up on a Todoist that does not answer, instead of holding the run', async () => {
    const tasks = createTodoistTasks(config(), { timeoutMs: 300 });
    const token = user.accessToken ?? user.personalToken;
    await control(todoist.origin, 'faults', { kind: 'hang', method: 'POST', path: '/api/v1/sync', times: 1 });
    const started = Date.now();
    await expect(tasks.changes(token, null)).rejects.toThrow(/Todoist/);
    // Abandoned at the deadline, not repeated by the SDK (four attempts would take 1.2 s or more).
    expect(Date.now() - started).toBeLessThan(1200);
    // The next call goes through.
    const read = await tasks.changes(token, null);
    expect(read.full).toBe(true);
    expect(read.nextToken).toBeTruthy();
  });

  it('reports a command Todoist refused with its error tag and status (the SDK hands them over camel-cased)', async () => {
    const tasks = createTodoistTasks(config());
    const token = user.accessToken ?? user.personalToken;
    const added = await tasks.apply(token, [
      {
        kind: 'add',
        uuid: crypto.randomUUID(),
        tempId: 'refused',
        content: 'Refused update',
        due: { kind: 'floating', local: '2026-12-03T10:00:00' },
        labels: [],
        duration: null,
      },
    ]);
    const id = added.idsByTempId.refused ?? '';
    await control(todoist.origin, 'command-faults', {
      type: 'item_update',
      bearer: token,
      errorTag: 'ITEM_NOT_FOUND',
      httpCode: 404,
      times: 1,
    });
    const update = { kind: 'update' as const, uuid: crypto.randomUUID(), id, content: 'Renamed' };
    const result = await tasks.apply(token, [update]);
    expect(result).toMatchObject({
      failed: { [update.uuid]: 'ITEM_NOT_FOUND' },
      failedStatus: { [update.uuid]: 404 },
    });
    expect((await tasks.task(token, id))?.content).toBe('Refused update');
  });

  it('reads the open tasks among some ids in one request, leaving out completed and deleted ones', async () => {
    const tasks = createTodoistTasks(config());
    const token = user.accessToken ?? user.personalToken;
    const uuid = () => crypto.randomUUID();
    const added = await tasks.apply(
      token,
      ['Open one', 'Done one', 'Deleted one'].map((content, index) => ({
        kind: 'add' as const,
        uuid: uuid(),
        tempId: `t${index}`,
        content,
        due: { kind: 'floating' as const, local: '2026-12-03T10:00:00' },
        labels: [],
        duration: null,
      })),
    );
    const [open, done, deleted] = ['t0', 't1', 't2'].map((tempId) => added.idsByTempId[tempId] ?? '');
    await tasks.apply(token, [{ kind: 'delete', uuid: uuid(), id: deleted ?? '' }]);
    const api = new (await import('@doist/todoist-sdk')).TodoistApi(token, { baseUrl: todoist.origin });
    await api.closeTask(done ?? '');
    const read = await tasks.openTasks(token, [open ?? '', done ?? '', deleted ?? '', 'no-such-task']);
    expect(read.map((task) => [task.content, task.due?.date.slice(0, 16)])).toEqual([
      ['Open one', '2026-12-03T10:00'],
    ]);
  });
});
