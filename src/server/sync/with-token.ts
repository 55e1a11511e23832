import type { IntegrationRow } from '#server/db/schema/integrations.table.ts';
import type { IntegrationKind } from '#server/domain/integrations/integration-providers.port.ts';

/** Calls a provider with the user's valid access token (the token manager's `withAccessToken`). */
export type WithToken = <T>(
  userId: string,
  kind: IntegrationKind,
  call: (token: string) => Promise<T>,
) => Promise<T>;

/**
 * A sync run's token scope (the token manager's `inScope` and `known`): each connection's row is read
 * once for all the run's calls, or not at all when the run already read it.
 */
export type TokenScope = {
  run<T>(work: () => Promise<T>): Promise<T>;
  known(rows: readonly IntegrationRow[]): void;
};

/**
 * Calls a provider with a valid access token of one of the user's calendar accounts added beside the
 * sync's, by its row id (the token manager's `withAccountToken`); ReconnectRequiredError (naming the
 * account) when its provider no longer accepts it.
 */
export type WithAccountToken = <T>(
  userId: string,
  accountId: string,
  call: (token: string) => Promise<T>,
) => Promise<T>;
