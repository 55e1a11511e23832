import type { FastifyRequest } from 'fastify';
import type { OAuthError, WordFailure } from './oauth-error.ts';

/** A registered client; one without a secret is a public client that proves itself with PKCE. */
export type OAuthClient = { clientId: string; clientSecret?: string | undefined };

/** `Authorization: Basic` credentials, each half form-decoded as RFC 6749 §2.3.1 asks. */
export function basicCredentials(
  header: string | undefined,
): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) return undefined;
  return {
    clientId: formDecode(decoded.slice(0, separator)),
    clientSecret: formDecode(decoded.slice(separator + 1)),
  };
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/**
 * client_secret_basic or client_secret_post; Basic wins when both are sent. With `rejectConflict`
 * (Google) a `client_id` in the body that differs from the Basic one is refused.
 */
export function authenticateClient<C extends OAuthClient, E extends OAuthError>(
  request: FastifyRequest,
  params: Record<string, string>,
  clients: ReadonlyMap<string, C>,
  word: WordFailure<E>,
  options: { rejectConflict: boolean },
): C {
  const basic = basicCredentials(request.headers.authorization);
  if (options.rejectConflict && basic && params.client_id && params.client_id !== basic.clientId) {
    throw word({ kind: 'client_id_conflict' });
  }
  const clientId = basic?.clientId ?? params.client_id;
  const secret = basic?.clientSecret ?? params.client_secret;
  if (!clientId) throw word({ kind: 'client_id_missing' });
  const client = clients.get(clientId);
  if (!client) throw word({ kind: 'client_unknown', clientId });
  if (client.clientSecret === undefined) return client;
  if (!secret) throw word({ kind: 'client_secret_missing' });
  if (secret !== client.clientSecret) throw word({ kind: 'client_secret_wrong' });
  return client;
}
