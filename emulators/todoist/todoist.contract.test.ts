import type { TodoistApi } from '@doist/todoist-sdk';
import { describe, expect, it } from 'vitest';
import { control, rejection, sdk, seedUser, setUpSeededTodoist } from './todoist.test-support.ts';

// 11:00 in Berlin, so "every day at 9am" starts tomorrow.
const NOW = new Date('2026-03-10T10:00:00Z');

const todoist = setUpSeededTodoist(
  { email: 'ada@example.com', name: 'Ada Lovelace', timezone: 'Europe/Berlin' },
  { now: () => NOW },
);

describe('user', () => {
  it('returns the current user as the SDK schema expects', async () => {
    const me = await todoist.api.getUser();
    expect(me).toMatchObject({
      id: todoist.user.id,
      email: 'ada@example.com',
      fullName: 'Ada Lovelace',
      isPremium: false,
      premiumStatus: 'not_premium',
      inboxProjectId: todoist.user.inboxProjectId,
      tzInfo: { timezone: 'Europe/Berlin', gmtString: '+01:00', hours: 1, minutes: 0, isDst: 0 },
    });
  });

  it('reflects premium status and time zone set through the control API', async () => {
    await control(todoist.origin, `users/${todoist.user.id}`, {
      premiumStatus: 'current_personal_plan',
      timezone: 'America/New_York',
    });
    const me = await todoist.api.getUser();
    expect(me.premiumStatus).toBe('current_personal_plan');
    expect(me.isPremium).toBe(true);
    // DST began on 8 March 2026 in New York.
    expect(me.tzInfo).toEqual({
      timezone: 'America/New_York',
      gmtString: '-04:00',
      hours: -4,
      minutes: 0,
      isDst: 1,
    });
  });

  it('gives the same id to the same e-mail and another to a different one', async () => {
    const again = await seedUser(todoist.origin, { email: 'ADA@example.com' });
    const other = await seedUser(todoist.origin, { email: 'grace@example.com' });
    expect(again.id).toBe(todoist.user.id);
    expect(other.id).not.toBe(todoist.user.id);
  });
});

describe('labels', () => {
  it('creates, reads, updates and deletes labels', async () => {
    const created = await todoist.api.addLabel({ name: '30min', color: 'berry_red', isFavorite: true });
    expect(created).toMatchObject({ name: '30min', color: 'berry_red', isFavorite: true, order: 1 });
    expect(await todoist.api.getLabel(created.id)).toEqual(created);
    const updated = await todoist.api.updateLabel(created.id, { name: '45min', color: 'sky_blue', order: 5 });
    expect(updated).toMatchObject({ id: created.id, name: '45min', color: 'sky_blue', order: 5 });
    expect(await todoist.api.deleteLabel(created.id)).toBe(true);
    expect((await rejection(todoist.api.getLabel(created.id))).httpStatusCode).toBe(404);
  });

  it('paginates with cursor and limit', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) await todoist.api.addLabel({ name });
    const names: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await todoist.api.getLabels({ limit: 2, cursor });
      names.push(...page.results.map((label) => label.name));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(names).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(pages).toBe(3);
  });

  it('keeps names unique per user, case-insensitively', async () => {
    await todoist.api.addLabel({ name: 'Focus' });
    const failure = await rejection(todoist.api.addLabel({ name: 'focus' }));
    expect(failure.httpStatusCode).toBe(400);
    expect(failure.responseData?.error_tag).toBe('LABEL_ALREADY_EXISTS');
    const other = await seedUser(todoist.origin, { email: 'grace@example.com' });
    await expect(
      sdk(todoist.origin, other.accessToken ?? '').addLabel({ name: 'Focus' }),
    ).resolves.toBeTruthy();
  });

  it('renames and removes the label on tasks', async () => {
    const label = await todoist.api.addLabel({ name: '30min' });
    const task = await todoist.api.addTask({ content: 'Write', labels: ['30min', 'other'] });
    await todoist.api.updateLabel(label.id, { name: '1h' });
    expect((await todoist.api.getTask(task.id)).labels).toEqual(['1h', 'other']);
    await todoist.api.deleteLabel(label.id);
    expect((await todoist.api.getTask(task.id)).labels).toEqual(['other']);
  });
});

