import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { NoticeService } from '#server/domain/notices/notice.service.ts';
import { contract } from '#shared/api/contract.ts';
import { fromContract } from './contract-route.ts';

/**
 * A notice mail's "turn them off" link. Authenticated by its signature, not by a session or our own
 * origin: the page behind the link posts here, and so do mail clients' one-click unsubscribe (RFC 8058,
 * a form post from the mail provider), so the origin check is skipped.
 */
export async function noticesRoutes(app: FastifyInstance, { notices }: { notices: NoticeService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.route({
    ...fromContract(contract.notices.off),
    config: { skipCsrf: true },
    handler: async (request) => {
      await notices.turnOff(request.query.u, Number(request.query.v ?? '0'), request.query.t);
      return { ok: true as const };
    },
  });
}
