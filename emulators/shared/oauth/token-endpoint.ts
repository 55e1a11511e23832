import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readParams } from '../params.ts';
import type { AuthorizationCodes, CodeRequest } from './authorization-codes.ts';
import { authenticateClient, type OAuthClient } from './client-auth.ts';
import type { Grant, GrantData, GrantStore } from './grant-store.ts';
import { OAuthError, type WordFailure } from './oauth-error.ts';
import { checkVerifier } from './pkce.ts';

type Params = Record<string, string>;
type Answer = Record<string, unknown>;

export type TokenEndpointOptions<
  C extends OAuthClient,
  T extends CodeRequest,
  D extends GrantData,
  E extends OAuthError,
> = {
  path: string;
  clients: ReadonlyMap<string, C>;
  codes: AuthorizationCodes<T>;
  grants: GrantStore<D>;
  /** The provider's wording of each failure the kit finds. */
  word: WordFailure<E>;
  /** The provider's error body; `error` is one `word` made or one the callbacks threw. */
  errorBody: (error: E) => unknown;
  /** Sent with every answer, errors included. */
  cacheHeaders: Record<string, string>;
  /** Google refuses a body `client_id` that differs from the Basic one; Microsoft lets Basic win. */
  rejectClientIdConflict: boolean;
  /** Google refuses a `code_verifier` for a code issued without a challenge; others ignore it. */
  rejectUnrequestedVerifier: boolean;
  /** Checks before anything else (Microsoft's tenant in the path); throw to refuse. */
  checkRequest?: (request: FastifyRequest) => void;
  /** The answer to a good authorization code: make the grant and its tokens. */
  onCode: (code: T, client: C) => Answer | Promise<Answer>;
  /** The answer to a good refresh token of this client. */
  onRefresh: (grant: Grant<D>, client: C, params: Params) => Answer | Promise<Answer>;
};

/** The token endpoint for the `authorization_code` and `refresh_token` grants. */
export function registerTokenEndpoint<
  C extends OAuthClient,
  T extends CodeRequest,
  D extends GrantData,
  E extends OAuthError,
>(app: FastifyInstance, options: TokenEndpointOptions<C, T, D, E>): void {
  const { word } = options;
  app.post(options.path, async (request, reply) => {
    const params = readParams(request.body);
    reply.headers(options.cacheHeaders);
    try {
      options.checkRequest?.(request);
      const grantType = params.grant_type;
      if (!grantType) throw word({ kind: 'missing_parameter', name: 'grant_type' });
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        throw word({ kind: 'unsupported_grant_type', grantType });
      }
      const client = authenticateClient(request, params, options.clients, word, {
        rejectConflict: options.rejectClientIdConflict,
      });
      if (grantType === 'authorization_code') {
        const code = redeemCode(params, client.clientId, options.codes, word, {
          rejectUnrequestedVerifier: options.rejectUnrequestedVerifier,
        });
        return await options.onCode(code, client);
      }
      return await options.onRefresh(
        redeemRefreshToken(params, client.clientId, options.grants, word),
        client,
        params,
      );
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      return reply.code(error.status).send(options.errorBody(error as E));
    }
  });
}

/**
 * Checks an authorization code exchange: the code is this client's, unused and live, the redirect URI
 * is the one it was issued for and the PKCE verifier matches its challenge. The code is used up either way.
 */
export function redeemCode<T extends CodeRequest, E extends OAuthError>(
  params: Params,
  clientId: string,
  codes: AuthorizationCodes<T>,
  word: WordFailure<E>,
  options: { rejectUnrequestedVerifier: boolean },
): T {
  if (!params.code) throw word({ kind: 'missing_parameter', name: 'code' });
  if (!params.redirect_uri) throw word({ kind: 'missing_parameter', name: 'redirect_uri' });
  const lookup = codes.take(params.code);
  if (lookup.status === 'used') throw word({ kind: 'code_used' });
  if (lookup.status === 'expired') throw word({ kind: 'code_expired' });
  if (lookup.status !== 'valid' || lookup.code.clientId !== clientId) throw word({ kind: 'code_invalid' });
  const code = lookup.code;
  if (code.redirectUri !== params.redirect_uri) {
    throw word({ kind: 'redirect_uri_mismatch', given: params.redirect_uri, expected: code.redirectUri });
  }
  const verifier = checkVerifier(code.pkce, params.code_verifier);
  if (verifier === 'missing') throw word({ kind: 'verifier_missing' });
  if (verifier === 'mismatch') throw word({ kind: 'verifier_mismatch' });
  if (verifier === 'unrequested' && options.rejectUnrequestedVerifier) {
    throw word({ kind: 'verifier_unrequested' });
  }
  return code;
}

/** The grant behind a refresh token, if the token is live and was issued to this client. */
export function redeemRefreshToken<D extends GrantData, E extends OAuthError>(
  params: Params,
  clientId: string,
  grants: GrantStore<D>,
  word: WordFailure<E>,
): Grant<D> {
  if (!params.refresh_token) throw word({ kind: 'missing_parameter', name: 'refresh_token' });
  const lookup = grants.refreshToken(params.refresh_token);
  if (lookup.status === 'revoked') throw word({ kind: 'refresh_token_revoked' });
  if (lookup.status !== 'valid') throw word({ kind: 'refresh_token_invalid' });
  if (lookup.grant.clientId !== clientId) throw word({ kind: 'refresh_token_other_client' });
  return lookup.grant;
}
