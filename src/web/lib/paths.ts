import { contract } from '#shared/api/contract.ts';

/** Every route URL of the web app, in one place. */
export const paths = {
  root: '/',
  home: '/home',
  howItWorks: '/home#howitworks',
  pricing: '/home#pricing',
  login: '/login',
  signup: '/signup',
  dashboard: '/dashboard',
  profile: '/profile',
  contact: '/contact',
  privacy: '/privacy',
  terms: '/terms',
  legal: '/legal',
  changelog: '/changelog',
  documentation: '/documentation',
  subscriptionSuccess: '/subscriptionsuccess',
  sandbox: '/sandbox',
  /** Where a notice mail's "turn them off" link leads (`?u=…&t=…`, made by the server). */
  noticesOff: '/notices/off',
  /** Server routes, reached by full navigation rather than the browser router. */
  logout: contract.user.logout.path,
  deleteAccount: contract.user.delete.path,
  signInWithGoogle: contract.auth.signIn.google.path,
  signInWithFacebook: contract.auth.signIn.facebook.path,
} as const;

/**
 * Ids of dashboard sections (and the sync switch) that other sections, the welcome guide and the "Next step"
 * card link to (`#calendar-settings`).
 */
export const sectionIds = {
  calendarSettings: 'calendar-settings',
  syncActivity: 'sync-activity',
  whatSyncs: 'what-syncs',
  timeboxSettings: 'timebox-settings',
  syncSwitch: 'sync-active',
} as const;
