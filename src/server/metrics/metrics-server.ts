import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.ts';

export type MetricsServer = { origin: string; close(): Promise<void> };

/**
 * `/metrics` (and `/healthz`) on a port of their own, in web and worker processes alike
 * (docs/decisions/015-metrics.md): the port listens on a private interface, never the public one, and
 * serves nothing else. A plain `node:http` server: no cookies, sessions or web app here.
 */
export async function startMetricsServer(
  metrics: Metrics,
  where: { host: string; port: number },
  log: Logger,
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
    } else if (path === '/metrics') {
      metrics.render().then(
        ({ contentType, body }) => {
          response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
        },
        (error: unknown) => {
          log.error({ err: error }, 'could not render the metrics');
          response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
        },
      );
    } else if (path === '/healthz') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    origin: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
