import type { FastifyInstance } from 'fastify';
import type { AccountReader } from '#server/domain/users/account.repository.ts';
import type { UserService } from '#server/domain/users/user.service.ts';

export async function userRoutes(
  app: FastifyInstance,
  { users, accounts }: { users: UserService; accounts: AccountReader },
) {
  // Signed out is not an error here: the web app asks this first to learn its auth state.
  app.get('/api/current_user', async (request, reply) => {
    const userId = await request.signedInUserId();
    const user = userId ? await accounts.currentUser(userId) : undefined;
    if (!user) {
      if (userId) await reply.endSession();
      return reply.type('application/json').send('');
    }
    return user;
  });

  app.get('/api/logout', { config: { stateChangingGet: true } }, async (request, reply) => {
    const userId = await request.signedInUserId();
    await reply.endSession();
    if (userId) request.log.info({ userId }, 'signed out');
    return reply.redirect('/');
  });

  app.get('/api/delete/user', { config: { stateChangingGet: true } }, async (request, reply) => {
    const userId = await request.signedInUserId();
    if (!userId) return reply.redirect('/');
    await users.deleteAccount(userId);
    await reply.endSession();
    request.log.info({ userId }, 'account deleted');
    return reply.redirect('/');
  });
}
