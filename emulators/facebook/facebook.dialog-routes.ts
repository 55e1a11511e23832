import type { FastifyInstance } from 'fastify';
import { type ConsentValidation, registerConsentFlow, sendErrorPage } from '../shared/oauth/consent-flow.ts';
import { type PkceChallenge, readPkceChallenge } from '../shared/oauth/pkce.ts';
import { appendQuery, checkRedirectUri } from '../shared/oauth/redirect-uri.ts';
import { renderErrorPage, renderSignInPage } from '../shared/sign-in-page.ts';
import type { FacebookApp } from './facebook.emulator.ts';
import type { FacebookStore } from './facebook.store.ts';

const PAGE_TITLE = 'Log in with Facebook (sandbox)';
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
  pkce: PkceChallenge | undefined;
};

type Failure = { heading: string; message: string };

/** The login dialog (www.facebook.com/dialog/oauth); every redirect ends in Facebook's empty-looking `#_=_`. */
export function registerDialogRoutes(
  app: FastifyInstance,
  store: FacebookStore,
  apps: ReadonlyMap<string, FacebookApp>,
): void {
  registerConsentFlow<DialogRequest, Failure>(app, {
    path: '/dialog/oauth',
    carriedParams: CARRIED_PARAMS,
    defaultAccount: { email: 'grace.hopper@example.com', name: 'Grace Hopper' },
    loginHint: false,
    validate: (params) => validateDialogRequest(params, apps),
    renderPage: (dialog, form) =>
      renderSignInPage({
        brand: 'facebook',
        title: PAGE_TITLE,
        subtitle: `to continue to ${dialog.app.name ?? dialog.app.appId}`,
        ...form,
      }),
    sendFailure: (reply, failure) =>
      sendErrorPage(reply, renderErrorPage({ brand: 'facebook', title: PAGE_TITLE, ...failure })),
    declined: (dialog, reply) => {
      const denied = appendQuery(dialog.redirectUri, {
        error: 'access_denied',
        error_code: '200',
        error_description: 'Permissions error',
        error_reason: 'user_denied',
        state: dialog.state,
      });
      return reply.redirect(`${denied}#_=_`);
    },
    invalidEmail: { heading: 'Invalid e-mail', message: 'Enter a valid e-mail address.' },
    approve: (dialog, person) => {
      const user = store.upsertUser(person.email, person.name || person.email.split('@')[0] || person.email);
      const code = store.codes.issue({
        clientId: dialog.app.appId,
        redirectUri: dialog.redirectUri,
        scopes: dialog.scopes,
        pkce: dialog.pkce,
        email: user.email,
      });
      return `${appendQuery(dialog.redirectUri, { code, state: dialog.state })}#_=_`;
    },
  });
}

function validateDialogRequest(
  params: Record<string, string>,
  apps: ReadonlyMap<string, FacebookApp>,
): ConsentValidation<DialogRequest, Failure> {
  const fail = (heading: string, message: string) => ({ ok: false as const, failure: { heading, message } });
  const app = apps.get(params.client_id ?? '');
  if (!app) return fail('Invalid App ID', 'The provided app ID does not look like a valid app ID.');
  const redirectUri = params.redirect_uri;
  if (!redirectUri || checkRedirectUri(redirectUri, undefined) !== 'ok') {
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
  // Facebook ignores a method without a challenge; it only checks a challenge's method.
  const pkce = readPkceChallenge(params);
  if (!pkce.ok && pkce.problem === 'unknown_method') {
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
      pkce: pkce.ok ? pkce.pkce : undefined,
    },
  };
}
