import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pkceMatches } from '../shared/oauth/pkce.ts';
import { bearerToken, readParams } from '../shared/params.ts';
import type { FacebookApp } from './facebook.emulator.ts';
import { type GraphErrorDetails, graphError } from './facebook.errors.ts';
import { ACCESS_TOKEN_LIFETIME_SECONDS, appScopedUserId, type FacebookStore } from './facebook.store.ts';

const DEFAULT_FIELDS = 'id,name';
const USER_FIELDS = new Set(['id', 'name', 'first_name', 'last_name', 'email']);

export function registerGraphRoutes(
  app: FastifyInstance,
  store: FacebookStore,
  apps: ReadonlyMap<string, FacebookApp>,
): void {
  const exchange = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = { ...readParams(request.body), ...readParams(request.query) };
    const fail = (details: GraphErrorDetails) => reply.code(400).send(graphError(details));

    const fbApp = apps.get(params.client_id ?? '');
    if (!fbApp) return fail({ code: 101, message: 'Error validating application. Invalid application ID.' });
    if (params.client_secret !== fbApp.appSecret) {
      return fail({ code: 1, message: 'Error validating client secret.' });
    }
    if (!params.redirect_uri) return fail({ code: 100, message: 'Missing redirect_uri parameter.' });
    if (!params.code) return fail({ code: 100, message: 'Missing code parameter.' });

    const lookup = store.takeCode(params.code);
    if (lookup.status === 'used') {
      return fail({ code: 100, subcode: 36009, message: 'This authorization code has been used.' });
    }
    if (lookup.status === 'expired') {
      return fail({ code: 100, subcode: 36007, message: 'This authorization code has expired.' });
    }
    if (lookup.status !== 'valid' || lookup.code.appId !== fbApp.appId) {
      return fail({ code: 100, message: 'Invalid verification code format.' });
    }
    const code = lookup.code;
    if (code.redirectUri !== params.redirect_uri) {
      return fail({
        code: 100,
        subcode: 36008,
        message:
          'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
      });
    }
    if (code.codeChallenge && code.codeChallengeMethod) {
      const verifier = params.code_verifier;
      if (!verifier || !pkceMatches(code.codeChallenge, code.codeChallengeMethod, verifier)) {
        return fail({ code: 100, message: 'Invalid code verifier.' });
      }
    }
    return {
      access_token: store.issueAccessToken(fbApp.appId, code.email, code.scopes),
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
    };
  };
  app.get('/oauth/access_token', exchange);
  app.post('/oauth/access_token', exchange);

  app.get('/me', async (request, reply) => {
    const params = readParams(request.query);
    const fail = (details: GraphErrorDetails) => reply.code(400).send(graphError(details));

    const token = params.access_token ?? bearerToken(request.headers.authorization);
    if (!token) {
      return fail({
        code: 2500,
        message: 'An active access token must be used to query information about the current user.',
      });
    }
    const grant = store.accessToken(token);
    const fbApp = grant ? apps.get(grant.appId) : undefined;
    const user = grant ? store.user(grant.email) : undefined;
    if (!grant || !fbApp || !user) {
      return fail({ code: 190, message: 'Invalid OAuth access token - Cannot parse access token' });
    }
    if (grant.expiresAt <= Date.now()) {
      return fail({
        code: 190,
        subcode: 463,
        message: 'Error validating access token: Session has expired.',
      });
    }
    if (
      params.appsecret_proof !== undefined &&
      !proofMatches(params.appsecret_proof, token, fbApp.appSecret)
    ) {
      return fail({
        code: 100,
        type: 'GraphMethodException',
        message: 'Invalid appsecret_proof provided in the API argument',
      });
    }

    const fields = (params.fields || DEFAULT_FIELDS)
      .split(',')
      .map((field) => field.trim())
      .filter(Boolean);
    const unknown = fields.find((field) => !USER_FIELDS.has(field));
    if (unknown) {
      return fail({
        code: 100,
        message: `(#100) Tried accessing nonexisting field (${unknown}) on node type (User)`,
      });
    }
    const [firstName = '', ...otherNames] = user.name.split(/\s+/);
    const values: Record<string, string | undefined> = {
      id: appScopedUserId(fbApp.appId, user.email),
      name: user.name,
      first_name: firstName,
      last_name: otherNames.join(' ') || undefined,
      // Without the email permission Graph leaves the field out rather than failing.
      email: grant.scopes.includes('email') ? user.email : undefined,
    };
    const profile: Record<string, string> = {};
    // Graph always returns the node id, after the requested fields.
    for (const field of [...fields, 'id']) {
      const value = values[field];
      if (value !== undefined) profile[field] = value;
    }
    return profile;
  });
}

/** `appsecret_proof` is hex HMAC-SHA256 of the access token keyed with the app secret. */
function proofMatches(proof: string, token: string, appSecret: string): boolean {
  const expected = Buffer.from(createHmac('sha256', appSecret).update(token).digest('hex'));
  const given = Buffer.from(proof.toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}
