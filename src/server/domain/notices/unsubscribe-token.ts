import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature a notice mail's "turn them off" link carries, so it works without signing in: an HMAC of
 * the user id under the server's secret. It can only switch that one user's notice mails off.
 */
const sign = (secret: string, userId: string) =>
  createHmac('sha256', secret).update(`notices-off:${userId}`).digest('base64url');

export function unsubscribeToken(secret: string, userId: string): string {
  return sign(secret, userId);
}

export function validUnsubscribeToken(secret: string, userId: string, token: string): boolean {
  const expected = Buffer.from(sign(secret, userId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
