import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SessionService } from '#server/domain/sessions/session.service.ts';
import { AppError } from '#server/errors.ts';
import { SIGN_IN_REQUIRED } from '#shared/api/auth.schema.ts';
import type { CookiePolicy } from '../cookies.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's id, or null; resolved once per request, only when asked for. */
    signedInUserId(): Promise<string | null>;
    /** Like signedInUserId, but answers 401 when nobody is signed in. */
    requireUserId(): Promise<string>;
  }
  interface FastifyReply {
    startSession(userId: string): Promise<void>;
    endSession(): Promise<void>;
  }
}

type Options = { sessions: SessionService; cookies: CookiePolicy };

/** The 401 of every call that needs a signed-in user. */
export const signInRequired = () => new AppError('unauthorized', `${SIGN_IN_REQUIRED}.`);

export const sessionPlugin = fp(async (app: FastifyInstance, { sessions, cookies }: Options) => {
  const resolved = new WeakMap<FastifyRequest, Promise<string | null>>();

  app.decorateRequest('signedInUserId', function (this: FastifyRequest) {
    let userId = resolved.get(this);
    if (!userId) {
      const sessionId = this.cookies[cookies.sessionName];
      userId = sessionId ? sessions.resolve(sessionId) : Promise.resolve(null);
      resolved.set(this, userId);
    }
    return userId;
  });

  app.decorateRequest('requireUserId', async function (this: FastifyRequest) {
    const userId = await this.signedInUserId();
    if (!userId) throw signInRequired();
    return userId;
  });

  // Sign-in always issues a new id (no session fixation) and drops the one the browser had.
  app.decorateReply('startSession', async function (this: FastifyReply, userId: string) {
    const previous = this.request.cookies[cookies.sessionName];
    if (previous) await sessions.destroy(previous);
    const { sessionId, expiresAt } = await sessions.create(userId);
    this.setCookie(cookies.sessionName, sessionId, cookies.session(expiresAt));
    resolved.set(this.request, Promise.resolve(userId));
  });

  app.decorateReply('endSession', async function (this: FastifyReply) {
    const sessionId = this.request.cookies[cookies.sessionName];
    if (sessionId) await sessions.destroy(sessionId);
    this.clearCookie(cookies.sessionName, cookies.clear('/'));
    resolved.set(this.request, Promise.resolve(null));
  });
});
