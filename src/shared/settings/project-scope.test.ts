import { describe, expect, it } from 'vitest';
import { PROJECT_TREE, todoistProject } from './project-scope.fixture.ts';
import {
  missingProjects,
  projectForNewTasks,
  projectScopeSchema,
  projectsInScope,
  projectTree,
  renamedChoice,
} from './project-scope.ts';

describe('projectTree', () => {
  it('lists the Inbox first, then each parent followed by its sub-projects, by order', () => {
    expect(projectTree(PROJECT_TREE).map(({ project: entry, depth }) => `${depth}:${entry.id}`)).toEqual([
      '0:inbox',
      '0:work',
      '1:clients',
      '2:acme',
      '0:home',
    ]);
  });

  it('shows a project whose parent is not listed at the root', () => {
    const tree = projectTree([todoistProject('orphan', { parentId: 'archived' })]);
    expect(tree).toEqual([{ project: expect.objectContaining({ id: 'orphan' }), depth: 0 }]);
  });
});

describe('projectsInScope', () => {
  it('is every project while all sync', () => {
    expect(projectsInScope(PROJECT_TREE, { mode: 'all', projectIds: [] })).toEqual(
      new Set(['home', 'acme', 'work', 'inbox', 'clients']),
    );
  });

  it('takes a chosen project with all its sub-projects, and nothing above it', () => {
    expect(projectsInScope(PROJECT_TREE, { mode: 'chosen', projectIds: ['clients'] })).toEqual(
      new Set(['clients', 'acme']),
    );
    expect(projectsInScope(PROJECT_TREE, { mode: 'chosen', projectIds: ['work', 'home'] })).toEqual(
      new Set(['work', 'clients', 'acme', 'home']),
    );
  });

  it('leaves out chosen projects the account no longer lists', () => {
    expect(projectsInScope(PROJECT_TREE, { mode: 'chosen', projectIds: ['gone'] })).toEqual(new Set());
  });

  it('is null (nothing left out) while no project list is known', () => {
    expect(projectsInScope([], { mode: 'chosen', projectIds: ['work'] })).toBeNull();
  });
});

describe('missingProjects', () => {
  it('names the chosen projects Todoist no longer lists', () => {
    const scope = {
      mode: 'chosen' as const,
      projects: [
        { id: 'work', name: 'Work' },
        { id: 'gone', name: 'Old plans' },
      ],
    };
    expect(missingProjects(PROJECT_TREE, scope)).toEqual([{ id: 'gone', name: 'Old plans' }]);
    expect(missingProjects(PROJECT_TREE, { ...scope, mode: 'all' })).toEqual([]);
    expect(missingProjects([], scope)).toEqual([]);
  });
});

describe('projectForNewTasks', () => {
  const all = projectsInScope(PROJECT_TREE, { mode: 'all', projectIds: [] });
  const workOnly = projectsInScope(PROJECT_TREE, { mode: 'chosen', projectIds: ['work'] });

  it('is the project the user named while it syncs', () => {
    expect(projectForNewTasks(PROJECT_TREE, all, 'home')).toBe('home');
    expect(projectForNewTasks(PROJECT_TREE, workOnly, 'acme')).toBe('acme');
  });

  it('falls back to the Inbox, then to the first project that syncs', () => {
    expect(projectForNewTasks(PROJECT_TREE, all, null)).toBe('inbox');
    expect(projectForNewTasks(PROJECT_TREE, all, 'gone')).toBe('inbox');
    expect(projectForNewTasks(PROJECT_TREE, workOnly, 'home')).toBe('work');
    expect(projectForNewTasks(PROJECT_TREE, workOnly, null)).toBe('work');
  });

  it('is undefined when no project syncs, and the named one while no list is known', () => {
    expect(projectForNewTasks(PROJECT_TREE, new Set(), null)).toBeUndefined();
    expect(projectForNewTasks([], null, 'home')).toBe('home');
    expect(projectForNewTasks([], null, null)).toBeNull();
  });
});

describe('projectScopeSchema', () => {
  it('needs at least one project when projects are chosen, each named once', () => {
    expect(projectScopeSchema.safeParse({ mode: 'all', projectIds: [] }).success).toBe(true);
    const none = projectScopeSchema.safeParse({ mode: 'chosen', projectIds: [] });
    expect(none.error?.issues[0]?.message).toBe('Choose at least one project.');
    const twice = projectScopeSchema.safeParse({ mode: 'chosen', projectIds: ['a', 'a'] });
    expect(twice.error?.issues[0]?.message).toBe('Name each project once.');
  });

  it('refuses ids that are not Todoist ids', () => {
    expect(projectScopeSchema.safeParse({ mode: 'chosen', projectIds: ['a,b'] }).success).toBe(false);
  });
});

describe('renamedChoice', () => {
  it('takes the current names of the chosen projects still listed, and keeps the others', () => {
    const scope = {
      mode: 'chosen' as const,
      projects: [
        { id: 'work', name: 'Job' },
        { id: 'gone', name: 'Old plans' },
      ],
    };
    expect(renamedChoice(scope, PROJECT_TREE)).toEqual({
      mode: 'chosen',
      projects: [
        { id: 'work', name: 'Work' },
        { id: 'gone', name: 'Old plans' },
      ],
    });
    expect(
      renamedChoice({ mode: 'chosen', projects: [{ id: 'work', name: 'Work' }] }, PROJECT_TREE),
    ).toBeNull();
  });
});
