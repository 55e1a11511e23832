export { integrations } from './integrations.table.ts';
export { noticeMails } from './notices.table.ts';
export { sessions } from './sessions.table.ts';
export { calendarSettings, timeboxSettings, todoSettings } from './settings.tables.ts';
export { stripeEvents } from './stripe-events.table.ts';
export {
  providerAppBudgets,
  syncActivity,
  syncHints,
  syncLinks,
  syncProblems,
  syncRunLeases,
  syncStates,
} from './sync.tables.ts';
export { users } from './users.table.ts';