describe('tasks', () => {
  it('creates a timed task with duration, labels, description and priority', async () => {
    const task = await todoist.api.addTask({
      content: 'Write report',
      description: 'quarterly',
      labels: ['30min'],
      priority: 4,
      dueDatetime: '2026-03-12T09:30:00Z',
      duration: 30,
      durationUnit: 'minute',
    });
    expect(task).toMatchObject({
      content: 'Write report',
      description: 'quarterly',
      labels: ['30min'],
      priority: 4,
      projectId: todoist.user.inboxProjectId,
      checked: false,
      isDeleted: false,
      duration: { amount: 30, unit: 'minute' },
      due: { date: '2026-03-12T09:30:00Z', timezone: 'Europe/Berlin', isRecurring: false, lang: 'en' },
    });
    expect(await todoist.api.getTask(task.id)).toEqual(task);
  });

  it('stores date-only and floating due dates', async () => {
    const allDay = await todoist.api.addTask({ content: 'All day', dueDate: '2026-03-12' });
    expect(allDay.due).toMatchObject({ date: '2026-03-12', timezone: null, isRecurring: false });
    const floating = await todoist.api.addTask({ content: 'Floating', dueDatetime: '2026-03-12T14:00:00' });
    expect(floating.due).toMatchObject({ date: '2026-03-12T14:00:00', timezone: null });
    const tomorrow = await todoist.api.addTask({ content: 'Tomorrow', dueString: 'tomorrow at 15:00' });
    expect(tomorrow.due).toMatchObject({ date: '2026-03-11T15:00:00', string: 'tomorrow at 15:00' });
  });

  it('updates fields and bumps updated_at; "no date" clears the due date', async () => {
    const task = await todoist.api.addTask({
      content: 'Draft',
      dueDate: '2026-03-12',
      duration: 15,
      durationUnit: 'minute',
    });
    const updated = await todoist.api.updateTask(task.id, {
      content: 'Final',
      dueDatetime: '2026-03-13T08:00:00Z',
      duration: 1,
      durationUnit: 'day',
    });
    expect(updated).toMatchObject({
      content: 'Final',
      duration: { amount: 1, unit: 'day' },
      due: { date: '2026-03-13T08:00:00Z' },
    });
    expect(updated.updatedAt?.getTime()).toBeGreaterThanOrEqual(task.updatedAt?.getTime() ?? 0);
    const cleared = await todoist.api.updateTask(task.id, { dueString: null });
    expect(cleared.due).toBeNull();
  });

  it('lists active tasks filtered by project, label and ids, with pagination', async () => {
    const created = [];
    for (let index = 0; index < 5; index++) {
      created.push(
        await todoist.api.addTask({ content: `Task ${index}`, labels: index % 2 === 0 ? ['even'] : [] }),
      );
    }
    const [first, second] = created;
    expect((await todoist.api.getTasks({ label: 'even' })).results.map((t) => t.content)).toEqual([
      'Task 0',
      'Task 2',
      'Task 4',
    ]);
    expect((await todoist.api.getTasks({ ids: [first?.id ?? '', second?.id ?? ''] })).results).toHaveLength(
      2,
    );
    expect((await todoist.api.getTasks({ projectId: todoist.user.inboxProjectId })).results).toHaveLength(5);
    expect((await todoist.api.getTasks({ projectId: 'elsewhere' })).results).toHaveLength(0);
    const page1 = await todoist.api.getTasks({ limit: 3 });
    expect(page1.results).toHaveLength(3);
    const page2 = await todoist.api.getTasks({ limit: 3, cursor: page1.nextCursor });
    expect(page2.results.map((t) => t.content)).toEqual(['Task 3', 'Task 4']);
    expect(page2.nextCursor).toBeNull();
    const tooMany = await rejection(todoist.api.getTasks({ limit: 201 }));
    expect(tooMany.httpStatusCode).toBe(400);
    expect(tooMany.responseData).toMatchObject({
      error_tag: 'INVALID_ARGUMENT_VALUE',
      error_extra: { argument: 'limit' },
    });
  });

  it('closes, reopens and deletes a task', async () => {
    const task = await todoist.api.addTask({ content: 'Ship it' });
    expect(await todoist.api.closeTask(task.id)).toBe(true);
    expect((await todoist.api.getTasks()).results).toHaveLength(0);
    const closed = await todoist.api.getTask(task.id);
    expect(closed.checked).toBe(true);
    expect(closed.completedAt).toBeInstanceOf(Date);
    const completed = await todoist.api.getCompletedTasksByCompletionDate({
      since: '2026-03-01T00:00:00Z',
      until: '2026-03-31T00:00:00Z',
    });
    expect(completed.items.map((t) => t.id)).toEqual([task.id]);
    expect(await todoist.api.reopenTask(task.id)).toBe(true);
    expect((await todoist.api.getTask(task.id)).checked).toBe(false);
    expect(await todoist.api.deleteTask(task.id)).toBe(true);
    expect((await rejection(todoist.api.getTask(task.id))).httpStatusCode).toBe(404);
  });

  it('rolls a recurring task forward on close instead of completing it', async () => {
    const daily = await todoist.api.addTask({ content: 'Standup', dueString: 'every day at 9am' });
    expect(daily.due).toMatchObject({
      date: '2026-03-11T09:00:00',
      isRecurring: true,
      string: 'every day at 9am',
    });
    await todoist.api.closeTask(daily.id);
    const next = await todoist.api.getTask(daily.id);
    expect(next).toMatchObject({ checked: false, due: { date: '2026-03-12T09:00:00', isRecurring: true } });

    const weekly = await todoist.api.addTask({
      content: 'Review',
      dueString: 'every week',
      dueDatetime: '2026-03-16T08:00:00Z',
    });
    await todoist.api.closeTask(weekly.id);
    expect((await todoist.api.getTask(weekly.id)).due).toMatchObject({
      date: '2026-03-23T08:00:00Z',
      timezone: 'Europe/Berlin',
    });

    const everyThree = await todoist.api.addTask({
      content: 'Water plants',
      dueString: 'every 3 days',
      dueDate: '2026-03-01',
    });
    await todoist.api.closeTask(everyThree.id);
    // Overdue: skips to the first occurrence from today on.
    expect((await todoist.api.getTask(everyThree.id)).due?.date).toBe('2026-03-10');
  });

  it('creates once per X-Request-Id', async () => {
    const first = await todoist.api.addTask({ content: 'Once' }, 'request-1');
    const again = await todoist.api.addTask({ content: 'Once' }, 'request-1');
    expect(again.id).toBe(first.id);
    expect((await todoist.api.getTasks()).results).toHaveLength(1);
    const label = await todoist.api.addLabel({ name: 'once' }, 'request-2');
    expect((await todoist.api.addLabel({ name: 'once' }, 'request-2')).id).toBe(label.id);
  });

  it('files tasks in seeded projects and refuses unknown ones', async () => {
    const planner = await seedUser(todoist.origin, {
      email: 'planner@example.com',
      projects: [{ name: 'Work' }],
    });
    const client = sdk(todoist.origin, planner.accessToken ?? '');
    const work = planner.projects.find((project) => project.name === 'Work');
    expect((await client.getProjects()).results.map((project) => project.name)).toEqual(['Inbox', 'Work']);
    const task = await client.addTask({ content: 'Plan', projectId: work?.id ?? '' });
    expect((await client.getTasks({ projectId: work?.id ?? '' })).results.map((t) => t.id)).toEqual([
      task.id,
    ]);
    const failure = await rejection(client.addTask({ content: 'Lost', projectId: '6nosuchproject00' }));
    expect(failure.responseData).toMatchObject({ error: 'Project not found', http_code: 404 });
  });

  it("keeps each user's tasks apart", async () => {
    const other = await seedUser(todoist.origin, { email: 'grace@example.com' });
    const task = await todoist.api.addTask({ content: 'Mine' });
    const theirs = sdk(todoist.origin, other.accessToken ?? '');
    expect((await theirs.getTasks()).results).toHaveLength(0);
    expect((await rejection(theirs.getTask(task.id))).httpStatusCode).toBe(404);
  });

  it('rejects bad arguments with Todoist error tags', async () => {
    const missing = await rejection(todoist.api.addTask({ content: '' }));
    expect(missing.httpStatusCode).toBe(400);
    expect(missing.responseData?.error_tag).toBe('INVALID_ARGUMENT_VALUE');
    const badDue = await rejection(todoist.api.addTask({ content: 'x', dueString: 'whenever it suits' }));
    expect(badDue.responseData).toMatchObject({
      error_tag: 'INVALID_ARGUMENT_VALUE',
      error_extra: { argument: 'due_string' },
    });
    const response = await fetch(`${todoist.origin}/api/v1/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${todoist.user.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'no content' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error_tag: 'ARGUMENT_MISSING',
      http_code: 400,
      error_extra: { argument: 'content' },
    });
  });
});

describe('errors', () => {
  it('answers a bad token with 401', async () => {
    const failure = await rejection(sdk(todoist.origin, 'not-a-token').getUser());
    expect(failure.httpStatusCode).toBe(401);
    expect(failure.responseData).toMatchObject({ error_tag: 'AUTH_INVALID_TOKEN', http_code: 401 });
  });

  it('answers an unknown task with 404', async () => {
    const failure = await rejection(todoist.api.getTask('6XXXXXXXXXXXXXXX'));
    expect(failure.httpStatusCode).toBe(404);
    expect(failure.responseData).toMatchObject({
      error: 'Task not found',
      error_code: 478,
      error_tag: 'NOT_FOUND',
      http_code: 404,
    });
  });

  it('throttles with 429 and Retry-After through a fault rule', async () => {
    await control(todoist.origin, 'faults', {
      kind: 'rate-limit',
      path: '/api/v1/tasks',
      retryAfterSeconds: 7,
      times: 1,
    });
    let retryAfter: string | undefined;
    const throttled = sdk(todoist.origin, todoist.user.accessToken ?? '');
    const watching = new (throttled.constructor as typeof TodoistApi)(todoist.user.accessToken ?? '', {
      baseUrl: todoist.origin,
      customFetch: async (url, options) => {
        const response = await fetch(url, options);
        retryAfter ??= response.headers.get('retry-after') ?? undefined;
        return {
          ok: response.ok,
          status: response.status,
          statusText: response.statusText,
          headers: Object.fromEntries(response.headers),
          text: () => response.text(),
          json: () => response.json(),
        };
      },
    });
    const failure = await rejection(watching.getTasks());
    expect(failure.httpStatusCode).toBe(429);
    expect(retryAfter).toBe('7');
    expect(failure.responseData).toMatchObject({
      error_tag: 'LIMITS_REACHED',
      http_code: 429,
      error_extra: { retry_after: 7 },
    });
    await expect(watching.getTasks()).resolves.toMatchObject({ results: [] });
  });

  it('stores a create whose response is lost (5xx), so the SDK call fails but the task exists', async () => {
    await control(todoist.origin, 'faults', {
      kind: 'lose-response',
      status: 502,
      method: 'POST',
      path: '/api/v1/tasks',
      times: 1,
    });
    const failure = await rejection(todoist.api.addTask({ content: 'Written, answer lost' }));
    expect(failure.httpStatusCode).toBe(502);
    const { results } = await todoist.api.getTasks();
    expect(results.map((task) => task.content)).toEqual(['Written, answer lost']);
  });

  it('stores a Sync command whose connection is dropped; the SDK retries network errors by itself', async () => {
    await control(todoist.origin, 'faults', {
      kind: 'lose-response',
      drop: true,
      method: 'POST',
      path: '/api/v1/sync',
      times: 1,
    });
    const command = {
      type: 'item_add',
      uuid: 'f5a1c0de-0000-4000-8000-000000000001',
      args: { content: 'Once' },
    };
    // The retry carries the same command uuid, which Todoist applies once.
    await todoist.api.sync({ commands: [command] });
    const { results } = await todoist.api.getTasks();
    expect(results.map((task) => task.content)).toEqual(['Once']);
    const state = (await (await fetch(`${todoist.origin}/_emulator/state`)).json()) as {
      requests: Record<string, number>;
    };
    expect(state.requests['POST /api/v1/sync']).toBe(2);
  });

  it("refuses a Sync command through a command fault: the batch answers, the command's status is Todoist's error", async () => {
    const task = await todoist.api.addTask({ content: 'Before' });
    const token = todoist.user.accessToken ?? '';
    const added = await control(todoist.origin, 'command-faults', {
      type: 'item_update',
      bearer: token,
      errorTag: 'INVALID_ARGUMENT_VALUE',
      httpCode: 400,
    });
    const { id } = (await added.json()) as { id: number };
    const { TodoistSyncError } = await import('@doist/todoist-sdk');
    const update = (uuid: string, content: string) => ({
      type: 'item_update',
      uuid,
      args: { id: task.id, content },
    });
    const failure = await todoist.api
      .sync({ commands: [update('c0ffee00-0000-4000-8000-000000000001', 'Refused')] })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(TodoistSyncError);
    expect((failure as InstanceType<typeof TodoistSyncError>).syncStatus).toMatchObject({
      'c0ffee00-0000-4000-8000-000000000001': { errorTag: 'INVALID_ARGUMENT_VALUE', httpCode: 400 },
    });
    expect((await todoist.api.getTask(task.id)).content).toBe('Before');
    // Another command type, and the same one sent with another token, go through.
    await todoist.api.sync({
      commands: [{ type: 'item_close', uuid: 'c0ffee00-0000-4000-8000-000000000002', args: { id: task.id } }],
    });
    const personal = sdk(todoist.origin, todoist.user.personalToken ?? '');
    await personal.sync({ commands: [update('c0ffee00-0000-4000-8000-000000000003', 'Through')] });
    expect((await todoist.api.getTask(task.id)).content).toBe('Through');
    const listed = (await (await fetch(`${todoist.origin}/_emulator/command-faults`)).json()) as {
      rules: { id: number; hits: number }[];
    };
    expect(listed.rules).toMatchObject([{ id, hits: 1 }]);
    // Removed, the command goes through.
    await fetch(`${todoist.origin}/_emulator/command-faults/${id}`, { method: 'DELETE' });
    await todoist.api.sync({ commands: [update('c0ffee00-0000-4000-8000-000000000004', 'After')] });
    expect((await todoist.api.getTask(task.id)).content).toBe('After');
  });

  it('refuses writes to a read-only token with 403', async () => {
    const reader = await seedUser(todoist.origin, { email: 'reader@example.com', scopes: ['data:read'] });
    const failure = await rejection(sdk(todoist.origin, reader.accessToken ?? '').addTask({ content: 'x' }));
    expect(failure.httpStatusCode).toBe(403);
    expect(failure.responseData?.error_tag).toBe('AUTH_INSUFFICIENT_TOKEN_SCOPE');
  });

  it('counts requests per endpoint', async () => {
    await todoist.api.getUser();
    const state = (await (await fetch(`${todoist.origin}/_emulator/state`)).json()) as {
      requests: Record<string, number>;
    };
    expect(state.requests['GET /api/v1/user']).toBe(1);
  });
});
