import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger.ts';

function captureLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino(loggerOptions('info'), stream), lines };
}

describe('loggerOptions', () => {
  it('logs a request without its query string, cookies or authorization', () => {
    const { logger, lines } = captureLogger();
    logger.info(
      {
        req: {
          method: 'GET',
          url: '/auth/google/callback?code=secret-code&state=secret-state',
          headers: { cookie: 'sid=secret-session', authorization: 'Bearer secret-token' },
          ip: '127.0.0.1',
        },
      },
      'incoming request',
    );
    const output = lines.join('');
    expect(output).toContain('/auth/google/callback');
    expect(output).not.toContain('secret');
  });

  it('logs a failed database query without the values it was given', async () => {
    const { DrizzleQueryError } = await import('drizzle-orm/errors');
    const { logger, lines } = captureLogger();
    const cause = Object.assign(new Error('duplicate key'), { parameters: ['ada@secret.example'] });
    const error = new DrizzleQueryError(
      'insert into "users" ("email", "first_name") values ($1, $2)',
      ['ada@secret.example', 'Secret Label'],
      cause,
    );
    logger.error({ err: error }, 'query failed');
    const output = lines.join('');
    expect(output).toContain('insert into');
    expect(output).toContain('duplicate key');
    expect(output).not.toContain('secret');
    expect(output).not.toContain('Secret Label');
  });

  it('logs a job queue error without the data PostgreSQL puts in its detail and context', async () => {
    const { DatabaseError } = (await import('pg')).default;
    const { logger, lines } = captureLogger();
    const error = Object.assign(
      new DatabaseError('duplicate key value violates unique constraint', 1, 'error'),
      {
        code: '23505',
        detail: 'Key (singleton_key)=(ada@secret.example) already exists.',
        where: 'SQL statement "insert into pgboss.job … values (\'Secret Label\')"',
        internalQuery: "select 'Secret Label'",
      },
    );
    logger.error({ err: error }, 'job queue error');
    const output = lines.join('');
    expect(output).toContain('duplicate key value violates unique constraint');
    expect(output).toContain('23505');
    expect(output).not.toContain('secret');
    expect(output).not.toContain('Secret Label');
  });

  it('redacts cookies a response sets', () => {
    const { logger, lines } = captureLogger();
    logger.info({ res: { headers: { 'set-cookie': 'sid=secret-session' } } }, 'response');
    expect(lines.join('')).not.toContain('secret-session');
  });
});
