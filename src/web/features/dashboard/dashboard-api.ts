import type { CalendarSettings } from '#shared/api/current-user.schema.ts';
import { getUserChange, sendUserChange } from '../auth/api/user-change.ts';

export type IntegrationProvider = 'Todoist' | NonNullable<CalendarSettings['provider']>;

/** Spec §7: Google Calendar is revoked as google/calendar. */
const REVOKE_PATHS: Record<IntegrationProvider, string> = {
  Todoist: '/auth/todoist/revoke',
  'Google Calendar': '/auth/google/calendar/revoke',
  Microsoft: '/auth/microsoft/revoke',
};

/** Connecting is a full navigation through the provider's consent page. */
export const CONNECT_PATHS: Record<IntegrationProvider, string> = {
  Todoist: '/auth/todoist',
  'Google Calendar': '/auth/google/calendar',
  Microsoft: '/auth/microsoft',
};

export const dashboardCalls = {
  revoke: (provider: IntegrationProvider) => getUserChange(REVOKE_PATHS[provider]),
  setSyncActive: (active: boolean) =>
    sendUserChange('PATCH', '/api/settings/onsyncactive', { setting: active }),
};
