import { createServer } from 'node:http';
import type { PushWatch } from './scenarios.ts';

/**
 * Listens for Google's push notifications on `port` (0: any) while the scenario runs. `address` is where
 * Google is told to send them: the listener itself for the emulator, a public HTTPS URL forwarded to the
 * port for a live account. `received` waits up to `waitMs` for the push of a change (after the channel's
 * first "sync" message) and answers the X-Goog-* headers it carried, with their resource states.
 */
export async function listenForPushes(
  port: number,
  publicAddress: string | null,
  beforeWait: () => Promise<void>,
  waitMs = 20_000,
) {
  const pushes: Record<string, string>[] = [];
  const server = createServer((request, response) => {
    const headers = Object.fromEntries(
      Object.entries(request.headers)
        .filter(([name]) => name.startsWith('x-goog-'))
        .map(([name, value]) => [name, String(value)]),
    );
    pushes.push(headers);
    response.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as { port: number }).port;
  const watch: PushWatch = {
    address: publicAddress ?? `http://127.0.0.1:${bound}/push`,
    async received() {
      await beforeWait();
      const deadline = Date.now() + waitMs;
      while (Date.now() < deadline) {
        const change = pushes.find((headers) => headers['x-goog-resource-state'] !== 'sync');
        if (change) {
          const states = pushes.map((headers) => headers['x-goog-resource-state'] ?? '?').join(', ');
          return {
            ...Object.fromEntries(
              Object.keys(change)
                .sort()
                .map((name) => [name, 'string']),
            ),
            'resource states': states,
          };
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return null;
    },
  };
  return { watch, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
