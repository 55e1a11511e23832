import { describe, expect, it } from 'vitest';
import type { TodoistProject } from '#shared/settings/project-scope.ts';
import type { ProjectSnapshot } from '../task-source.port.ts';
import { projectsAfterRead } from './project-changes.ts';

const stored = (id: string, order = 1): TodoistProject => ({
  id,
  name: id,
  color: 'grey',
  parentId: null,
  inbox: id === 'inbox',
  order,
});
const read = (id: string, fields: Partial<ProjectSnapshot> = {}): ProjectSnapshot => ({
  ...stored(id),
  isArchived: false,
  isDeleted: false,
  ...fields,
});

describe('projectsAfterRead', () => {
  it('takes a full read as the whole list, without archived or deleted projects', () => {
    const after = projectsAfterRead(
      [stored('old')],
      [read('inbox', { order: 0 }), read('work'), read('gone', { isDeleted: true })],
      true,
    );
    expect(after?.map((project) => project.id)).toEqual(['inbox', 'work']);
  });

  it('merges an incremental read: changed projects replace theirs, archived and deleted ones leave', () => {
    const before = [stored('inbox', 0), stored('work', 1), stored('home', 2)];
    const after = projectsAfterRead(
      before,
      [
        read('work', { name: 'Work (new name)' }),
        read('home', { isArchived: true }),
        read('new', { order: 3 }),
      ],
      false,
    );
    expect(after?.map((project) => [project.id, project.name])).toEqual([
      ['inbox', 'inbox'],
      ['work', 'Work (new name)'],
      ['new', 'new'],
    ]);
  });

  it('changes nothing on an incremental read without projects', () => {
    expect(projectsAfterRead([stored('inbox')], [], false)).toBeNull();
  });

  it('does not build a list from an incremental read while none is known (it names only what changed)', () => {
    expect(projectsAfterRead([], [read('work')], false)).toBeNull();
  });
});
