import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parseConnectFlow } from '#server/domain/integrations/connect-flow.ts';
import type { IntegrationService } from '#server/domain/integrations/integration.service.ts';
import {
  ConnectCancelledError,
  type IntegrationProvider,
} from '#server/domain/integrations/integration-providers.port.ts';
import type { AccountReader } from '#server/domain/users/account.reader.ts';
import {
  CONNECT_ANOTHER_QUERY,
  CONNECT_PATHS,
  INTEGRATION_KEYS,
  CONNECT_TOO_MANY as TOO_MANY,
} from '#shared/api/auth.schema.ts';
import { contract } from '#shared/api/contract.ts';
import type { CookiePolicy } from '../cookies.ts';
import { fromContract, userViewReader } from './contract-route.ts';

type Options = {
  appUrl: string;
  cookies: CookiePolicy;
  integrations: IntegrationService;
  accounts: AccountReader;
  rateLimitPerMinute: number;
};

/**
 * Connecting Todoist, Google Calendar or Microsoft 365 (OAuth with offline access; state in a signed
 * cookie, PKCE where the provider supports it), and removing a connection.
 */
export async function integrationAuthRoutes(app: FastifyInstance, options: Options) {
  const { appUrl, cookies, integrations, accounts } = options;
  const rateLimit = { max: options.rateLimitPerMinute, timeWindow: '1 minute' };
  // Same attributes as the sign-in flow (signed, HttpOnly, Lax, /auth, 10 minutes), its own name.
  const connectFlowCookie = cookies.signInFlow;

  const currentUser = userViewReader(accounts);

  // Connecting is a browser navigation: whatever goes wrong (too many attempts, a failure of ours) lands
  // on the dashboard with a message, never on a page of raw JSON. Only these routes (this scope).
  await app.register(async (navigation) => {
    navigation.setErrorHandler(async (error: { statusCode?: number }, request, reply) => {
      const provider = INTEGRATION_KEYS.find((key) => request.url.startsWith(CONNECT_PATHS[key]));
      const where = provider ? `&provider=${provider}` : '';
      if (error.statusCode === 429) return reply.redirect(`/dashboard?connect_error=${TOO_MANY}${where}`);
      request.log.warn({ err: error, provider }, 'connect could not go on');
      return reply.redirect(`/dashboard?connect_error=${provider ?? 'failed'}`);
    });
    for (const provider of INTEGRATION_KEYS) connectRoutes(navigation, provider);
  });

  function connectRoutes(navigation: FastifyInstance, provider: IntegrationProvider) {
    const path = CONNECT_PATHS[provider];
    const redirectUri = `${appUrl}${path}/callback`;
    const failed = (reply: FastifyReply) => reply.redirect(`/dashboard?connect_error=${provider}`);

    navigation.get(path, { config: { rateLimit } }, async (request, reply) => {
      const userId = await request.signedInUserId();
      if (!userId) return reply.redirect('/login');
      let started: Awaited<ReturnType<IntegrationService['startConnect']>>;
      try {
        // Offer the account the user signed in with first; they can still pick another one.
        const email = (await accounts.currentUser(userId))?.email;
        const query = request.query as Record<string, unknown> | undefined;
        const another = provider !== 'todoist' && query?.[CONNECT_ANOTHER_QUERY] === '1';
        started = await integrations.startConnect(userId, provider, redirectUri, email || undefined, another);
      } catch (error) {
        request.log.warn({ err: error, provider, userId }, 'connect could not start');
        return failed(reply);
      }
      reply.setCookie(cookies.connectFlowName, JSON.stringify(started.flow), connectFlowCookie);
      request.log.info({ provider, userId }, 'connect started');
      return reply.redirect(started.url.toString());
    });

    navigation.get(`${path}/callback`, { config: { rateLimit } }, async (request, reply) => {
      const flow = readFlow(request, cookies);
      reply.clearCookie(cookies.connectFlowName, cookies.clear('/auth'));
      const userId = await request.signedInUserId();
      if (!userId) return reply.redirect('/login');
      if (!flow || flow.provider !== provider || flow.userId !== userId) {
        request.log.warn({ provider, userId }, 'connect callback without a matching flow');
        return failed(reply);
      }
      try {
        await integrations.completeConnect(flow, new URL(request.url, appUrl), redirectUri);
      } catch (error) {
        if (error instanceof ConnectCancelledError) {
          request.log.info({ provider, userId }, 'connect cancelled at the provider');
        } else {
          request.log.warn({ err: error, provider, userId }, 'connect failed');
        }
        return failed(reply);
      }
      request.log.info({ provider, userId }, 'connected');
      return reply.redirect(`/dashboard?connected=${provider}`);
    });
  }

  for (const provider of INTEGRATION_KEYS satisfies IntegrationProvider[]) {
    // Called by fetch from the dashboard; a GET by the spec, so held to the same-origin rule.
    app.withTypeProvider<ZodTypeProvider>().route({
      ...fromContract(contract.integrations.revoke[provider]),
      config: { rateLimit, stateChangingGet: true },
      handler: async (request) => {
        const userId = await request.requireUserId();
        await integrations.disconnect(userId, provider);
        return currentUser(userId);
      },
    });
  }
}

function readFlow(request: FastifyRequest, cookies: CookiePolicy) {
  const raw = request.cookies[cookies.connectFlowName];
  const unsigned = raw ? request.unsignCookie(raw) : undefined;
  return parseConnectFlow(unsigned?.valid ? (unsigned.value ?? undefined) : undefined);
}
