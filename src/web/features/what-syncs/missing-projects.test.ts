import { describe, expect, it } from 'vitest';
import { todoistProject } from '#shared/settings/project-scope.fixture.ts';
import { missingProjectsText } from './missing-projects.ts';

const PROJECTS = [
  todoistProject('inbox', { name: 'Inbox', inbox: true }),
  todoistProject('work', { name: 'Work' }),
];

const todo = (projectIds: string[], missing: { id: string; name: string }[]) => ({
  projects: PROJECTS,
  projectScope: { mode: 'chosen' as const, projectIds, missing },
});

describe('missingProjectsText', () => {
  it('says nothing while every chosen project is there', () => {
    expect(missingProjectsText(todo(['work'], []))).toBeNull();
    expect(
      missingProjectsText({ projects: PROJECTS, projectScope: { mode: 'all', projectIds: [], missing: [] } }),
    ).toBeNull();
  });

  it('names one missing project in the singular', () => {
    expect(missingProjectsText(todo(['work', 'old'], [{ id: 'old', name: 'Old plans' }]))).toBe(
      '“Old plans” was archived or deleted in Todoist: its tasks no longer sync.',
    );
  });

  it('names several in the plural', () => {
    const missing = [
      { id: 'a', name: 'Old plans' },
      { id: 'b', name: 'Side jobs' },
      { id: 'c', name: 'Garden' },
    ];
    expect(missingProjectsText(todo(['work', 'a', 'b', 'c'], missing))).toBe(
      '“Old plans”, “Side jobs”, and “Garden” were archived or deleted in Todoist: their tasks no longer sync.',
    );
  });

  it('says that nothing syncs when no chosen project is left', () => {
    expect(missingProjectsText(todo(['old'], [{ id: 'old', name: 'Old plans' }]))).toBe(
      '“Old plans” was archived or deleted in Todoist: its tasks no longer sync. No project you chose is left, so nothing syncs until you choose again.',
    );
  });
});
