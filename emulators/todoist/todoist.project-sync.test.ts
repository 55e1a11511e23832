import { randomUUID } from 'node:crypto';
import { createCommand, TodoistSyncError } from '@doist/todoist-sdk';
import { describe, expect, it } from 'vitest';
import { rejection, sdk, seedUser, setUpSeededTodoist } from './todoist.test-support.ts';

/** The `project_*` and `item_move` Sync commands, and what full and incremental syncs say about them. */

const todoist = setUpSeededTodoist({
  email: 'ada@example.com',
  scopes: ['data:read_write', 'data:delete', 'project:delete'],
});

/** A raw `/sync` request, as Todoist documents it: form fields whose values are JSON. */
async function rawSync(fields: Record<string, unknown>, token = todoist.user.accessToken ?? '') {
  const body = new URLSearchParams(
    Object.entries(fields).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
  const response = await fetch(`${todoist.origin}/api/v1/sync`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown> & {
    sync_token: string;
    sync_status?: Record<string, unknown>;
    temp_id_mapping: Record<string, string>;
    projects?: Record<string, unknown>[];
    items?: Record<string, unknown>[];
  };
}

const raw = (type: string, args: Record<string, unknown>, tempId?: string) => ({
  type,
  uuid: randomUUID(),
  args,
  ...(tempId === undefined ? {} : { temp_id: tempId }),
});

/** "Work" with a sub-project "Meetings" and a task in each, added in one request through temp ids. */
async function workTree() {
  const { tempIdMapping } = await todoist.api.sync({
    commands: [
      createCommand('project_add', { name: 'Work' }, 'tmp-work'),
      createCommand('project_add', { name: 'Meetings', parentId: 'tmp-work' }, 'tmp-meetings'),
      createCommand('item_add', { content: 'Report', projectId: 'tmp-work' }, 'tmp-report'),
      createCommand('item_add', { content: 'Standup', projectId: 'tmp-meetings' }, 'tmp-standup'),
    ],
  });
  const id = (temp: string) => tempIdMapping?.[temp] ?? '';
  return {
    work: id('tmp-work'),
    meetings: id('tmp-meetings'),
    report: id('tmp-report'),
    standup: id('tmp-standup'),
  };
}

describe('project_add and project_update', () => {
  it('maps temp ids that later commands of the same request use (raw form request)', async () => {
    const add = raw('project_add', { name: 'Shopping List', color: 'berry_red' }, 'tmp-shop');
    const item = raw('item_add', { content: 'Buy Milk', project_id: 'tmp-shop' }, 'tmp-milk');
    const sub = raw(
      'project_add',
      { name: 'Bakery', parent_id: 'tmp-shop', is_favorite: true },
      'tmp-bakery',
    );
    const response = await rawSync({
      sync_token: '*',
      resource_types: ['projects', 'items'],
      commands: [add, item, sub],
    });
    expect(response.sync_status).toEqual({ [add.uuid]: 'ok', [item.uuid]: 'ok', [sub.uuid]: 'ok' });
    const shop = response.temp_id_mapping['tmp-shop'];
    expect(Object.keys(response.temp_id_mapping).sort()).toEqual(['tmp-bakery', 'tmp-milk', 'tmp-shop']);
    expect(response.projects).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: shop,
          name: 'Shopping List',
          color: 'berry_red',
          parent_id: null,
          is_archived: false,
          is_deleted: false,
        }),
        expect.objectContaining({ name: 'Bakery', parent_id: shop, is_favorite: true }),
      ]),
    );
    expect(response.items).toEqual([expect.objectContaining({ content: 'Buy Milk', project_id: shop })]);
  });

  it('project_update changes the fields it is given', async () => {
    const { work } = await workTree();
    const update = createCommand('project_update', {
      id: work,
      name: 'Job',
      color: 'green',
      isFavorite: true,
      isCollapsed: true,
      viewStyle: 'board',
    });
    const response = await todoist.api.sync({
      commands: [update],
      syncToken: '*',
      resourceTypes: ['projects'],
    });
    expect(response.syncStatus).toEqual({ [update.uuid]: 'ok' });
    expect(response.projects?.find((project) => project.id === work)).toMatchObject({
      name: 'Job',
      color: 'green',
      isFavorite: true,
      isCollapsed: true,
      viewStyle: 'board',
    });
  });
});

describe('project_move', () => {
  it('moves a project under another and back to the root, never under itself or the Inbox', async () => {
    const { work, meetings } = await workTree();
    const { tempIdMapping } = await todoist.api.sync({
      commands: [createCommand('project_add', { name: 'Home' }, 'tmp-home')],
    });
    const home = tempIdMapping?.['tmp-home'] ?? '';
    await todoist.api.sync({ commands: [createCommand('project_move', { id: meetings, parentId: home })] });
    expect(await todoist.api.getProject(meetings)).toMatchObject({ parentId: home, childOrder: 1 });
    await todoist.api.sync({ commands: [createCommand('project_move', { id: meetings, parentId: null })] });
    expect(await todoist.api.getProject(meetings)).toMatchObject({ parentId: null });

    await todoist.api.sync({ commands: [createCommand('project_move', { id: home, parentId: work })] });
    const cycle = createCommand('project_move', { id: work, parentId: home });
    const underInbox = createCommand('project_move', { id: work, parentId: todoist.user.inboxProjectId });
    const inbox = createCommand('project_move', { id: todoist.user.inboxProjectId, parentId: work });
    const failure = await rejection(todoist.api.sync({ commands: [cycle, underInbox, inbox] }));
    expect(failure).toBeInstanceOf(TodoistSyncError);
    const { syncStatus } = failure as TodoistSyncError;
    for (const command of [cycle, underInbox, inbox]) {
      expect(syncStatus[command.uuid]).toMatchObject({ errorTag: 'INVALID_ARGUMENT_VALUE', httpCode: 400 });
    }
    expect(await todoist.api.getProject(work)).toMatchObject({ parentId: null });
  });
});

