import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type PkceMethod, parsePkceMethod } from '../shared/oauth/pkce.ts';
import { appendQuery, parseRedirectUri } from '../shared/oauth/redirect-uri.ts';
import { readParams } from '../shared/params.ts';
import { renderErrorPage, renderSignInPage } from '../shared/sign-in-page.ts';
import type { FacebookApp } from './facebook.emulator.ts';
import type { FacebookStore } from './facebook.store.ts';

const PAGE_TITLE = 'Log in with Facebook (sandbox)';
const DEFAULT_EMAIL = 'grace.hopper@example.com';
const DEFAULT_NAME = 'Grace Hopper';
const CARRIED_PARAMS = [
  'client_id',
  'redirect_uri',
  'state',
  'response_type',
  'scope',
  'code_challenge',
  'code_challenge_method',
] as const;

type DialogRequest = {
  app: FacebookApp;
  redirectUri: string;
  state: string | undefined;
  scopes: string[];
  codeChallenge: string | undefined;
  codeChallengeMethod: PkceMethod | undefined;
};

type Validation = { ok: true; request: DialogRequest } | { ok: false; heading: string; message: string };

export function registerDialogRoutes(
  app: FastifyInstance,
  store: FacebookStore,
  apps: ReadonlyMap<string, FacebookApp>,
): void {
  app.get('/dialog/oauth', async (request, reply) => {
    const params = readParams(request.query);
    const validation = validateDialogRequest(params, apps);
    if (!validation.ok) return sendErrorPage(reply, validation);
    const html = renderSignInPage({
      brand: 'facebook',
      title: PAGE_TITLE,
      subtitle: `to continue to ${validation.request.app.name ?? validation.request.app.appId}`,
      action: pathOf(request),
      hiddenFields: Object.fromEntries(CARRIED_PARAMS.map((name) => [name, params[name]])),
      email: DEFAULT_EMAIL,
      name: DEFAULT_NAME,
    });
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  });

  app.post('/dialog/oauth', async (request, reply) => {
    const params = readParams(request.body);
    const validation = validateDialogRequest(params, apps);
    if (!validation.ok) return sendErrorPage(reply, validation);
    const dialog = validation.request;

    if (params.decision === 'cancel') {
      const denied = appendQuery(dialog.redirectUri, {
        error: 'access_denied',
        error_code: '200',
        error_description: 'Permissions error',
        error_reason: 'user_denied',
        state: dialog.state,
      });
      return reply.redirect(`${denied}#_=_`);
    }
    const email = (params.email ?? '').trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      return sendErrorPage(reply, { heading: 'Invalid e-mail', message: 'Enter a valid e-mail address.' });
    }
    const user = store.upsertUser(email, (params.name ?? '').trim() || email.split('@')[0] || email);
    const code = store.issueCode({
      appId: dialog.app.appId,
      redirectUri: dialog.redirectUri,
      scopes: dialog.scopes,
      codeChallenge: dialog.codeChallenge,
      codeChallengeMethod: dialog.codeChallengeMethod,
      email: user.email,
    });
    // Facebook appends an empty-looking fragment to every login redirect.
    return reply.redirect(`${appendQuery(dialog.redirectUri, { code, state: dialog.state })}#_=_`);
  });
}

function validateDialogRequest(
  params: Record<string, string>,
  apps: ReadonlyMap<string, FacebookApp>,
): Validation {
  const fail = (heading: string, message: string): Validation => ({ ok: false, heading, message });
  const app = apps.get(params.client_id ?? '');
  if (!app) return fail('Invalid App ID', 'The provided app ID does not look like a valid app ID.');
  const redirectUri = params.redirect_uri;
  if (!redirectUri || !parseRedirectUri(redirectUri)) {
    return fail(
      'URL blocked',
      'redirect_uri is missing or is not an absolute http(s) URL without a fragment.',
    );
  }
  const responseType = params.response_type || 'code';
  if (responseType !== 'code') {
    return fail(
      'Unsupported response_type',
      `This emulator only supports response_type=code, not ${responseType}.`,
    );
  }
  const codeChallengeMethod = params.code_challenge
    ? parsePkceMethod(params.code_challenge_method)
    : undefined;
  if (params.code_challenge && !codeChallengeMethod) {
    return fail('Invalid code_challenge_method', 'code_challenge_method must be S256 or plain.');
  }
  const requested = (params.scope ?? '').split(/[\s,]+/).filter(Boolean);
  return {
    ok: true,
    request: {
      app,
      redirectUri,
      state: params.state,
      scopes: [...new Set(['public_profile', ...requested])],
      codeChallenge: params.code_challenge,
      codeChallengeMethod,
    },
  };
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

function sendErrorPage(reply: FastifyReply, failure: { heading: string; message: string }) {
  const html = renderErrorPage({ brand: 'facebook', title: PAGE_TITLE, ...failure });
  return reply.code(400).type('text/html; charset=utf-8').send(html);
}
