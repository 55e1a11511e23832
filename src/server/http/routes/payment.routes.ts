import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BillingService } from '#server/domain/billing/billing.service.ts';
import type { AccountReader } from '#server/domain/users/account.repository.ts';
import { AppError } from '#server/errors.ts';
import { checkoutFormSchema, completeCheckoutSchema } from '#shared/api/payment.schema.ts';

const emptyBody = z.object({}).optional();

/** Spec §7 payment calls. The two form posts answer with a redirect to the provider's hosted page. */
export async function paymentRoutes(
  app: FastifyInstance,
  { billing, accounts }: { billing: BillingService; accounts: AccountReader },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const currentUser = async (userId: string) => {
    const user = await accounts.currentUser(userId);
    if (!user) throw new AppError('unauthorized', 'Please log in to access your account.');
    return user;
  };

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

  routes.post(
    '/api/payment/create/checkout/session',
    { schema: { body: checkoutFormSchema } },
    (request, reply) =>
      redirectToProvider(request, reply, (userId) => billing.checkoutUrl(userId, request.body.lookup_key)),
  );

  routes.post('/api/payment/customerportal', (request, reply) =>
    redirectToProvider(request, reply, (userId) => billing.portalUrl(userId)),
  );

  routes.post('/api/payment/create/customer', { schema: { body: emptyBody } }, async (request) => {
    const userId = await request.requireUserId();
    await billing.createCustomer(userId);
    return currentUser(userId);
  });

  routes.post('/api/payment/create/intent', { schema: { body: emptyBody } }, async (request) => ({
    clientSecret: await billing.createPaymentIntent(await request.requireUserId()),
  }));

  routes.post(
    '/api/payment/checkout/complete',
    { schema: { body: completeCheckoutSchema } },
    async (request) => {
      const userId = await request.requireUserId();
      await billing.completeCheckout(userId, request.body.sessionId);
      return currentUser(userId);
    },
  );
}
