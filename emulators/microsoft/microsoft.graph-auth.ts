import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken } from '../shared/params.ts';
import { accessDenied, GraphError, sendGraphError } from './microsoft.errors.ts';
import type { IdentityStore, MicrosoftGrant } from './microsoft.identity-store.ts';
import type { MailboxStore, MailboxUser } from './microsoft.mailbox-store.ts';
import { hasPermission } from './microsoft.scopes.ts';

export type GraphCaller = { user: MailboxUser; grant: MicrosoftGrant; scopes: string[] };

const callers = new WeakMap<FastifyRequest, GraphCaller>();

const WWW_AUTHENTICATE =
  'Bearer realm="", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", client_id="00000003-0000-0000-c000-000000000000"';

/** Every Graph route needs a live bearer token issued by this emulator. */
export function installGraphAuth(
  scope: FastifyInstance,
  identity: IdentityStore,
  mailboxes: MailboxStore,
): void {
  scope.addHook('onRequest', async (request, reply) => {
    const token = bearerToken(request.headers.authorization);
    const lookup = token ? identity.grants.accessToken(token) : undefined;
    const user = lookup?.status === 'valid' ? mailboxes.user(lookup.grant.userId) : undefined;
    if (lookup?.status === 'valid' && user) {
      callers.set(request, { user, grant: lookup.grant, scopes: lookup.scopes });
      return;
    }
    const message = !token
      ? 'Access token is empty.'
      : lookup?.status === 'expired'
        ? 'Lifetime validation failed, the token is expired.'
        : 'CompactToken parsing failed with error code: 80049217';
    reply.header('www-authenticate', WWW_AUTHENTICATE);
    return sendGraphError(reply, new GraphError(401, 'InvalidAuthenticationToken', message));
  });
}

export function caller(request: FastifyRequest): GraphCaller {
  const found = callers.get(request);
  if (!found) throw new GraphError(401, 'InvalidAuthenticationToken', 'Access token is empty.');
  return found;
}

/** The caller, if its token carries one of `anyOf`; Outlook answers ErrorAccessDenied otherwise. */
export function authorize(request: FastifyRequest, anyOf: readonly string[]): GraphCaller {
  const found = caller(request);
  if (!hasPermission(found.scopes, anyOf)) throw accessDenied();
  return found;
}

/** /me answers with the directory's error when User.Read is missing. */
export function authorizeDirectory(request: FastifyRequest, anyOf: readonly string[]): GraphCaller {
  const found = caller(request);
  if (!hasPermission(found.scopes, anyOf)) {
    throw new GraphError(
      403,
      'Authorization_RequestDenied',
      'Insufficient privileges to complete the operation.',
    );
  }
  return found;
}
