import { describe, expect, it } from 'vitest';
import { PROJECT_TREE, todoistProject } from '#shared/settings/project-scope.fixture.ts';
import {
  draftOf,
  draftStatus,
  type ProjectDraft,
  projectRows,
  scopeChangeTitle,
  scopeOf,
  toggleProject,
} from './project-draft.ts';

const chosen = (...ids: string[]): ProjectDraft => ({ mode: 'chosen', chosen: ids });

describe('projectRows', () => {
  it('lists every project in tree order, indented by depth, nothing ticked for no choice', () => {
    expect(projectRows(PROJECT_TREE, []).map((row) => `${row.depth}:${row.name}:${row.checked}`)).toEqual([
      '0:Inbox:false',
      '0:Work:false',
      '1:Clients:false',
      '2:Acme:false',
      '0:Home:false',
    ]);
  });

  it('carries each project’s Todoist colour for its dot', () => {
    const rows = projectRows([todoistProject('work', { name: 'Work', color: 'berry_red' })], []);
    expect(rows.map((row) => row.color)).toEqual(['berry_red']);
  });

  it('shows the sub-projects of a chosen project ticked and included with the nearest chosen ancestor', () => {
    const rows = projectRows(PROJECT_TREE, ['work']);
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(byId.work).toMatchObject({ checked: true, includedWith: null });
    expect(byId.clients).toMatchObject({ checked: true, includedWith: 'Work' });
    expect(byId.acme).toMatchObject({ checked: true, includedWith: 'Work' });
    expect(byId.home).toMatchObject({ checked: false, includedWith: null });
    // Clients chosen too: Acme is included with Clients, the nearer one; Clients itself with Work.
    const both = Object.fromEntries(
      projectRows(PROJECT_TREE, ['work', 'clients']).map((row) => [row.id, row]),
    );
    expect(both.acme?.includedWith).toBe('Clients');
    expect(both.clients?.includedWith).toBe('Work');
  });
});

describe('toggleProject', () => {
  it('ticks and unticks one project, leaving the others', () => {
    const ticked = toggleProject(chosen('home'), 'work');
    expect(ticked.chosen).toEqual(['home', 'work']);
    expect(toggleProject(ticked, 'home').chosen).toEqual(['work']);
    expect(toggleProject(ticked, 'home').mode).toBe('chosen');
  });
});

describe('scopeOf', () => {
  it('sends no ids for all projects, whatever was ticked before', () => {
    expect(scopeOf({ mode: 'all', chosen: ['work'] }, PROJECT_TREE)).toEqual({ mode: 'all', projectIds: [] });
  });

  it('sends the chosen projects in tree order, without those included with a chosen ancestor or gone', () => {
    expect(scopeOf(chosen('home', 'acme', 'work', 'archived'), PROJECT_TREE)).toEqual({
      mode: 'chosen',
      projectIds: ['work', 'home'],
    });
  });
});

describe('draftStatus', () => {
  const saved = { mode: 'chosen' as const, projectIds: ['work'] };

  it('is unchanged for the saved choice, so Save is off', () => {
    expect(draftStatus(draftOf(saved), saved, PROJECT_TREE)).toMatchObject({
      changed: false,
      edited: false,
      canSave: false,
    });
    const all = { mode: 'all' as const, projectIds: [] };
    expect(draftStatus(draftOf(all), all, PROJECT_TREE)).toMatchObject({ changed: false, canSave: false });
  });

  it('is changed by another tick or mode, and can be saved', () => {
    expect(draftStatus(chosen('work', 'home'), saved, PROJECT_TREE)).toMatchObject({
      changed: true,
      edited: true,
      canSave: true,
    });
    expect(draftStatus({ mode: 'all', chosen: ['work'] }, saved, PROJECT_TREE)).toMatchObject({
      changed: true,
      edited: true,
      canSave: true,
    });
  });

  it('ticking a sub-project of a chosen one changes nothing', () => {
    expect(draftStatus(chosen('work', 'acme'), saved, PROJECT_TREE).changed).toBe(false);
  });

  it('cannot save an empty choice', () => {
    expect(draftStatus(chosen(), saved, PROJECT_TREE)).toMatchObject({
      changed: true,
      empty: true,
      canSave: false,
    });
  });

  it('offers Save when a saved project is gone from Todoist, so the choice can be made again', () => {
    const withGone = { mode: 'chosen' as const, projectIds: ['work', 'gone'] };
    const status = draftStatus(draftOf(withGone), withGone, PROJECT_TREE);
    // Save is offered, but there is nothing to undo: the form shows what is left of the saved choice.
    expect(status).toMatchObject({ changed: true, edited: false, canSave: true });
    expect(status.scope.projectIds).toEqual(['work']);
    // Only gone projects were chosen: nothing is left to save until the user ticks one.
    const allGone = { mode: 'chosen' as const, projectIds: ['gone'] };
    expect(draftStatus(draftOf(allGone), allGone, PROJECT_TREE)).toMatchObject({
      empty: true,
      canSave: false,
    });
  });
});

describe('scopeChangeTitle', () => {
  it('names the one project, counts several, and says all for all', () => {
    expect(scopeChangeTitle({ mode: 'chosen', projectIds: ['work'] }, PROJECT_TREE)).toBe(
      'Sync only “Work”?',
    );
    expect(scopeChangeTitle({ mode: 'chosen', projectIds: ['work', 'home'] }, PROJECT_TREE)).toBe(
      'Sync only these 2 projects?',
    );
    expect(scopeChangeTitle({ mode: 'all', projectIds: [] }, PROJECT_TREE)).toBe('Sync all projects?');
  });
});
