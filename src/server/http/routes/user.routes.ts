import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AccountReader } from '#server/domain/users/account.reader.ts';
import type { UserService } from '#server/domain/users/user.service.ts';
import { contract } from '#shared/api/contract.ts';
import { fromContract } from './contract-route.ts';

export async function userRoutes(
  app: FastifyInstance,
  { users, accounts }: { users: UserService; accounts: AccountReader },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Signed out is not an error here: the web app asks this first to learn its auth state.
  routes.route({
    ...fromContract(contract.user.current),
    handler: async (request, reply) => {
      const userId = await request.signedInUserId();
      const user = userId ? await accounts.currentUser(userId) : undefined;
      if (!user) {
        if (userId) await reply.endSession();
        // An empty body (read as null by the web app's client): sent as it is, past the response schema.
        return reply.type('application/json').send('' as unknown as null);
      }
      return user;
    },
  });

  routes.route({
    ...fromContract(contract.user.logout),
    config: { stateChangingGet: true },
    handler: async (request, reply) => {
      const userId = await request.signedInUserId();
      await reply.endSession();
      if (userId) request.log.info({ userId }, 'signed out');
      return reply.redirect('/');
    },
  });

  routes.route({
    ...fromContract(contract.user.delete),
    config: { stateChangingGet: true },
    handler: async (request, reply) => {
      const userId = await request.signedInUserId();
      if (!userId) return reply.redirect('/');
      await users.deleteAccount(userId);
      await reply.endSession();
      request.log.info({ userId }, 'account deleted');
      return reply.redirect('/');
    },
  });
}
