import type { LoggerOptions } from 'pino';

type RequestLike = { method: string; url: string; headers: Record<string, unknown>; ip?: string };

/**
 * pino options: never a cookie, an authorization header or a query string in the logs
 * (OAuth callbacks carry codes in the query).
 */
export function loggerOptions(level: string, format: 'json' | 'pretty' = 'json'): LoggerOptions {
  return {
    level,
    ...(format === 'pretty' && {
      transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } },
    }),
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: RequestLike) => ({
        method: request.method,
        url: request.url.split('?')[0],
        remoteAddress: request.ip,
      }),
    },
  };
}
