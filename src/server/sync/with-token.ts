import type { IntegrationKind } from '#server/domain/integrations/integration-providers.port.ts';

/** Calls a provider with the user's valid access token (the token manager's `withAccessToken`). */
export type WithToken = <T>(
  userId: string,
  kind: IntegrationKind,
  call: (token: string) => Promise<T>,
) => Promise<T>;
