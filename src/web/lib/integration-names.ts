import type { IntegrationName } from '#shared/api/auth.schema.ts';

/** How the product names each integration to the user (`Microsoft` is "Microsoft 365"). */
export const INTEGRATION_DISPLAY_NAMES: Record<IntegrationName, string> = {
  Todoist: 'Todoist',
  'Google Calendar': 'Google Calendar',
  Microsoft: 'Microsoft 365',
};
