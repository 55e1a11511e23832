import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { GraphError } from './microsoft.errors.ts';

export type HandshakeRecord = { url: string; token: string; outcome: string; at: string };

/**
 * Handshakes the log keeps (one per subscription made: a scale run of 10,000 mailboxes makes as many,
 * and renewals more); older ones are dropped, a tenth at a time, so a long run's memory stays bounded.
 */
export const HANDSHAKES_KEPT = 20_000;

/** Adds a handshake to the log, which keeps the most recent `keep` (in place: the reset empties it). */
export function recordHandshake(log: HandshakeRecord[], entry: HandshakeRecord, keep = HANDSHAKES_KEPT) {
  log.push(entry);
  if (log.length > keep + Math.ceil(keep / 10)) log.splice(0, log.length - keep);
}

/**
 * Graph's endpoint validation: `POST <url>?validationToken=<token>` with a text/plain content type; the
 * endpoint must answer 200, `Content-Type: text/plain` and the decoded token as the body, within the time
 * limit (10 s at Graph). Throws the error Graph answers the subscription request with otherwise.
 */
export async function validateEndpoint(
  url: string,
  timeoutMs: number,
  log: HandshakeRecord[],
): Promise<void> {
  const token = `Validation: Testing client application reachability for subscription Request-Id: ${randomUUID()}`;
  const target = new URL(url);
  target.searchParams.append('validationToken', token);
  const record = (outcome: string) =>
    recordHandshake(log, { url, token, outcome, at: new Date().toISOString() });
  let response: Response;
  try {
    response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: '',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    record(timedOut ? 'timeout' : 'network-error');
    if (timedOut) throw new GraphError(400, 'InvalidRequest', 'Subscription validation request timed out.');
    throw new GraphError(
      400,
      'ValidationError',
      'Subscription validation request failed. Notification endpoint must respond with 200 OK to validation request.',
    );
  }
  const body = await response.text();
  if (response.status !== 200) {
    record(`status ${response.status}`);
    const statusName = (STATUS_CODES[response.status] ?? String(response.status)).replace(/[\s-]/g, '');
    throw new GraphError(
      400,
      'ValidationError',
      `Subscription validation request failed. HTTP status code is '${statusName}'. Notification endpoint must respond with 200 OK to validation request.`,
    );
  }
  if (!(response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/plain')) {
    record('wrong content type');
    throw new GraphError(
      400,
      'ValidationError',
      'Subscription validation request failed. Response must have the text/plain content type.',
    );
  }
  if (body !== token) {
    record('wrong token');
    throw new GraphError(
      400,
      'ValidationError',
      'Subscription validation request failed. Response must exactly match validationToken query parameter.',
    );
  }
  record('ok');
}
