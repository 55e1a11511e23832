import { randomUUID } from 'node:crypto';
import { createCommand, type SyncCommand, TodoistSyncError } from '@doist/todoist-sdk';
import { describe, expect, it } from 'vitest';
import { control, rejection, sdk, seedUser, setUpSeededTodoist } from './todoist.test-support.ts';

// `item_close` is documented for v1 but missing from the SDK's typed command map.
const closeCommand = (args: { id: string }): SyncCommand => ({
  type: 'item_close',
  uuid: randomUUID(),
  args,
});

const todoist = setUpSeededTodoist({
  email: 'ada@example.com',
  premiumStatus: 'current_personal_plan',
  timezone: 'Europe/Berlin',
  labels: [{ name: '30min', color: 'red' }],
  tasks: [{ content: 'Seeded', due_datetime: '2030-01-01T09:00:00Z', labels: ['30min'] }],
});

describe('read', () => {
  it('answers a full sync with items, labels and the user', async () => {
    const response = await todoist.api.sync({ syncToken: '*', resourceTypes: ['items', 'labels', 'user'] });
    expect(response.fullSync).toBe(true);
    expect(response.syncToken).toEqual(expect.any(String));
    expect(response.items?.map((item) => item.content)).toEqual(['Seeded']);
    expect(response.labels).toEqual([
      expect.objectContaining({ name: '30min', color: 'red', isDeleted: false }),
    ]);
    expect(response.user).toMatchObject({
      id: todoist.user.id,
      premiumStatus: 'current_personal_plan',
      tzInfo: { timezone: 'Europe/Berlin' },
    });
  });

  it('returns only what changed since the token, with deletions and completions', async () => {
    const first = await todoist.api.sync({ syncToken: '*', resourceTypes: ['items', 'labels', 'user'] });
    const quiet = await todoist.api.sync({
      syncToken: first.syncToken,
      resourceTypes: ['items', 'labels', 'user'],
    });
    expect(quiet).toMatchObject({ fullSync: false, items: [], labels: [] });
    expect(quiet.user).toBeUndefined();

    const added = await todoist.api.addTask({ content: 'New' });
    const toClose = await todoist.api.addTask({ content: 'Close me' });
    const [seeded] = todoist.user.tasks;
    await todoist.api.closeTask(toClose.id);
    await todoist.api.deleteTask(seeded?.id ?? '');
    const label = todoist.user.labels[0];
    await todoist.api.updateLabel(label?.id ?? '', { color: 'blue' });

    const changes = await todoist.api.sync({
      syncToken: quiet.syncToken,
      resourceTypes: ['items', 'labels'],
    });
    expect(changes.fullSync).toBe(false);
    const byId = new Map(changes.items?.map((item) => [item.id, item]));
    expect(byId.get(added.id)).toMatchObject({ content: 'New', checked: false, isDeleted: false });
    expect(byId.get(toClose.id)).toMatchObject({ checked: true });
    expect(byId.get(seeded?.id ?? '')).toMatchObject({ isDeleted: true });
    expect(changes.labels).toEqual([expect.objectContaining({ color: 'blue' })]);

    const after = await todoist.api.sync({ syncToken: changes.syncToken, resourceTypes: ['items'] });
    expect(after.items).toEqual([]);
  });

  it('returns the user in an incremental sync once its settings change', async () => {
    const first = await todoist.api.sync({ syncToken: '*', resourceTypes: ['user'] });
    await control(todoist.origin, `users/${todoist.user.email}`, { timezone: 'Asia/Tokyo' });
    const next = await todoist.api.sync({ syncToken: first.syncToken, resourceTypes: ['user'] });
    expect(next.user?.tzInfo).toMatchObject({ timezone: 'Asia/Tokyo', gmtString: '+09:00' });
  });

  it('accepts the documented form encoding with "all" and exclusions', async () => {
    const response = await fetch(`${todoist.origin}/api/v1/sync`, {
      method: 'POST',
      headers: { authorization: `Bearer ${todoist.user.accessToken}` },
      body: new URLSearchParams({ sync_token: '*', resource_types: '["all", "-projects"]' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      full_sync: true,
      items: [expect.objectContaining({ content: 'Seeded' })],
      notes: [],
    });
    expect(body.projects).toBeUndefined();
    expect(body.user).toMatchObject({ email: 'ada@example.com' });
  });

  it('answers an expired token with a full sync, or with a 400 when told to', async () => {
    const first = await todoist.api.sync({ syncToken: '*', resourceTypes: ['items'] });
    await control(todoist.origin, `users/${todoist.user.id}/expire-sync-tokens`, {});
    const again = await todoist.api.sync({ syncToken: first.syncToken, resourceTypes: ['items'] });
    expect(again.fullSync).toBe(true);
    expect(again.items).toHaveLength(1);

    await control(todoist.origin, `users/${todoist.user.id}/expire-sync-tokens`, { mode: 'error' });
    const failure = await rejection(
      todoist.api.sync({ syncToken: again.syncToken, resourceTypes: ['items'] }),
    );
    expect(failure.httpStatusCode).toBe(400);
    expect(failure.responseData).toMatchObject({
      error_tag: 'INVALID_ARGUMENT_VALUE',
      error_extra: { argument: 'sync_token' },
    });
  });

  it("does not accept another user's token", async () => {
    const other = await seedUser(todoist.origin, { email: 'grace@example.com' });
    const mine = await todoist.api.sync({ syncToken: '*', resourceTypes: ['items'] });
    const theirs = await sdk(todoist.origin, other.accessToken ?? '').sync({
      syncToken: mine.syncToken,
      resourceTypes: ['items'],
    });
    expect(theirs).toMatchObject({ fullSync: true, items: [] });
  });
});

describe('commands', () => {
  it('applies commands in order with temp ids', async () => {
    const add = createCommand(
      'item_add',
      {
        content: 'Via sync',
        due: { date: '2030-02-01T10:00:00Z' },
        duration: { amount: 45, unit: 'minute' },
        labels: ['30min'],
      },
      'tmp-task',
    );
    const update = createCommand('item_update', { id: 'tmp-task', priority: 3 });
    const label = createCommand('label_add', { name: '1h', color: 'green' }, 'tmp-label');
    const response = await todoist.api.sync({
      commands: [add, update, label],
      resourceTypes: ['items', 'labels'],
      syncToken: '*',
    });
    expect(response.syncStatus).toEqual({ [add.uuid]: 'ok', [update.uuid]: 'ok', [label.uuid]: 'ok' });
    const taskId = response.tempIdMapping?.['tmp-task'] ?? '';
    expect(response.tempIdMapping).toEqual({
      'tmp-task': expect.any(String),
      'tmp-label': expect.any(String),
    });
    expect(await todoist.api.getTask(taskId)).toMatchObject({
      content: 'Via sync',
      priority: 3,
      duration: { amount: 45, unit: 'minute' },
      due: { date: '2030-02-01T10:00:00Z', timezone: 'Europe/Berlin' },
    });
    expect(response.labels?.map((l) => l.name)).toEqual(['30min', '1h']);
  });

  it('does not apply a command twice when its uuid is replayed', async () => {
    const add = createCommand('item_add', { content: 'Exactly once' }, 'tmp-once');
    const first = await todoist.api.sync({ commands: [add] });
    const replay = await todoist.api.sync({ commands: [add] });
    expect(replay.syncStatus).toEqual({ [add.uuid]: 'ok' });
    expect(replay.tempIdMapping).toEqual(first.tempIdMapping);
    const tasks = await todoist.api.getTasks();
    expect(tasks.results.filter((task) => task.content === 'Exactly once')).toHaveLength(1);

    const close = closeCommand({ id: first.tempIdMapping?.['tmp-once'] ?? '' });
    await todoist.api.sync({ commands: [close] });
    await todoist.api.reopenTask(first.tempIdMapping?.['tmp-once'] ?? '');
    await todoist.api.sync({ commands: [close] });
    expect((await todoist.api.getTask(first.tempIdMapping?.['tmp-once'] ?? '')).checked).toBe(false);
  });

  it('closes a recurring task to its next occurrence and completes it for good with item_complete', async () => {
    const add = createCommand(
      'item_add',
      { content: 'Daily', due: { date: '2030-01-05', string: 'every day' } },
      'tmp-daily',
    );
    const { tempIdMapping } = await todoist.api.sync({ commands: [add] });
    const id = tempIdMapping?.['tmp-daily'] ?? '';
    await todoist.api.sync({ commands: [closeCommand({ id })] });
    expect((await todoist.api.getTask(id)).due).toMatchObject({ date: '2030-01-06', isRecurring: true });
    await todoist.api.sync({
      commands: [createCommand('item_complete', { id, completedAt: '2030-01-06T10:00:00.000000Z' })],
    });
    expect(await todoist.api.getTask(id)).toMatchObject({ checked: true, due: { date: '2030-01-06' } });
  });

  it('item_update_date_complete completes one occurrence and moves the task to the given due', async () => {
    const add = createCommand(
      'item_add',
      { content: 'Weekly review', due: { date: '2030-01-07T09:00:00', string: 'every monday at 9am' } },
      'tmp-review',
    );
    const { tempIdMapping } = await todoist.api.sync({ commands: [add] });
    const id = tempIdMapping?.['tmp-review'] ?? '';
    const complete = createCommand('item_update_date_complete', {
      id,
      due: { date: '2030-01-14T09:00:00' },
      isForward: true,
    });
    expect((await todoist.api.sync({ commands: [complete] })).syncStatus).toEqual({ [complete.uuid]: 'ok' });
    expect(await todoist.api.getTask(id)).toMatchObject({
      checked: false,
      due: { date: '2030-01-14T09:00:00', string: 'every monday at 9am', isRecurring: true },
    });
  });

  it('closes weekday and monthly recurring tasks to their next occurrence', async () => {
    const adds = [
      createCommand(
        'item_add',
        { content: 'Standup', due: { date: '2030-01-11T09:00:00', string: 'every weekday at 9am' } },
        'tmp-standup',
      ),
      createCommand(
        'item_add',
        { content: 'Invoices', due: { date: '2030-01-31', string: 'every month' } },
        'tmp-invoices',
      ),
    ];
    const { tempIdMapping } = await todoist.api.sync({ commands: adds });
    const standup = tempIdMapping?.['tmp-standup'] ?? '';
    const invoices = tempIdMapping?.['tmp-invoices'] ?? '';
    await todoist.api.sync({ commands: [closeCommand({ id: standup }), closeCommand({ id: invoices })] });
    // Friday → Monday; 31 January → the last day of February.
    expect((await todoist.api.getTask(standup)).due).toMatchObject({
      date: '2030-01-14T09:00:00',
      isRecurring: true,
    });
    expect((await todoist.api.getTask(invoices)).due).toMatchObject({
      date: '2030-02-28',
      isRecurring: true,
    });
  });

  it('item_move moves a task under another, to a project with its subtasks, and back to the top', async () => {
    const work = (
      await seedUser(todoist.origin, { email: 'ada@example.com', projects: [{ name: 'Work' }] })
    ).projects.find((project) => project.name === 'Work');
    const adds = [
      createCommand('item_add', { content: 'Parent' }, 'tmp-parent'),
      createCommand('item_add', { content: 'Child' }, 'tmp-child'),
    ];
    const { tempIdMapping } = await todoist.api.sync({ commands: adds });
    const parent = tempIdMapping?.['tmp-parent'] ?? '';
    const child = tempIdMapping?.['tmp-child'] ?? '';
    await todoist.api.sync({ commands: [createCommand('item_move', { id: child, parentId: parent })] });
    expect(await todoist.api.getTask(child)).toMatchObject({
      parentId: parent,
      projectId: todoist.user.inboxProjectId,
    });
    await todoist.api.sync({
      commands: [createCommand('item_move', { id: parent, projectId: work?.id ?? '' })],
    });
    expect(await todoist.api.getTask(child)).toMatchObject({ parentId: parent, projectId: work?.id });
    const cycle = await rejection(
      todoist.api.sync({ commands: [createCommand('item_move', { id: parent, parentId: child })] }),
    );
    expect(cycle).toBeInstanceOf(TodoistSyncError);
    await todoist.api.sync({ commands: [createCommand('item_move', { id: child, parentId: null })] });
    expect(await todoist.api.getTask(child)).toMatchObject({ parentId: null, projectId: work?.id });
  });

  it('item_complete_undo reopens a completed task and restores its subtasks', async () => {
    const adds = [
      createCommand('item_add', { content: 'Parent' }, 'tmp-parent'),
      createCommand('item_add', { content: 'Child', parentId: 'tmp-parent' }, 'tmp-child'),
    ];
    const { tempIdMapping } = await todoist.api.sync({ commands: adds });
    const parent = tempIdMapping?.['tmp-parent'] ?? '';
    const child = tempIdMapping?.['tmp-child'] ?? '';
    await todoist.api.sync({
      commands: [createCommand('item_complete', { id: parent, completedAt: '2030-01-06T10:00:00.000000Z' })],
    });
    expect((await todoist.api.getTask(child)).checked).toBe(true);
    await todoist.api.sync({
      commands: [
        createCommand('item_complete_undo', { id: parent, descendants: [{ id: child, checked: false }] }),
      ],
    });
    expect(await todoist.api.getTask(parent)).toMatchObject({ checked: false, completedAt: null });
    expect((await todoist.api.getTask(child)).checked).toBe(false);
  });

  it('label_rename renames a personal label and a shared one, on every task', async () => {
    const add = createCommand('item_add', { content: 'Shared', labels: ['team'] }, 'tmp-shared');
    const { tempIdMapping } = await todoist.api.sync({ commands: [add] });
    await todoist.api.sync({
      commands: [
        createCommand('label_rename', { nameOld: '30min', nameNew: '45min' }),
        createCommand('label_rename', { nameOld: 'team', nameNew: 'squad' }),
      ],
    });
    expect((await todoist.api.getLabels()).results.map((label) => label.name)).toEqual(['45min']);
    expect((await todoist.api.getTask(todoist.user.tasks[0]?.id ?? '')).labels).toEqual(['45min']);
    expect((await todoist.api.getTask(tempIdMapping?.['tmp-shared'] ?? '')).labels).toEqual(['squad']);
  });

  it('reports a failed command in sync_status (the SDK throws TodoistSyncError)', async () => {
    const ok = createCommand('item_add', { content: 'Fine' });
    const bad = createCommand('item_update', { id: '6doesnotexist000', content: 'x' });
    const error = await rejection(todoist.api.sync({ commands: [ok, bad] }));
    expect(error).toBeInstanceOf(TodoistSyncError);
    const syncError = error as TodoistSyncError;
    expect(syncError.syncStatus[ok.uuid]).toBe('ok');
    expect(syncError.syncStatus[bad.uuid]).toMatchObject({ errorTag: 'NOT_FOUND', httpCode: 404 });
    // A failed command is not remembered, so it can be retried once it can succeed.
    expect((await todoist.api.getTasks()).results.map((t) => t.content)).toContain('Fine');
  });

  it('deletes tasks and labels by command', async () => {
    const [task] = todoist.user.tasks;
    const [label] = todoist.user.labels;
    await todoist.api.sync({
      commands: [
        createCommand('item_delete', { id: task?.id ?? '' }),
        createCommand('label_delete', { id: label?.id ?? '' }),
      ],
    });
    expect((await rejection(todoist.api.getTask(task?.id ?? ''))).httpStatusCode).toBe(404);
    expect((await todoist.api.getLabels()).results).toEqual([]);
  });

  it('rejects more than 100 commands', async () => {
    const commands = Array.from({ length: 101 }, () => createCommand('item_add', { content: 'x' }));
    const failure = await rejection(todoist.api.sync({ commands }));
    expect(failure.httpStatusCode).toBe(400);
  });
});

describe('published limits', () => {
  it('answers 429 LIMITS_REACHED with Retry-After beyond the partial and full syncs of the window, per user', async () => {
    expect(
      await (await control(todoist.origin, 'limits', { partial: 3, full: 2, windowSeconds: 60 })).json(),
    ).toEqual({ partial: 3, full: 2, windowSeconds: 60 });
    const first = await todoist.api.sync({ syncToken: '*', resourceTypes: ['items'] });
    await todoist.api.sync({ syncToken: '*', resourceTypes: ['items'] });
    const fullFailure = await rejection(todoist.api.sync({ syncToken: '*', resourceTypes: ['items'] }));
    expect(fullFailure.httpStatusCode).toBe(429);
    expect(fullFailure.responseData).toMatchObject({ error_tag: 'LIMITS_REACHED', error_code: 35 });
    expect(Number(fullFailure.responseData?.error_extra?.retry_after)).toBeGreaterThan(0);
    expect(Number(fullFailure.responseData?.error_extra?.retry_after)).toBeLessThanOrEqual(60);

    // Partial syncs (incremental reads, commands) have their own count.
    for (let call = 0; call < 3; call++)
      await todoist.api.sync({ syncToken: first.syncToken, resourceTypes: ['items'] });
    const response = await fetch(`${todoist.origin}/api/v1/sync`, {
      method: 'POST',
      headers: { authorization: `Bearer ${todoist.user.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sync_token: first.syncToken, resource_types: ['items'] }),
    });
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(
      ((await response.json()) as { error_extra: { retry_after: number } }).error_extra.retry_after,
    ).toBe(retryAfter);

    // Another user has a window of their own.
    const other = await seedUser(todoist.origin, { email: 'grace@example.com' });
    const otherApi = sdk(todoist.origin, other.accessToken ?? '');
    expect((await otherApi.sync({ syncToken: '*', resourceTypes: ['items'] })).fullSync).toBe(true);
  });

  it('enforces Todoist’s published figures by default: 1,000 partial syncs and 100 full ones', async () => {
    const limits = await fetch(`${todoist.origin}/_emulator/limits`, { method: 'DELETE' });
    expect(await limits.json()).toEqual({ partial: 1000, full: 100, windowSeconds: 900 });
    for (let call = 0; call < 100; call++)
      await todoist.api.sync({ syncToken: '*', resourceTypes: ['labels'] });
    expect(
      (await rejection(todoist.api.sync({ syncToken: '*', resourceTypes: ['labels'] }))).httpStatusCode,
    ).toBe(429);
  });
});
