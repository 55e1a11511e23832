import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature a notice mail's "turn them off" link carries, so it works without signing in: an HMAC of
 * the user id and the link version under the server's secret. It can only switch that one user's notice
 * mails off, and only while their link version is still the one signed (switching the mails on again
 * moves it on). Version 0 signs the user id alone, as links did before they carried a version, so the
 * links already in inboxes keep working until the mails are switched on again.
 */
const sign = (secret: string, userId: string, version: number) =>
  createHmac('sha256', secret)
    .update(version === 0 ? `notices-off:${userId}` : `notices-off:${userId}:v${version}`)
    .digest('base64url');

export function unsubscribeToken(secret: string, userId: string, version: number): string {
  return sign(secret, userId, version);
}

export function validUnsubscribeToken(
  secret: string,
  userId: string,
  version: number,
  token: string,
): boolean {
  const expected = Buffer.from(sign(secret, userId, version));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
