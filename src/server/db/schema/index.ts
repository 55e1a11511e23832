export { sessions } from './sessions.table.ts';
export { users } from './users.table.ts';
