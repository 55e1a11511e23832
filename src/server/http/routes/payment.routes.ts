import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { BillingService } from '#server/domain/billing/billing.service.ts';
import type { AccountReader } from '#server/domain/users/account.reader.ts';
import { contract } from '#shared/api/contract.ts';
import { fromContract, userViewReader } from './contract-route.ts';

const { subscription } = contract;

/**
 * The payment calls of docs/product-rules.md §7. The two form posts answer with a redirect to the provider's
 * hosted page.
 */
export async function paymentRoutes(
  app: FastifyInstance,
  { billing, accounts }: { billing: BillingService; accounts: AccountReader },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const currentUser = userViewReader(accounts);

  // A form post navigates the whole page, so failures come back to the profile, which explains them.
  const redirectToProvider = async (
    request: FastifyRequest,
    reply: FastifyReply,
    page: (userId: string) => Promise<string>,
  ) => {
    const userId = await request.signedInUserId();
    if (!userId) return reply.redirect('/login', 303);
    try {
      return reply.redirect(await page(userId), 303);
    } catch (error) {
      request.log.error({ err: error, userId }, 'could not open the payment page');
      return reply.redirect('/profile?payment=unavailable', 303);
    }
  };

  routes.route({
    ...fromContract(subscription.checkout),
    handler: (request, reply) =>
      redirectToProvider(request, reply, (userId) => billing.checkoutUrl(userId, request.body.lookup_key)),
  });

  routes.route({
    ...fromContract(subscription.manage),
    handler: (request, reply) => redirectToProvider(request, reply, (userId) => billing.portalUrl(userId)),
  });

  routes.route({
    ...fromContract(subscription.createCustomer),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await billing.createCustomer(userId);
      return currentUser(userId);
    },
  });

  routes.route({
    ...fromContract(subscription.createIntent),
    handler: async (request) => ({
      clientSecret: await billing.createPaymentIntent(await request.requireUserId()),
    }),
  });

  routes.route({
    ...fromContract(subscription.completeCheckout),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await billing.completeCheckout(userId, request.body.sessionId);
      return currentUser(userId);
    },
  });
}
