export { sessions } from './sessions.table.ts';
export { stripeEvents } from './stripe-events.table.ts';
export { users } from './users.table.ts';
