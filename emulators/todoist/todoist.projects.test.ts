import { describe, expect, it } from 'vitest';
import { rejection, sdk, seedUser, setUpSeededTodoist } from './todoist.test-support.ts';

/** Projects through the official SDK's REST calls (`/api/v1/projects`, `/api/v1/tasks/{id}/move`). */

const todoist = setUpSeededTodoist({
  email: 'ada@example.com',
  timezone: 'Europe/Berlin',
  scopes: ['data:read_write', 'data:delete', 'project:delete'],
});

/** A project "Work" with a sub-project "Meetings", and a task in each. */
async function workTree() {
  const work = await todoist.api.addProject({ name: 'Work' });
  const meetings = await todoist.api.addProject({ name: 'Meetings', parentId: work.id });
  const report = await todoist.api.addTask({ content: 'Report', projectId: work.id });
  const standup = await todoist.api.addTask({ content: 'Standup', projectId: meetings.id });
  return { work, meetings, report, standup };
}

describe('list and get', () => {
  it('lists the Inbox and the active projects, paginated', async () => {
    for (const name of ['Work', 'Home', 'Garden']) await todoist.api.addProject({ name });
    const first = await todoist.api.getProjects({ limit: 2 });
    expect(first.results.map((project) => project.name)).toEqual(['Inbox', 'Work']);
    expect(first.results[0]).toMatchObject({
      id: todoist.user.inboxProjectId,
      inboxProject: true,
      parentId: null,
    });
    const second = await todoist.api.getProjects({ limit: 2, cursor: first.nextCursor });
    expect(second.results.map((project) => project.name)).toEqual(['Home', 'Garden']);
    expect(second.nextCursor).toBeNull();
    expect((await rejection(todoist.api.getProjects({ limit: 201 }))).httpStatusCode).toBe(400);
  });

  it('gets one project, and 404 NOT_FOUND for an unknown or foreign one', async () => {
    const work = await todoist.api.addProject({ name: 'Work' });
    expect(await todoist.api.getProject(work.id)).toEqual(work);
    const unknown = await rejection(todoist.api.getProject('6nosuchproject00'));
    expect(unknown.httpStatusCode).toBe(404);
    expect(unknown.responseData).toMatchObject({ error_tag: 'NOT_FOUND', error: 'Project not found' });
    const other = await seedUser(todoist.origin, { email: 'grace@example.com' });
    const foreign = await rejection(sdk(todoist.origin, other.accessToken ?? '').getProject(work.id));
    expect(foreign.httpStatusCode).toBe(404);
  });
});

