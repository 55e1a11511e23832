import { describe, expect, it } from 'vitest';
import { syncSettings } from '#server/test/sync-settings.fixture.ts';
import { PROJECT_TREE } from '#shared/settings/project-scope.fixture.ts';
import type { SyncSettings } from '../sync-settings.ts';
import { changeEffect } from './change-effect.ts';
import { appearanceHash } from './event-write.ts';
import type { PlanInput } from './link-plan.ts';
import { calendarEvent, planInput, syncLink, taskSnapshot } from './plan.fixture.ts';
import { DEFAULT_BRAKE } from './removal-brake.ts';
import { planSync } from './sync-planner.ts';
import { scopeHash, withProjects } from './sync-scope.ts';

const NOW = new Date('2026-07-15T06:00:00Z'); // 08:00 in Berlin

const chosen = (...ids: string[]) => ({
  mode: 'chosen' as const,
  projects: ids.map((id) => ({ id, name: id })),
});
const allProjects = syncSettings({ projects: PROJECT_TREE });
const workOnly = syncSettings({ projects: PROJECT_TREE, projectScope: chosen('work') });

const plan = (settings: SyncSettings, input: Partial<PlanInput>) => planSync(planInput(settings, NOW, input));
const link = (settings: SyncSettings) => syncLink({ appearanceHash: appearanceHash(settings) });

describe('projects that sync', () => {
  it('gives tasks of a chosen project and of its sub-projects their events, and no others', () => {
    const plans = plan(workOnly, {
      tasks: [
        taskSnapshot({ id: 'a', projectId: 'work' }),
        taskSnapshot({ id: 'b', projectId: 'clients' }),
        taskSnapshot({ id: 'c', projectId: 'home' }),
        taskSnapshot({ id: 'd', projectId: 'inbox' }),
      ],
    });
    expect(plans.map((entry) => entry.next?.taskId)).toEqual(['a', 'b']);
  });

  it('removes the event of a task moved out of the projects that sync, like a label removed', () => {
    const [only] = plan(workOnly, {
      links: [link(workOnly)],
      tasks: [taskSnapshot({ projectId: 'home', updatedAt: '2026-07-15T05:30:00Z' })],
      events: [calendarEvent()],
    });
    expect(only?.events).toEqual([{ action: 'remove', eventId: 'e1' }]);
    expect(only?.activity).toEqual([
      { direction: 'todoist-to-calendar', action: 'deleted', detail: 'out-of-scope' },
    ]);
  });

  it('keeps the event of a linked task moved between two projects that sync', () => {
    const plans = plan(allProjects, {
      links: [link(allProjects)],
      tasks: [taskSnapshot({ projectId: 'home' })],
      events: [calendarEvent()],
    });
    expect(plans.flatMap((entry) => entry.events)).toEqual([]);
  });

  it('judges a task whose project is not known (a task known only by id) as in scope', () => {
    const plans = plan(workOnly, { tasks: [taskSnapshot({ projectId: null })] });
    expect(plans).toHaveLength(1);
  });
});

describe('new tasks from events', () => {
  const newTask = (settings: SyncSettings) => {
    const [only] = plan(settings, { events: [calendarEvent({ id: 'e9' })] });
    return only?.task;
  };

  it('go to the project chosen for them', () => {
    expect(newTask(withProjects(allProjects, { eventProjectId: 'home' }))).toMatchObject({
      action: 'create',
      projectId: 'home',
    });
  });

  it('go to the first project that syncs when the Inbox does not', () => {
    expect(newTask(workOnly)).toMatchObject({ action: 'create', projectId: 'work' });
  });

  it('are not made when none of the account’s projects syncs any more', () => {
    const nothing = syncSettings({ projects: PROJECT_TREE, projectScope: chosen('gone') });
    expect(newTask(nothing)).toBeUndefined();
  });

  it('leave the project to Todoist (the Inbox) while no project list is known', () => {
    expect(newTask(syncSettings())).toEqual(expect.not.objectContaining({ projectId: expect.anything() }));
  });
});

describe('choosing projects', () => {
  it('changes the scope fingerprint, so a run reads both sides again', () => {
    expect(scopeHash(workOnly)).not.toBe(scopeHash(allProjects));
  });

  it('changes the fingerprint when a project leaves the list while every project syncs', () => {
    // The dashboard's refresh may store the list without Home before any run read the archive.
    const homeArchived = withProjects(allProjects, {
      projects: PROJECT_TREE.filter((entry) => entry.id !== 'home'),
    });
    expect(scopeHash(homeArchived)).not.toBe(scopeHash(allProjects));
    expect(scopeHash(withProjects(allProjects, { projects: [...PROJECT_TREE] }))).toBe(
      scopeHash(allProjects),
    );
  });

  it('is previewed: the events of tasks in projects no longer chosen are counted as removed', () => {
    const input = planInput(allProjects, NOW, {
      links: [link(allProjects)],
      tasks: [taskSnapshot({ projectId: 'home' })],
      events: [calendarEvent()],
    });
    const preview = changeEffect(
      input,
      { kind: 'projects', mode: 'chosen', projectIds: ['work'] },
      DEFAULT_BRAKE,
    );
    expect(preview).toMatchObject({ eventsRemoved: 1, tasksKept: 1, eventsCreated: 0 });
  });
});
