import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderErrorPage, renderSignInPage } from '../sign-in-page.ts';
import { parseForm } from '../testing/html-form.ts';
import { type ConsentAccount, registerConsentFlow, sendErrorPage } from './consent-flow.ts';
import { appendQuery } from './redirect-uri.ts';

type Request = { redirectUri: string; state: string | undefined };
type Failure = { heading: string; message: string } | { redirect: string };

describe('registerConsentFlow', () => {
  let app: FastifyInstance;
  let approved: { request: Request; account: ConsentAccount }[];

  async function start(options: { loginHint: boolean }) {
    app = Fastify();
    await app.register(formbody);
    approved = [];
    registerConsentFlow<Request, Failure>(app, {
      path: '/:realm/authorize',
      carriedParams: ['client_id', 'redirect_uri', 'state'],
      defaultAccount: { email: 'ada@example.com', name: 'Ada' },
      loginHint: options.loginHint,
      validate: (params) => {
        if (params.client_id !== 'app') {
          return { ok: false, failure: { heading: 'Bad client', message: `No client ${params.client_id}` } };
        }
        const redirectUri = params.redirect_uri ?? 'https://app.example/cb';
        return { ok: true, request: { redirectUri, state: params.state } };
      },
      beforePage: (request, params) =>
        params.prompt === 'none'
          ? { redirect: appendQuery(request.redirectUri, { error: 'login_required' }) }
          : undefined,
      renderPage: (_request, form) =>
        renderSignInPage({ brand: 'google', title: 'T', subtitle: 'S', ...form }),
      sendFailure: (reply, failure) =>
        'redirect' in failure
          ? reply.redirect(failure.redirect)
          : sendErrorPage(reply, renderErrorPage({ brand: 'google', title: 'T', ...failure })),
      declined: (request, reply) =>
        reply.redirect(appendQuery(request.redirectUri, { error: 'access_denied', state: request.state })),
      invalidEmail: { heading: 'Invalid e-mail', message: 'Enter a valid e-mail address.' },
      approve: (request, account) => {
        approved.push({ request, account });
        return appendQuery(request.redirectUri, { code: 'the-code', state: request.state });
      },
    });
    await app.ready();
  }

  const submit = (fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/r1/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });

  beforeEach(() => start({ loginHint: true }));
  afterEach(() => app.close());

  it('shows the form posting to its own path, carrying the request and pre-filled from login_hint', async () => {
    const page = await app.inject({
      url: '/r1/authorize?client_id=app&state=s%201&nonce=n&login_hint=grace%40example.com',
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(parseForm(page.body)).toEqual({
      action: '/r1/authorize',
      fields: { client_id: 'app', state: 's 1', email: 'grace@example.com', name: 'Ada' },
    });
  });

  it('ignores login_hint for a provider that does', async () => {
    await app.close();
    await start({ loginHint: false });
    const page = await app.inject({ url: '/r1/authorize?client_id=app&login_hint=grace%40example.com' });
    expect(parseForm(page.body).fields.email).toBe('ada@example.com');
  });

  it('shows the provider’s failure for a bad request, on the page and on its submission', async () => {
    const page = await app.inject({ url: '/r1/authorize?client_id=other' });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('No client other');
    const posted = await submit({ client_id: 'other', email: 'ada@example.com' });
    expect(posted.statusCode).toBe(400);
    expect(posted.body).toContain('No client other');
    expect(approved).toEqual([]);
  });

  it('answers with the provider’s early failure instead of the page', async () => {
    const page = await app.inject({ url: '/r1/authorize?client_id=app&prompt=none' });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('https://app.example/cb?error=login_required');
  });

  it('sends Cancel back as the provider declines', async () => {
    const response = await submit({ client_id: 'app', state: 'xyz', decision: 'cancel', email: '' });
    expect(response.headers.location).toBe('https://app.example/cb?error=access_denied&state=xyz');
    expect(approved).toEqual([]);
  });

  it('refuses an invalid e-mail address', async () => {
    const response = await submit({ client_id: 'app', email: 'not-an-address', name: 'Ada' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Enter a valid e-mail address.');
    expect(approved).toEqual([]);
  });

  it('approves a filled-in form with the trimmed person and redirects where the provider says', async () => {
    const response = await submit({
      client_id: 'app',
      state: 'xyz',
      email: '  Grace@Example.com ',
      name: ' Grace ',
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('https://app.example/cb?code=the-code&state=xyz');
    expect(approved).toEqual([
      {
        request: { redirectUri: 'https://app.example/cb', state: 'xyz' },
        account: { email: 'Grace@Example.com', name: 'Grace' },
      },
    ]);
  });
});