describe('create and update', () => {
  it('creates a project with every field addProject sends, and a sub-project', async () => {
    const work = await todoist.api.addProject({
      name: 'Work',
      color: 'blue',
      isFavorite: true,
      viewStyle: 'board',
      description: 'Paid things',
    });
    expect(work).toMatchObject({
      name: 'Work',
      color: 'blue',
      isFavorite: true,
      viewStyle: 'board',
      description: 'Paid things',
      parentId: null,
      isArchived: false,
      isDeleted: false,
      inboxProject: false,
      url: expect.stringContaining(work.id),
    });
    const meetings = await todoist.api.addProject({ name: 'Meetings', parentId: work.id });
    expect(meetings).toMatchObject({
      parentId: work.id,
      color: 'charcoal',
      viewStyle: 'list',
      childOrder: 1,
    });
    const oneOnOnes = await todoist.api.addProject({ name: '1:1s', parentId: work.id });
    expect(oneOnOnes.childOrder).toBe(2);
  });

  it('refuses a sub-project of the Inbox or of an unknown project, and unknown colours', async () => {
    const underInbox = await rejection(
      todoist.api.addProject({ name: 'Nested', parentId: todoist.user.inboxProjectId }),
    );
    expect(underInbox.httpStatusCode).toBe(400);
    expect(underInbox.responseData?.error_extra).toMatchObject({ argument: 'parent_id' });
    expect(
      (await rejection(todoist.api.addProject({ name: 'Lost', parentId: '6nosuchproject00' })))
        .httpStatusCode,
    ).toBe(404);
    const colour = await rejection(todoist.api.addProject({ name: 'Odd', color: 'puce' as 'red' }));
    expect(colour.responseData).toMatchObject({
      error_tag: 'INVALID_ARGUMENT_VALUE',
      error_extra: { argument: 'color' },
    });
  });

  it('creates once per X-Request-Id', async () => {
    const first = await todoist.api.addProject({ name: 'Once' }, 'request-1');
    const again = await todoist.api.addProject({ name: 'Once' }, 'request-1');
    expect(again.id).toBe(first.id);
    expect(
      (await todoist.api.getProjects()).results.filter((project) => project.name === 'Once'),
    ).toHaveLength(1);
  });

  it('updates name, colour, favourite, view style and description', async () => {
    const work = await todoist.api.addProject({ name: 'Work' });
    const updated = await todoist.api.updateProject(work.id, {
      name: 'Job',
      color: 'red',
      isFavorite: true,
      viewStyle: 'calendar',
      description: 'Paid',
    });
    expect(updated).toMatchObject({
      id: work.id,
      name: 'Job',
      color: 'red',
      isFavorite: true,
      viewStyle: 'calendar',
      description: 'Paid',
    });
    expect(await todoist.api.getProject(work.id)).toEqual(updated);
    expect(
      (await rejection(todoist.api.updateProject('6nosuchproject00', { name: 'x' }))).httpStatusCode,
    ).toBe(404);
  });
});

describe('archive and unarchive', () => {
  it('archives a project with its sub-projects; their tasks leave the active lists', async () => {
    const { work, meetings, report, standup } = await workTree();
    const archived = await todoist.api.archiveProject(work.id);
    expect(archived).toMatchObject({ id: work.id, isArchived: true });
    expect((await todoist.api.getProjects()).results.map((project) => project.name)).toEqual(['Inbox']);
    const list = await todoist.api.getArchivedProjects();
    expect(list.results.map((project) => [project.name, project.isArchived])).toEqual([
      ['Work', true],
      ['Meetings', true],
    ]);
    expect(list.nextCursor).toBeNull();
    expect((await todoist.api.getTasks()).results).toEqual([]);
    // Archived, not gone: the project and its tasks are still there by id.
    expect((await todoist.api.getProject(meetings.id)).isArchived).toBe(true);
    expect((await todoist.api.getTask(report.id)).projectId).toBe(work.id);
    expect((await todoist.api.getTask(standup.id)).isDeleted).toBe(false);
  });

  it('unarchives a project alone; under an archived parent it becomes the last root project', async () => {
    const { work, meetings, standup } = await workTree();
    await todoist.api.addProject({ name: 'Home' });
    await todoist.api.archiveProject(work.id);
    const restored = await todoist.api.unarchiveProject(meetings.id);
    expect(restored).toMatchObject({ isArchived: false, parentId: null });
    expect((await todoist.api.getProjects()).results.map((project) => project.name)).toEqual([
      'Inbox',
      'Home',
      'Meetings',
    ]);
    expect((await todoist.api.getTasks()).results.map((task) => task.id)).toEqual([standup.id]);
    expect((await todoist.api.getProject(work.id)).isArchived).toBe(true);
    const parent = await todoist.api.unarchiveProject(work.id);
    expect(parent).toMatchObject({ isArchived: false, parentId: null });
    expect((await todoist.api.getArchivedProjects()).results).toEqual([]);
  });

  it('refuses to archive or delete the Inbox', async () => {
    const archive = await rejection(todoist.api.archiveProject(todoist.user.inboxProjectId));
    expect(archive.httpStatusCode).toBe(400);
    expect(archive.responseData).toMatchObject({
      error_tag: 'INVALID_ARGUMENT_VALUE',
      http_code: 400,
      error_extra: { argument: 'project_id', explanation: 'The Inbox project cannot be archived' },
    });
    const remove = await rejection(todoist.api.deleteProject(todoist.user.inboxProjectId));
    expect(remove.httpStatusCode).toBe(400);
    expect(remove.responseData?.error_extra).toMatchObject({
      explanation: 'The Inbox project cannot be deleted',
    });
    expect((await todoist.api.getProject(todoist.user.inboxProjectId)).isArchived).toBe(false);
  });
});

