import { describe, expect, it } from 'vitest';
import { PROJECT_TREE } from '#shared/settings/project-scope.fixture.ts';
import {
  effectiveEventProject,
  eventProjectNote,
  eventProjectOptions,
  noProjectSyncs,
  toEventProjectId,
} from './event-project.ts';

type Scope = { mode: 'all' | 'chosen'; projectIds: string[] };
const todo = (scope: Scope, eventProjectId: string | null = null, projects = PROJECT_TREE) => ({
  projects,
  projectScope: { ...scope, missing: [] },
  eventProjectId,
});
const ALL: Scope = { mode: 'all', projectIds: [] };

describe('eventProjectOptions', () => {
  it('offers every project for all projects, indented by depth', () => {
    expect(eventProjectOptions(todo(ALL)).map((option) => `${option.depth}:${option.label}`)).toEqual([
      '0:Inbox',
      '0:Work',
      '1:Clients',
      '2:Acme',
      '0:Home',
    ]);
  });

  it('offers only the projects that sync; a chosen sub-project is not indented under a parent not offered', () => {
    const options = eventProjectOptions(todo({ mode: 'chosen', projectIds: ['clients', 'home'] }));
    expect(options.map((option) => `${option.depth}:${option.value}`)).toEqual([
      '0:clients',
      '1:acme',
      '0:home',
    ]);
  });
});

describe('effectiveEventProject', () => {
  it('is the Inbox by default, and the named project while it syncs', () => {
    expect(effectiveEventProject(todo(ALL))).toBe('inbox');
    expect(effectiveEventProject(todo(ALL, 'home'))).toBe('home');
  });

  it('falls back to the Inbox, then to the first project that syncs', () => {
    expect(effectiveEventProject(todo({ mode: 'chosen', projectIds: ['inbox', 'work'] }, 'home'))).toBe(
      'inbox',
    );
    expect(effectiveEventProject(todo({ mode: 'chosen', projectIds: ['home', 'work'] }))).toBe('work');
  });

  it('is none when no project syncs or none is known', () => {
    const gone = todo({ mode: 'chosen', projectIds: ['gone'] });
    expect(effectiveEventProject(gone)).toBeNull();
    expect(noProjectSyncs(gone)).toBe(true);
    expect(noProjectSyncs(todo(ALL))).toBe(false);
    expect(effectiveEventProject(todo(ALL, null, []))).toBeNull();
  });
});

describe('toEventProjectId', () => {
  it('saves the Inbox as null (the default) and any other project by its id', () => {
    expect(toEventProjectId(todo(ALL), 'inbox')).toBeNull();
    expect(toEventProjectId(todo(ALL), 'clients')).toBe('clients');
  });
});

describe('eventProjectNote', () => {
  it('says nothing when new tasks go where the user said', () => {
    expect(eventProjectNote(todo(ALL))).toBeNull();
    expect(eventProjectNote(todo(ALL, 'home'))).toBeNull();
    expect(eventProjectNote(todo(ALL, null, []))).toBeNull();
  });

  it('says why when the chosen project or the Inbox does not sync', () => {
    expect(eventProjectNote(todo({ mode: 'chosen', projectIds: ['work'] }, 'home'))).toBe(
      '“Home” does not sync, so new tasks go to “Work”.',
    );
    expect(eventProjectNote(todo({ mode: 'chosen', projectIds: ['home'] }))).toBe(
      'Your Inbox does not sync, so new tasks go to “Home”.',
    );
    expect(eventProjectNote(todo(ALL, 'deleted'))).toBe(
      'The project you chose is no longer in Todoist, so new tasks go to “Inbox”.',
    );
  });

  it('says that no event becomes a task when no project syncs', () => {
    expect(eventProjectNote(todo({ mode: 'chosen', projectIds: ['gone'] }))).toBe(
      'No project you chose is left in Todoist, so no event becomes a task.',
    );
  });
});
