import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';

export type ReceivedHeaders = Record<string, string | string[] | undefined>;

/**
 * A receiver of an emulator's webhooks or push notifications for the whole file, listening on an
 * ephemeral port: `address()` is the URL of `path` (known from the file's `beforeAll` on). The body of
 * every POST to it, as text, and its headers are handed to `onPost`, which may answer a status to fail
 * the delivery with (200 otherwise).
 */
export function setUpReceiver(
  path: string,
  onPost: (body: string, headers: ReceivedHeaders) => number | undefined,
): { address(): string } {
  let receiver: FastifyInstance | undefined;
  let address = '';
  beforeAll(async () => {
    receiver = Fastify({ forceCloseConnections: true });
    // Bodies are kept as sent. Google sends `Content-Type: application/json; utf-8` with an empty body:
    // a receiver must accept that.
    receiver.removeContentTypeParser('application/json');
    receiver.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    receiver.post(path, async (request, reply) =>
      reply.code(onPost(String(request.body ?? ''), request.headers) ?? 200).send(),
    );
    await receiver.listen({ host: '127.0.0.1', port: 0 });
    address = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}${path}`;
  });
  afterAll(async () => {
    await receiver?.close();
  });
  return { address: () => address };
}
