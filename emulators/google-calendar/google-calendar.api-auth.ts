import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GoogleOAuth } from '../shared/oauth/google-oauth.ts';
import { bearerToken } from '../shared/params.ts';
import { errors } from './google-calendar.errors.ts';
import { type Access, allows } from './google-calendar.scopes.ts';

export type ApiCaller = { email: string; clientId: string; scopes: string[] };

const callers = new WeakMap<FastifyRequest, ApiCaller>();

/** Every Calendar API call needs a live access token this emulator issued; others get Google's 401. */
export function installApiAuth(scope: FastifyInstance, oauth: GoogleOAuth): void {
  scope.addHook('onRequest', async (request) => {
    const token = bearerToken(request.headers.authorization);
    const lookup = token ? oauth.grants.accessToken(token) : undefined;
    if (lookup?.status !== 'valid') throw errors.unauthenticated();
    const { grant } = lookup;
    callers.set(request, { email: grant.account, clientId: grant.clientId, scopes: grant.scopes });
  });
}

/** The authenticated caller, if its token's scopes allow this kind of call; else Google's 403. */
export function callerFor(request: FastifyRequest, access: Access): ApiCaller {
  const caller = callers.get(request);
  if (!caller) throw errors.unauthenticated();
  if (!allows(caller.scopes, access)) throw errors.insufficientScopes();
  return caller;
}
