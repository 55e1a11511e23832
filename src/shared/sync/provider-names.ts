/** How each provider is named to the user, on every screen and in every mail. */
export const PROVIDER_NAMES = {
  todoist: 'Todoist',
  google: 'Google Calendar',
  microsoft: 'Microsoft 365',
} as const;

export type CalendarProviderKey = 'google' | 'microsoft';
