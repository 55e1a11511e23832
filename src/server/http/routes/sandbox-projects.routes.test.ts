import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { signInThroughEmulator } from '#server/test/sign-in.ts';
import { createTestApp, sameOrigin } from '#server/test/test-app.ts';
import type { SandboxTodoist } from '#shared/api/sandbox.schema.ts';

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('sandbox console: Todoist projects', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  /** Each test has its own Todoist account, so that none sees another's projects. */
  const account = (name: string) => {
    const email = `${name}@example.com`;
    // The console works on the signed-in user's own accounts: this one signs in with that address.
    let session: Promise<Record<string, string>> | undefined;
    const cookies = () => {
      session ??= signInThroughEmulator(app.server, 'google', { email, name: 'Project Owner' }).then(
        ({ sessionCookie }) => ({ sid: sessionCookie?.value ?? '' }),
      );
      return session;
    };
    const send = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      app.server.inject({ method, url, payload, headers: sameOrigin, cookies: await cookies() });
    const read = async (): Promise<SandboxTodoist> => {
      const response = await app.server.inject({
        url: `/api/sandbox/todoist?${q({ email })}`,
        cookies: await cookies(),
      });
      expect(response.statusCode).toBe(200);
      return response.json();
    };
    const projectNamed = async (projectName: string) => {
      const project = (await read()).projects.find((entry) => entry.name === projectName);
      if (!project) throw new Error(`no active project named ${projectName}`);
      return project;
    };
    const addProject = async (projectName: string, parentId?: string) => {
      const added = await send('POST', '/api/sandbox/todoist/projects', {
        email,
        name: projectName,
        parentId,
      });
      expect(added.statusCode).toBe(200);
      return projectNamed(projectName);
    };
    const addTask = async (content: string, projectId?: string) => {
      expect(
        (await send('POST', '/api/sandbox/todoist/tasks', { email, content, projectId })).statusCode,
      ).toBe(200);
      const task = (await read()).tasks.find((entry) => entry.content === content);
      if (!task) throw new Error(`no open task named ${content}`);
      return task;
    };
    const projectCall = (id: string, action: 'archive' | 'unarchive') =>
      send('POST', `/api/sandbox/todoist/projects/${id}/${action}`, { email });
    return { email, send, read, projectNamed, addProject, addTask, projectCall };
  };

  it('lists the Inbox, then each project with its sub-projects under it, and nothing archived', async () => {
    const { read, addProject } = account('project-tree');
    const work = await addProject('Work');
    await addProject('Home');
    const reports = await addProject('Reports', work.id);
    const { projects, archivedProjects } = await read();
    expect(projects).toEqual([
      { id: expect.any(String), name: 'Inbox', parentId: null, inbox: true },
      { id: work.id, name: 'Work', parentId: null, inbox: false },
      { id: reports.id, name: 'Reports', parentId: work.id, inbox: false },
      { id: expect.any(String), name: 'Home', parentId: null, inbox: false },
    ]);
    expect(archivedProjects).toEqual([]);
  });

  it('adds a task into a project, and an edit naming another project moves it there', async () => {
    const { email, send, read, addProject, addTask } = account('project-mover');
    const inbox = (await read()).projects.find((project) => project.inbox);
    const work = await addProject('Work');

    expect((await addTask('Anywhere')).projectId).toBe(inbox?.id);
    const task = await addTask('Write the report', work.id);
    expect(task.projectId).toBe(work.id);

    const moved = await send('PATCH', `/api/sandbox/todoist/tasks/${task.id}`, {
      email,
      content: 'Write the final report',
      labels: ['Focus'],
      projectId: inbox?.id,
    });
    expect(moved.statusCode).toBe(200);
    expect((await read()).tasks.find((entry) => entry.id === task.id)).toMatchObject({
      content: 'Write the final report',
      labels: ['Focus'],
      projectId: inbox?.id,
    });

    // An edit without a project, or naming the task's own, leaves it where it is.
    await send('PATCH', `/api/sandbox/todoist/tasks/${task.id}`, { email, content: 'Unmoved' });
    await send('PATCH', `/api/sandbox/todoist/tasks/${task.id}`, {
      email,
      content: 'Unmoved',
      projectId: inbox?.id,
    });
    expect((await read()).tasks.find((entry) => entry.id === task.id)?.projectId).toBe(inbox?.id);
  });

  it('archives a project out of the active list, with its task, and unarchives it back', async () => {
    const { read, addProject, addTask, projectCall } = account('project-archiver');
    const errands = await addProject('Errands');
    const task = await addTask('Buy stamps', errands.id);

    expect((await projectCall(errands.id, 'archive')).statusCode).toBe(200);
    const archived = await read();
    expect(archived.projects.map((project) => project.name)).toEqual(['Inbox']);
    expect(archived.archivedProjects).toEqual([{ id: errands.id, name: 'Errands' }]);
    expect(archived.tasks).toEqual([]);

    expect((await projectCall(errands.id, 'unarchive')).statusCode).toBe(200);
    const back = await read();
    expect(back.projects.map((project) => project.name)).toEqual(['Inbox', 'Errands']);
    expect(back.archivedProjects).toEqual([]);
    expect(back.tasks).toEqual([expect.objectContaining({ id: task.id, projectId: errands.id })]);
  });

  it('refuses to archive or delete the Inbox, saying why', async () => {
    const { email, send, read, projectCall } = account('inbox-keeper');
    const inbox = (await read()).projects.find((project) => project.inbox);
    if (!inbox) throw new Error('every account has an Inbox');

    const archive = await projectCall(inbox.id, 'archive');
    expect(archive.statusCode).toBe(409);
    expect(archive.json().message).toBe('The Inbox cannot be archived: every Todoist account keeps it');
    const deleted = await send('DELETE', `/api/sandbox/todoist/projects/${inbox.id}?${q({ email })}`);
    expect(deleted.statusCode).toBe(409);
    expect(deleted.json().message).toBe('The Inbox cannot be deleted: every Todoist account keeps it');
    expect((await read()).projects).toEqual([inbox]);
  });

  it('renames a project, and deletes it with its sub-projects and their tasks', async () => {
    const { email, send, read, projectNamed, addProject, addTask } = account('project-remover');
    const garden = await addProject('Garden');
    const beds = await addProject('Beds', garden.id);
    await addTask('Water the beds', beds.id);
    await addTask('Stays in the Inbox');

    const renamed = await send('PATCH', `/api/sandbox/todoist/projects/${garden.id}`, {
      email,
      name: ' Allotment ',
    });
    expect(renamed.statusCode).toBe(200);
    expect(await projectNamed('Allotment')).toEqual({ ...garden, name: 'Allotment' });

    const deleted = await send('DELETE', `/api/sandbox/todoist/projects/${garden.id}?${q({ email })}`);
    expect(deleted.statusCode).toBe(200);
    const after = await read();
    expect(after.projects.map((project) => project.name)).toEqual(['Inbox']);
    expect(after.tasks.map((task) => task.content)).toEqual(['Stays in the Inbox']);
  });

  it('answers what Todoist refuses with the field or the project it is about', async () => {
    const { email, send, read, addProject, projectCall } = account('project-refusals');
    const old = await addProject('Old');
    await projectCall(old.id, 'archive');

    const underArchived = await send('POST', '/api/sandbox/todoist/projects', {
      email,
      name: 'Child',
      parentId: old.id,
    });
    expect(underArchived.statusCode).toBe(400);
    expect(underArchived.json().issues).toEqual([
      { field: 'parentId', message: 'The parent project is archived' },
    ]);

    const unknown = await projectCall('no-such-project', 'archive');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('That project is not in this Todoist account (any more)');
    const intoUnknown = await send('POST', '/api/sandbox/todoist/tasks', {
      email,
      content: 'Lost',
      projectId: 'no-such-project',
    });
    expect(intoUnknown.statusCode).toBe(404);

    const blank = await send('POST', '/api/sandbox/todoist/projects', { email, name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().issues[0]).toMatchObject({ field: 'name', message: 'Please enter a project name' });
    const { projects, tasks } = await read();
    expect(projects.map((project) => project.name)).toEqual(['Inbox']);
    expect(tasks).toEqual([]);
  });
});