describe('delete', () => {
  it('deletes a project with its sub-projects and their tasks', async () => {
    const { work, meetings, report, standup } = await workTree();
    const done = await todoist.api.addTask({ content: 'Done', projectId: meetings.id });
    await todoist.api.closeTask(done.id);
    const home = await todoist.api.addTask({ content: 'Dishes' });
    expect(await todoist.api.deleteProject(work.id)).toBe(true);
    for (const id of [work.id, meetings.id]) {
      expect((await rejection(todoist.api.getProject(id))).httpStatusCode).toBe(404);
    }
    for (const id of [report.id, standup.id, done.id]) {
      expect((await rejection(todoist.api.getTask(id))).httpStatusCode).toBe(404);
    }
    expect((await todoist.api.getTasks()).results.map((task) => task.id)).toEqual([home.id]);
    expect((await todoist.api.getProjects()).results.map((project) => project.name)).toEqual(['Inbox']);
    expect((await rejection(todoist.api.deleteProject(work.id))).httpStatusCode).toBe(404);
  });

  it('needs the project:delete scope (data:delete covers tasks and labels only)', async () => {
    const limited = await seedUser(todoist.origin, {
      email: 'grace@example.com',
      scopes: ['data:read_write', 'data:delete'],
    });
    const client = sdk(todoist.origin, limited.accessToken ?? '');
    const project = await client.addProject({ name: 'Keep' });
    const failure = await rejection(client.deleteProject(project.id));
    expect(failure.httpStatusCode).toBe(403);
    expect(failure.responseData?.error_tag).toBe('AUTH_INSUFFICIENT_TOKEN_SCOPE');
    expect((await client.getProject(project.id)).name).toBe('Keep');
  });
});

describe('moving tasks', () => {
  it('moveTask moves a task (with its subtasks) to a project, and under another task', async () => {
    const work = await todoist.api.addProject({ name: 'Work' });
    const parent = await todoist.api.addTask({ content: 'Parent' });
    const child = await todoist.api.addTask({ content: 'Child', parentId: parent.id });
    const moved = await todoist.api.moveTask(parent.id, { projectId: work.id });
    expect(moved).toMatchObject({ id: parent.id, projectId: work.id, parentId: null });
    expect(await todoist.api.getTask(child.id)).toMatchObject({ projectId: work.id, parentId: parent.id });
    const other = await todoist.api.addTask({ content: 'Other' });
    expect(await todoist.api.moveTask(other.id, { parentId: parent.id })).toMatchObject({
      parentId: parent.id,
      projectId: work.id,
    });
    expect((await todoist.api.getTasks({ projectId: work.id })).results).toHaveLength(3);
    expect(
      (await rejection(todoist.api.moveTask(other.id, { projectId: '6nosuchproject00' }))).httpStatusCode,
    ).toBe(404);
  });

  it('moveTask takes exactly one target', async () => {
    const task = await todoist.api.addTask({ content: 'Task' });
    const response = await fetch(`${todoist.origin}/api/v1/tasks/${task.id}/move`, {
      method: 'POST',
      headers: { authorization: `Bearer ${todoist.user.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: todoist.user.inboxProjectId, parent_id: task.id }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
  });

  it('moveTasks moves several tasks with Sync item_move commands', async () => {
    const work = await todoist.api.addProject({ name: 'Work' });
    const first = await todoist.api.addTask({ content: 'First' });
    const second = await todoist.api.addTask({ content: 'Second' });
    const moved = await todoist.api.moveTasks([first.id, second.id], { projectId: work.id });
    expect(moved.map((task) => [task.content, task.projectId])).toEqual([
      ['First', work.id],
      ['Second', work.id],
    ]);
  });
});
