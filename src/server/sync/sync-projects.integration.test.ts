import { describe, expect, it } from 'vitest';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { SYNCING_USERS, type SyncingUser, syncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';
import { sameOrigin } from '#server/test/test-app.ts';

/**
 * Which Todoist projects sync (docs/product-rules.md §10 "Projects"), against the emulators: a task
 * syncs while its project does; moved out, archived with its project or moved back, its event follows;
 * tasks made from events go to the project chosen for them.
 */

/** Work and Home made in the user's Todoist, read by the app as the dashboard's refresh does. */
async function withProjects(user: Pick<SyncingUser, 'todoist' | 'send'>) {
  const work = await user.todoist.addProject({ name: 'Work' });
  const home = await user.todoist.addProject({ name: 'Home' });
  const current = await user.send('GET', '/api/todoist/updateuserprofile');
  const listed = current.todoSettings.projects.map((project: { name: string }) => project.name);
  expect(listed).toEqual(['Inbox', 'Work', 'Home']);
  return { work: work.id, home: home.id };
}

for (const database of await testDatabases('project scope while syncing')) {
  describe.skipIf(!database.enabled)(`projects that sync (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });

    for (const [provider, syncingUserOn] of Object.entries(SYNCING_USERS)) {
      it(`syncs only the chosen projects; a task moved out loses its event, moved in gains one (${provider})`, async () => {
        const user = await syncingUserOn(app(), `projects-chosen-${provider}@example.com`);
        const { work, home } = await withProjects(user);
        const due = tomorrowAt(9);
        const plan = await user.todoist.addTask({
          content: 'Plan',
          labels: ['30min'],
          dueString: `${due.day} at 9:00`,
          projectId: work,
        });
        const paint = await user.todoist.addTask({
          content: 'Paint',
          labels: ['30min'],
          dueString: `${due.day} at 11:00`,
          projectId: home,
        });
        await user.run();
        expect(await user.eventTitles()).toEqual(['Paint', 'Plan']);

        const chosen = await user.send('PATCH', '/api/settings/projects', {
          mode: 'chosen',
          projectIds: [work],
        });
        expect(chosen.todoSettings.projectScope).toEqual({ mode: 'chosen', projectIds: [work], missing: [] });
        await user.run();
        expect(await user.eventTitles()).toEqual(['Plan']);

        await user.todoist.moveTask(paint.id, { projectId: work });
        await user.todoist.moveTask(plan.id, { projectId: home });
        await user.run();
        expect(await user.eventTitles()).toEqual(['Paint']);

        // Back to every project: the task in Home gets its event again; nothing is made twice.
        await user.send('PATCH', '/api/settings/projects', { mode: 'all', projectIds: [] });
        await user.run();
        await user.run();
        expect(await user.eventTitles()).toEqual(['Paint', 'Plan']);
      });

      it(`takes an archived project's tasks off the calendar and back when it is unarchived; a chosen one archived is named (${provider})`, async () => {
        const user = await syncingUserOn(app(), `projects-archive-${provider}@example.com`);
        const { work, home } = await withProjects(user);
        const due = tomorrowAt(9);
        await user.todoist.addTask({
          content: 'Paint',
          labels: ['30min'],
          dueString: `${due.day} at 11:00`,
          projectId: home,
        });
        await user.todoist.addTask({
          content: 'Plan',
          labels: ['30min'],
          dueString: `${due.day} at 9:00`,
          projectId: work,
        });
        await user.send('PATCH', '/api/settings/projects', { mode: 'chosen', projectIds: [home, work] });
        await user.run();
        expect(await user.eventTitles()).toEqual(['Paint', 'Plan']);

        await user.todoist.archiveProject(home);
        await user.run();
        expect(await user.eventTitles()).toEqual(['Plan']);
        const current = await user.send('GET', '/api/current_user');
        expect(current.todoSettings.projectScope.missing).toEqual([{ id: home, name: 'Home' }]);
        expect(current.todoSettings.projects.map((project: { id: string }) => project.id)).not.toContain(
          home,
        );
        // The choice can be saved again as it is (the archived project stays chosen and named).
        const again = await user.send('PATCH', '/api/settings/projects', {
          mode: 'chosen',
          projectIds: [home, work],
        });
        expect(again.todoSettings.projectScope.missing).toEqual([{ id: home, name: 'Home' }]);

        await user.todoist.unarchiveProject(home);
        await user.run();
        expect(await user.eventTitles()).toEqual(['Paint', 'Plan']);
        expect((await user.send('GET', '/api/current_user')).todoSettings.projectScope.missing).toEqual([]);
      });

      it(`judges an archived project's tasks again when the dashboard read the projects before any run (${provider})`, async () => {
        const user = await syncingUserOn(app(), `projects-refresh-${provider}@example.com`);
        const { work } = await withProjects(user);
        await user.todoist.addTask({
          content: 'Plan',
          labels: ['30min'],
          dueString: `${tomorrowAt(9).day} at 9:00`,
          projectId: work,
        });
        await user.run();
        expect(await user.eventTitles()).toEqual(['Plan']);

        // The dashboard's refresh stores the list without Work; the next run must still take its tasks out.
        await user.todoist.archiveProject(work);
        await user.send('GET', '/api/todoist/updateuserprofile');
        await user.run();
        expect(await user.eventTitles()).toEqual([]);

        await user.todoist.unarchiveProject(work);
        await user.send('GET', '/api/todoist/updateuserprofile');
        await user.run();
        expect(await user.eventTitles()).toEqual(['Plan']);
      });

      it(`puts a task made from an event into the project chosen for new tasks (${provider})`, async () => {
        const user = await syncingUserOn(app(), `projects-event-${provider}@example.com`);
        const { home } = await withProjects(user);
        const updated = await user.send('PATCH', '/api/settings/eventproject', { projectId: home });
        expect(updated.todoSettings.eventProjectId).toBe(home);
        await user.addEvent('Dentist', new Date(`${tomorrowAt(9).day}T13:00:00Z`));
        await user.run();
        const tasks = (await user.todoist.getTasks()).results;
        expect(tasks.map((task) => [task.content, task.projectId])).toEqual([['Dentist', home]]);
      });
    }

    it('refuses projects that are not the user’s, and an empty choice', async () => {
      const user = await syncingUser(app(), 'projects-refused@example.com');
      await withProjects(user);
      const send = (url: string, payload: Record<string, unknown>) =>
        app().server.inject({
          method: 'PATCH',
          url,
          cookies: user.cookies,
          headers: sameOrigin,
          payload,
        });
      const unknown = await send('/api/settings/projects', { mode: 'chosen', projectIds: ['not-mine'] });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.body).toContain('Please choose among your Todoist projects');
      const empty = await send('/api/settings/projects', { mode: 'chosen', projectIds: [] });
      expect(empty.statusCode).toBe(400);
      expect(empty.body).toContain('Choose at least one project.');
      const elsewhere = await send('/api/settings/eventproject', { projectId: 'not-mine' });
      expect(elsewhere.statusCode).toBe(400);
    });
  });
}
