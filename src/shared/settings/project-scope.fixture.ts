import type { TodoistProject } from './project-scope.ts';

/** A Todoist project for the tests: at the root, not the Inbox, named as its id unless `fields` say otherwise. */
export const todoistProject = (id: string, fields: Partial<TodoistProject> = {}): TodoistProject => ({
  id,
  name: id,
  color: 'grey',
  parentId: null,
  inbox: false,
  order: 1,
  ...fields,
});

/**
 * Inbox; Work (with Clients, which has Acme); Home: the ids are the names in lower case. Listed out of
 * order, as a careless answer could be, so that whatever shows them has to sort them into the tree.
 */
export const PROJECT_TREE: TodoistProject[] = [
  todoistProject('home', { name: 'Home', order: 3 }),
  todoistProject('acme', { name: 'Acme', parentId: 'clients', order: 1 }),
  todoistProject('work', { name: 'Work', order: 2 }),
  todoistProject('inbox', { name: 'Inbox', inbox: true, order: 0 }),
  todoistProject('clients', { name: 'Clients', parentId: 'work', order: 1 }),
];
