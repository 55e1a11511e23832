import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedPgliteDump } from '#server/test/pglite-dump.ts';
import { type Database, openDatabase } from './client.ts';
import { openPgliteThread } from './pglite-thread.ts';
import { users } from './schema/index.ts';
import { answeringRequest } from './statement-priority.ts';

/** Every kind of value the app reads, through Drizzle's raw path and through the job queue's. */
const VALUES_TEXT = `select
  timestamptz '2026-03-01 09:30:00.123+01' as at, timestamp '2026-03-01 09:30:00' as local,
  date '2026-03-01' as day, interval '90 minutes' as span, 9007199254740993::int8 as big,
  12.50::numeric as amount, '{"a":[1,{"b":null}]}'::json as doc, '{"c":true}'::jsonb as docb,
  array['x','y']::text[] as words, array[1,2]::int[] as ints,
  array[timestamptz '2026-03-01 09:30:00+00'] as ats, '\\x0102ff'::bytea as bytes, true as yes,
  gen_random_uuid() is not null as has_uuid, null::text as nothing`;
const VALUES = sql.raw(VALUES_TEXT);

const rowsOf = (result: unknown) => (result as { rows: unknown[] }).rows;

describe('the embedded database on a thread of its own', () => {
  let thread: Database;
  let here: Database;
  beforeAll(async () => {
    const dump = await migratedPgliteDump();
    thread = await openDatabase({ kind: 'pglite', dataDir: 'memory://', loadDataDir: dump }, () => {});
    here = await openDatabase(
      { kind: 'pglite', dataDir: 'memory://', loadDataDir: dump, thread: 'main' },
      () => {},
    );
  });
  afterAll(async () => {
    await Promise.all([thread?.close(), here?.close()]);
  });

  it('reads every type as PGlite on this thread does, through Drizzle and through the queue', async () => {
    const viaDrizzle = rowsOf(await thread.db.execute(VALUES));
    expect(viaDrizzle).toEqual(rowsOf(await here.db.execute(VALUES)));
    expect(viaDrizzle[0]).toMatchObject({ at: '2026-03-01 08:30:00.123+00', big: 9007199254740993n });

    const text = VALUES_TEXT;
    const viaQueue = await thread.notificationSql.executeSql(text);
    expect(viaQueue.rows).toEqual((await here.notificationSql.executeSql(text)).rows);
    expect((viaQueue.rows[0] as { at: unknown }).at).toEqual(new Date('2026-03-01T08:30:00.123Z'));
    expect((viaQueue.rows[0] as { bytes: unknown }).bytes).toEqual(new Uint8Array([1, 2, 255]));

    const user = {
      firstName: 'T',
      displayName: 'T',
      email: 't@example.com',
      googleId: 'thread-test',
      validUntil: new Date('2026-04-01T00:00:00.500Z'),
    };
    const [viaThread] = await thread.db.insert(users).values(user).returning();
    const [viaHere] = await here.db.insert(users).values(user).returning();
    const stable = (row: typeof viaThread) => ({ ...row, id: '', createdAt: null, updatedAt: null });
    expect(stable(viaThread)).toEqual(stable(viaHere));
    expect(viaThread?.updatedAt).toBeInstanceOf(Date);
    expect(viaThread?.validUntil).toEqual(user.validUntil);
  });

  it('keeps a transaction on one session: a statement sent meanwhile runs after it ends', async () => {
    await thread.db.execute(sql`create table if not exists thread_order (step text)`);
    const outside: Promise<unknown>[] = [];
    await thread.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_order values ('tx 1')`);
      outside.push(thread.db.execute(sql`insert into thread_order values ('outside')`));
      await sleep(50);
      await tx.execute(sql`insert into thread_order values ('tx 2')`);
    });
    await Promise.all(outside);
    const steps = rowsOf(await thread.db.execute(sql`select step from thread_order`));
    expect(steps).toEqual([{ step: 'tx 1' }, { step: 'tx 2' }, { step: 'outside' }]);

    const failed = await thread.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into thread_order values ('rolled back')`);
        throw new Error('no');
      })
      .catch((error: unknown) => error);
    expect(failed).toEqual(new Error('no'));
    expect(rowsOf(await thread.db.execute(sql`select count(*)::int as n from thread_order`))).toEqual([
      { n: 3 },
    ]);
  });

  it("runs a request's statements before the background's waiting, and still lets the background through", async () => {
    const done: string[] = [];
    const slow = (name: string) =>
      thread.db.execute(sql`select pg_sleep(0.005)`).then(() => void done.push(name));
    const background = Array.from({ length: 30 }, (_, index) => slow(`background ${index}`));
    // Issued after the 30 above, while answering a request: it waits for the statement in progress only.
    const request = answeringRequest(() => slow('request'));
    await Promise.all([...background, request]);
    expect(done.indexOf('request')).toBeLessThanOrEqual(2);

    // A flood of a request's statements: a waiting background statement goes after every fourth.
    done.length = 0;
    const flood = answeringRequest(() => Array.from({ length: 20 }, (_, index) => slow(`urgent ${index}`)));
    const behind = slow('background');
    await Promise.all([...flood, behind]);
    expect(done.indexOf('background')).toBeLessThanOrEqual(5);
  });

  it("holds a request's statements back while a transaction holds the database", async () => {
    const steps: string[] = [];
    let waiting: Promise<unknown> = Promise.resolve();
    await thread.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      waiting = answeringRequest(() => thread.db.execute(sql`select 2`).then(() => steps.push('request')));
      await sleep(30);
      steps.push('transaction ends');
    });
    await waiting;
    expect(steps).toEqual(['transaction ends', 'request']);
  });

  it('carries a database error with its SQLSTATE and constraint', async () => {
    const error = await thread.notificationSql
      .executeSql(
        `insert into users (id, first_name, display_name, email, valid_until)
         values ($1, 'X', 'X', 'x@example.com', now()), ($1, 'X', 'X', 'x@example.com', now())`,
        ['00000000-0000-4000-8000-000000000001'],
      )
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: '23505', constraint: 'users_pkey' });
  });

  it('delivers notifications to listeners on this thread, until they stop listening', async () => {
    if (thread.queueConnection.kind !== 'pglite') throw new Error('embedded');
    const client = thread.queueConnection.client;
    const heard: string[] = [];
    const stop = await client.listen('thread_channel', (payload) => heard.push(payload));
    await client.query(`select pg_notify('thread_channel', 'one')`);
    await expect.poll(() => heard).toEqual(['one']);
    await stop();
    await client.query(`select pg_notify('thread_channel', 'two')`);
    await client.query('select 1');
    expect(heard).toEqual(['one']);
  });
});

describe('a database thread that dies', () => {
  it('is reported once, and fails the statement in flight and every later one', async () => {
    const lost: Error[] = [];
    const client = await openPgliteThread(
      { dataDir: 'memory://', loadDataDir: null },
      (error) => lost.push(error),
      new URL('../test/dying-pglite-worker.ts', import.meta.url),
    );
    await expect(client.query('select 1')).rejects.toThrow(/exited \(code 3\)/);
    await expect(client.query('select 1')).rejects.toThrow(/exited \(code 3\)/);
    expect(lost.map((error) => error.message)).toEqual(["the embedded database's thread exited (code 3)"]);
  });

  it('that cannot open the database fails the opening, not the process', async () => {
    const lost: Error[] = [];
    const opening = openPgliteThread({ dataDir: '/proc/no-such/db', loadDataDir: null }, (error) =>
      lost.push(error),
    );
    await expect(opening).rejects.toThrow();
    expect(lost).toEqual([]);
  });
});
