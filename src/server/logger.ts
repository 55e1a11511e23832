import { type LoggerOptions, stdSerializers } from 'pino';

type RequestLike = { method: string; url: string; headers: Record<string, unknown>; ip?: string };

/** A failed query names its bound values (labels, e-mails, user ids) after `params:`. */
const QUERY_PARAMS = /\nparams: [\s\S]*?(?=\n {4}at |$)/;

/**
 * Fields of an error that hold a statement's data: the bound values, and PostgreSQL's `detail`
 * ("Key (email)=(ada@example.com) already exists."), `where` (the context, with values) and
 * `internalQuery`, as pg and pg-boss pass them on.
 */
const DATA_FIELDS = new Set(['params', 'parameters', 'detail', 'where', 'internalQuery']);

/** An error as logged, without the values a failed database query was given, at any depth of causes. */
function withoutQueryParams(value: unknown, depth = 0): unknown {
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (DATA_FIELDS.has(key)) copy[key] = '[redacted]';
    else if ((key === 'message' || key === 'stack') && typeof field === 'string') {
      copy[key] = field.replace(QUERY_PARAMS, '\nparams: [redacted]');
    } else copy[key] = withoutQueryParams(field, depth + 1);
  }
  return copy;
}

/**
 * pino options: never a cookie, an authorization header or a query string in the logs
 * (OAuth callbacks carry codes in the query), nor the values of a failed database query.
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
      err: (error: Error) => withoutQueryParams(stdSerializers.err(error)),
      req: (request: RequestLike) => ({
        method: request.method,
        url: request.url.split('?')[0],
        remoteAddress: request.ip,
      }),
    },
  };
}