describe('archive, unarchive and delete', () => {
  it('an incremental sync reports archived projects; a full sync leaves them and their tasks out', async () => {
    const { work, meetings, report } = await workTree();
    const before = await todoist.api.sync({ syncToken: '*', resourceTypes: ['projects', 'items'] });
    const archive = raw('project_archive', { id: work });
    const response = await rawSync({
      sync_token: before.syncToken,
      resource_types: ['projects', 'items'],
      commands: [archive],
    });
    expect(response.sync_status).toEqual({ [archive.uuid]: 'ok' });
    expect(response.projects?.map((project) => [project.id, project.is_archived])).toEqual([
      [work, true],
      [meetings, true],
    ]);
    // Archiving does not change the tasks.
    expect(response.items).toEqual([]);

    const full = await todoist.api.sync({ syncToken: '*', resourceTypes: ['projects', 'items'] });
    expect(full.projects?.map((project) => project.name)).toEqual(['Inbox']);
    expect(full.items).toEqual([]);

    await todoist.api.sync({ commands: [createCommand('project_unarchive', { id: work })] });
    const after = await todoist.api.sync({ syncToken: response.sync_token, resourceTypes: ['projects'] });
    expect(after.projects).toEqual([
      expect.objectContaining({ id: work, isArchived: false, parentId: null }),
    ]);
    const again = await todoist.api.sync({ syncToken: '*', resourceTypes: ['items'] });
    expect(again.items?.map((item) => item.id)).toEqual([report]);
  });

  it('project_delete deletes sub-projects and tasks, which an incremental sync reports deleted', async () => {
    const { work, meetings, report, standup } = await workTree();
    const before = await todoist.api.sync({ syncToken: '*', resourceTypes: ['projects', 'items'] });
    await todoist.api.sync({ commands: [createCommand('project_delete', { id: work })] });
    const changes = await todoist.api.sync({
      syncToken: before.syncToken,
      resourceTypes: ['projects', 'items'],
    });
    expect(changes.projects?.map((project) => [project.id, project.isDeleted]).sort()).toEqual(
      [
        [work, true],
        [meetings, true],
      ].sort(),
    );
    expect(changes.items?.map((item) => [item.id, item.isDeleted]).sort()).toEqual(
      [
        [report, true],
        [standup, true],
      ].sort(),
    );
    const full = await todoist.api.sync({ syncToken: '*', resourceTypes: ['projects', 'items'] });
    expect(full.projects?.map((project) => project.id)).toEqual([todoist.user.inboxProjectId]);
    expect(full.items).toEqual([]);
  });

  it('refuses to archive or delete the Inbox, and project_delete without project:delete', async () => {
    const archive = raw('project_archive', { id: todoist.user.inboxProjectId });
    const remove = raw('project_delete', { id: todoist.user.inboxProjectId });
    const response = await rawSync({ commands: [archive, remove] });
    expect(response.sync_status?.[archive.uuid]).toMatchObject({
      error_tag: 'INVALID_ARGUMENT_VALUE',
      http_code: 400,
      error_extra: { argument: 'id', explanation: 'The Inbox project cannot be archived' },
    });
    expect(response.sync_status?.[remove.uuid]).toMatchObject({ http_code: 400 });

    const limited = await seedUser(todoist.origin, { email: 'grace@example.com' });
    const { tempIdMapping } = await sdk(todoist.origin, limited.accessToken ?? '').sync({
      commands: [createCommand('project_add', { name: 'Keep' }, 'tmp-keep')],
    });
    const denied = raw('project_delete', { id: tempIdMapping?.['tmp-keep'] });
    const answer = await rawSync({ commands: [denied] }, limited.accessToken ?? '');
    expect(answer.sync_status?.[denied.uuid]).toMatchObject({
      error_tag: 'AUTH_INSUFFICIENT_TOKEN_SCOPE',
      http_code: 403,
    });
  });
});

describe('item_move', () => {
  it('an incremental sync returns a task moved to another project or under another task', async () => {
    const { work, report } = await workTree();
    const { tempIdMapping } = await todoist.api.sync({
      commands: [createCommand('item_add', { content: 'Loose' }, 'tmp-loose')],
    });
    const loose = tempIdMapping?.['tmp-loose'] ?? '';
    const before = await todoist.api.sync({ syncToken: '*', resourceTypes: ['items'] });
    await todoist.api.sync({
      commands: [createCommand('item_move', { id: report, projectId: todoist.user.inboxProjectId })],
    });
    const moved = await todoist.api.sync({ syncToken: before.syncToken, resourceTypes: ['items'] });
    expect(moved.items).toEqual([
      expect.objectContaining({ id: report, projectId: todoist.user.inboxProjectId }),
    ]);

    const under = raw('item_move', { id: loose, parent_id: report });
    const response = await rawSync({
      sync_token: moved.syncToken,
      resource_types: ['items'],
      commands: [under],
    });
    expect(response.items).toEqual([expect.objectContaining({ id: loose, parent_id: report })]);

    const toWork = raw('item_move', { id: report, project_id: work });
    const last = await rawSync({
      sync_token: response.sync_token,
      resource_types: ['items'],
      commands: [toWork],
    });
    // The subtask moves along with its parent.
    expect(last.items?.map((item) => [item.id, item.project_id]).sort()).toEqual(
      [
        [report, work],
        [loose, work],
      ].sort(),
    );
  });
});
