import type { FastifyInstance, FastifyReply } from 'fastify';
import { appendQuery, parseRedirectUri } from '../shared/oauth/redirect-uri.ts';
import { readParams } from '../shared/params.ts';
import { renderConsentErrorPage, renderConsentPage } from './todoist.consent-page.ts';
import type { TodoistContext } from './todoist.context.ts';

/** The scopes the TS SDK's `PERMISSIONS` lists. */
export const PERMISSIONS = [
  'task:add',
  'data:read',
  'data:read_write',
  'data:delete',
  'project:delete',
  'backups:read',
  'billing:read',
  'billing:read_write',
  'dev:app_console',
];
const DEFAULT_EMAIL = 'ada.lovelace@example.com';
const DEFAULT_NAME = 'Ada Lovelace';

type Consent = { redirectUri: string; state: string; scopes: string[] | undefined };
type Check = { ok: true; consent: Consent } | { ok: false; heading: string; message: string };

/** Authorization page, token exchange and both revocation styles (RFC 7009 and `DELETE access_tokens`). */
export function registerOAuthRoutes(app: FastifyInstance, context: TodoistContext): void {
  const { accounts, store } = context;
  const appName = context.app.name ?? context.app.clientId;

  function check(params: Record<string, string>): Check {
    const fail = (heading: string, message: string): Check => ({ ok: false, heading, message });
    if (params.client_id !== context.app.clientId)
      return fail('Invalid client_id', 'No Todoist app has this client id.');
    const given = params.redirect_uri;
    if (
      given !== undefined &&
      (!parseRedirectUri(given) || (context.app.redirectUri && given !== context.app.redirectUri))
    ) {
      return fail(
        'Invalid redirect_uri',
        'redirect_uri does not match the redirect URI registered for this app.',
      );
    }
    const redirectUri = given ?? context.app.redirectUri;
    if (!redirectUri)
      return fail('Redirect URI not configured', 'This app has no OAuth redirect URI configured.');
    if (!params.state) return fail('Missing state', 'The state parameter is required.');
    const scopes = (params.scope ?? '')
      .split(',')
      .map((scope) => scope.trim())
      .filter(Boolean);
    const valid = scopes.length > 0 && scopes.every((scope) => PERMISSIONS.includes(scope));
    return { ok: true, consent: { redirectUri, state: params.state, scopes: valid ? scopes : undefined } };
  }

  function errorPage(reply: FastifyReply, failure: { heading: string; message: string }) {
    const html = renderConsentErrorPage({ title: 'Todoist (sandbox)', ...failure });
    return reply.code(400).type('text/html; charset=utf-8').send(html);
  }

  app.get('/oauth/authorize', async (request, reply) => {
    const params = readParams(request.query);
    const result = check(params);
    if (!result.ok) return errorPage(reply, result);
    const { consent } = result;
    if (!consent.scopes)
      return reply.redirect(
        appendQuery(consent.redirectUri, { error: 'invalid_scope', state: consent.state }),
      );
    const html = renderConsentPage({
      title: `Authorize ${appName} (Todoist sandbox)`,
      subtitle: `${appName} would like access to your Todoist account: ${consent.scopes.join(', ')}`,
      action: '/oauth/authorize',
      hiddenFields: {
        client_id: params.client_id,
        scope: params.scope,
        state: params.state,
        redirect_uri: params.redirect_uri,
      },
      // Not a documented Todoist parameter; the emulator takes Google's and Microsoft's `login_hint`
      // so the product can offer the signed-in user's e-mail first. Real Todoist ignores it.
      email: params.login_hint || DEFAULT_EMAIL,
      name: DEFAULT_NAME,
    });
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  });

  app.post('/oauth/authorize', async (request, reply) => {
    const params = readParams(request.body);
    const result = check(params);
    if (!result.ok) return errorPage(reply, result);
    const { consent } = result;
    if (!consent.scopes)
      return reply.redirect(
        appendQuery(consent.redirectUri, { error: 'invalid_scope', state: consent.state }),
      );
    if (params.decision === 'cancel') {
      return reply.redirect(
        appendQuery(consent.redirectUri, { error: 'access_denied', state: consent.state }),
      );
    }
    const email = (params.email ?? '').trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      return errorPage(reply, { heading: 'Invalid e-mail', message: 'Enter a valid e-mail address.' });
    }
    const user = store.upsertUser(email, (params.name ?? '').trim(), context.clock.stamp());
    const code = accounts.issueCode({
      clientId: context.app.clientId,
      userId: user.id,
      scopes: consent.scopes,
      redirectUri: consent.redirectUri,
    });
    return reply.redirect(appendQuery(consent.redirectUri, { code, state: consent.state }));
  });

  app.post('/oauth/access_token', async (request, reply) => {
    const params = readParams(request.body);
    if (params.client_id !== context.app.clientId || params.client_secret !== context.app.clientSecret) {
      return reply.code(400).send({ error: 'incorrect_application_credentials' });
    }
    const code = params.code ? accounts.takeCode(params.code) : undefined;
    if (!code || code.clientId !== context.app.clientId)
      return reply.code(400).send({ error: 'bad_authorization_code' });
    const accessToken = accounts.issueToken({
      userId: code.userId,
      kind: 'oauth',
      clientId: code.clientId,
      scopes: code.scopes,
    });
    return reply
      .header('cache-control', 'no-store')
      .send({ access_token: accessToken, token_type: 'Bearer' });
  });

  app.post('/api/v1/revoke', async (request, reply) => {
    const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const [clientId, clientSecret] = Buffer.from(basic ?? '', 'base64')
      .toString()
      .split(':');
    if (clientId !== context.app.clientId || clientSecret !== context.app.clientSecret) {
      return reply.code(401).header('www-authenticate', 'Basic').send({ error: 'invalid_client' });
    }
    const token = readParams(request.body).token;
    if (!token) return reply.code(400).send({ error: 'invalid_request' });
    // RFC 7009: an unknown token, or another client's, is answered with success too.
    if (accounts.token(token)?.clientId === clientId) accounts.revoke(token);
    return reply.type('application/json').send('null');
  });

  app.delete('/api/v1/access_tokens', async (request, reply) => {
    const params = readParams(request.query);
    if (params.client_id !== context.app.clientId || params.client_secret !== context.app.clientSecret) {
      return reply.code(400).send({ error: 'incorrect_application_credentials' });
    }
    if (params.access_token && accounts.token(params.access_token)?.clientId === params.client_id) {
      accounts.revoke(params.access_token);
    }
    return reply.type('application/json').send('null');
  });
}
