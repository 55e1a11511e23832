import type { FastifyInstance, FastifyReply } from 'fastify';
import { type IdentityProvider, SignInCancelledError } from '#server/domain/auth/identity-provider.port.ts';
import { parseSignInFlow, startSignInFlow } from '#server/domain/auth/sign-in-flow.ts';
import type { IdentityProviderName } from '#server/domain/users/user.repository.ts';
import type { UserService } from '#server/domain/users/user.service.ts';
import { IDENTITY_PROVIDERS, SIGN_IN_PATHS, type SignInErrorReason } from '#shared/api/auth.schema.ts';
import type { CookiePolicy } from '../cookies.ts';

type Options = {
  appUrl: string;
  cookies: CookiePolicy;
  users: UserService;
  identityProviders: Partial<Record<IdentityProviderName, IdentityProvider>>;
  rateLimitPerMinute: number;
};

export async function authRoutes(app: FastifyInstance, options: Options) {
  const { appUrl, cookies, users, identityProviders } = options;
  const rateLimit = { max: options.rateLimitPerMinute, timeWindow: '1 minute' };
  const toLogin = (reply: FastifyReply, reason: SignInErrorReason) =>
    reply.redirect(`/login?error=${reason}`);

  // Sign-in is a browser navigation: whatever goes wrong (too many attempts, the provider down) lands on
  // the login page with a message, never on a page of raw JSON. Only these routes (the plugin's scope).
  app.setErrorHandler(async (error: { statusCode?: number }, request, reply) => {
    if (error.statusCode === 429) return toLogin(reply, 'too-many');
    request.log.warn({ err: error }, 'sign-in could not start');
    return toLogin(reply, 'failed');
  });

  for (const name of IDENTITY_PROVIDERS satisfies readonly IdentityProviderName[]) {
    const path = SIGN_IN_PATHS[name];
    const redirectUri = `${appUrl}${path}/callback`;

    app.get(path, { config: { rateLimit } }, async (request, reply) => {
      const provider = identityProviders[name];
      if (!provider) return toLogin(reply, 'unavailable');
      const flow = startSignInFlow(name);
      const url = await provider.authorizationUrl(flow, redirectUri);
      reply.setCookie(cookies.signInFlowName, JSON.stringify(flow), cookies.signInFlow);
      request.log.info({ provider: name }, 'sign-in started');
      return reply.redirect(url.toString());
    });

    app.get(`${path}/callback`, { config: { rateLimit } }, async (request, reply) => {
      const provider = identityProviders[name];
      if (!provider) return toLogin(reply, 'unavailable');
      const raw = request.cookies[cookies.signInFlowName];
      const unsigned = raw ? request.unsignCookie(raw) : undefined;
      reply.clearCookie(cookies.signInFlowName, cookies.clear('/auth'));
      const flow = parseSignInFlow(unsigned?.valid ? (unsigned.value ?? undefined) : undefined);
      if (!flow || flow.provider !== name) return toLogin(reply, 'expired');

      let identity: Awaited<ReturnType<IdentityProvider['exchange']>>;
      try {
        identity = await provider.exchange(new URL(request.url, appUrl), flow, redirectUri);
      } catch (error) {
        if (error instanceof SignInCancelledError) return toLogin(reply, 'cancelled');
        request.log.warn({ err: error, provider: name }, 'sign-in failed');
        return toLogin(reply, 'failed');
      }
      const { user, created } = await users.signIn(identity);
      await reply.startSession(user.id);
      request.log.info({ provider: name, userId: user.id, created }, 'signed in');
      return reply.redirect('/dashboard');
    });
  }
}
