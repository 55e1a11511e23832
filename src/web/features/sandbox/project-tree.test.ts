import { describe, expect, it } from 'vitest';
import { openTaskCount, projectOptions } from './project-tree.ts';

const project = (id: string, parentId: string | null = null) => ({ id, name: id, parentId, inbox: false });

describe('project tree', () => {
  it('indents each sub-project one level under its parent, in the list order', () => {
    const options = projectOptions([
      { ...project('Inbox'), inbox: true },
      project('Work'),
      project('Reports', 'Work'),
      project('Monthly', 'Reports'),
      project('Home'),
    ]);
    expect(options.map(({ label, depth }) => [label, depth])).toEqual([
      ['Inbox', 0],
      ['Work', 0],
      ['Reports', 1],
      ['Monthly', 2],
      ['Home', 0],
    ]);
  });

  it('puts a project whose parent is not listed at the top level', () => {
    expect(projectOptions([project('Orphan', 'gone')])).toEqual([
      { value: 'Orphan', label: 'Orphan', depth: 0 },
    ]);
  });

  it('counts open tasks in words', () => {
    expect([0, 1, 2].map(openTaskCount)).toEqual(['0 open tasks', '1 open task', '2 open tasks']);
  });
});
