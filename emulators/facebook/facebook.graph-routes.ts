import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError, type TokenFailure } from '../shared/oauth/oauth-error.ts';
import { redeemCode } from '../shared/oauth/token-endpoint.ts';
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
    try {
      // Facebook accepts a code_verifier for a code issued without a challenge.
      const code = redeemCode(params, fbApp.appId, store.codes, facebookTokenError, {
        rejectUnrequestedVerifier: false,
      });
      const grant = store.grants.createGrant({
        clientId: fbApp.appId,
        email: code.email,
        scopes: code.scopes,
      });
      return {
        access_token: store.grants.issueAccessToken(grant),
        token_type: 'bearer',
        expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
      };
    } catch (error) {
      if (!(error instanceof FacebookOAuthError)) throw error;
      return fail(error.details);
    }
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
    const lookup = store.grants.accessToken(token);
    const grant = lookup.status === 'unknown' ? undefined : lookup.grant;
    const fbApp = grant ? apps.get(grant.clientId) : undefined;
    const user = grant ? store.user(grant.email) : undefined;
    if (!grant || !fbApp || !user) {
      return fail({ code: 190, message: 'Invalid OAuth access token - Cannot parse access token' });
    }
    if (lookup.status === 'expired') {
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

/** A failed code exchange in Graph's terms (always 400 there). */
class FacebookOAuthError extends OAuthError {
  readonly details: GraphErrorDetails;

  constructor(details: GraphErrorDetails) {
    super(400, 'OAuthException', details.message);
    this.details = details;
  }
}

function facebookTokenError(failure: TokenFailure): FacebookOAuthError {
  const fail = (details: GraphErrorDetails) => new FacebookOAuthError(details);
  switch (failure.kind) {
    case 'missing_parameter':
      return fail({ code: 100, message: `Missing ${failure.name} parameter.` });
    case 'code_used':
      return fail({ code: 100, subcode: 36009, message: 'This authorization code has been used.' });
    case 'code_expired':
      return fail({ code: 100, subcode: 36007, message: 'This authorization code has expired.' });
    case 'redirect_uri_mismatch':
      return fail({
        code: 100,
        subcode: 36008,
        message:
          'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
      });
    case 'verifier_missing':
    case 'verifier_mismatch':
    case 'verifier_unrequested':
      return fail({ code: 100, message: 'Invalid code verifier.' });
    default:
      // An unknown code, or another app's; the client and refresh failures do not arise on this route.
      return fail({ code: 100, message: 'Invalid verification code format.' });
  }
}
