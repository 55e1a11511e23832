import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { todoSettings } from '#server/db/schema/settings.tables.ts';
import { syncProblems } from '#server/db/schema/sync.tables.ts';
import { testDatabases } from '#server/test/databases.ts';
import {
  CONTRACT_FUZZ,
  endpointsOf,
  type HostileRequest,
  hostileHeader,
  hostileRequestTo,
  hostileWebhookBody,
} from '#server/test/hostile-requests.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { eventually, syncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';
import { sameOrigin } from '#server/test/test-app.ts';
import { contract } from '#shared/api/contract.ts';
import { SYNC_PATHS } from '#shared/api/sync.schema.ts';

/**
 * Every route of the HTTP contract and every webhook, sent what an attacker would (docs/operations.md,
 * "What is validated where"): no answer is a 5xx, and the sync of a user who sent none of it goes on.
 * The seed is fixed, so CI gives the same answer for the same code; `CONTRACT_FUZZ_SEED` explores others.
 */
const { seed: SEED, runs: RUNS } = CONTRACT_FUZZ;

/** Left out: they end the attacker's own session or account, after which every call is a plain 401. */
const ENDS_THE_SESSION = new Set(['user.logout', 'user.delete']);
const endpoints = endpointsOf(contract).filter(({ name }) => !ENDS_THE_SESSION.has(name));

const WEBHOOKS = [
  SYNC_PATHS.todoistWebhook,
  SYNC_PATHS.googleWebhook,
  SYNC_PATHS.microsoftWebhook,
  SYNC_PATHS.microsoftLifecycle,
  '/api/webhooks/stripe',
];

for (const database of await testDatabases('contract fuzz')) {
  describe.skipIf(!database.enabled)(`hostile requests (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '100000' },
      overrides: { role: 'all' },
      listen: true,
    });

    it('answers no request to any route of the contract, or any webhook, with a 5xx; another user’s sync goes on', async () => {
      const victimEmail = `fuzz-victim-${database.name.toLowerCase()}@example.com`;
      const attackerEmail = `fuzz-attacker-${database.name.toLowerCase()}@example.com`;
      const victim = await syncingUser(app(), victimEmail);
      const attacker = await syncingUser(app(), attackerEmail);
      const [attackerTodoist] = await app()
        .database.db.select({ todoistUserId: todoSettings.todoistUserId })
        .from(todoSettings)
        .where(eq(todoSettings.userId, attacker.userId));
      const todoistSecret = app().emulators?.todoist.clientSecret ?? '';
      // What the attacker's own requests would name: their calendar, labels and timeboxes, any project.
      const plausible = {
        strings: [
          attackerEmail,
          victimEmail,
          '30min',
          '60min',
          '30Minutes',
          'primary',
          'keep',
          'remove',
          'calendar',
          'true',
          '2030-01-01T10:00:00.000Z',
          '#ff0000',
          'red',
        ],
      };

      const send = async (request: HostileRequest) => {
        const response = await app().server.inject({
          method: request.method,
          url: request.url,
          ...(request.payload !== undefined && { payload: request.payload }),
          headers: {
            ...sameOrigin,
            ...(request.payload !== undefined && {
              'content-type': request.contentType ?? 'application/json',
            }),
          },
          ...(request.signedIn && { cookies: attacker.cookies }),
        });
        return response;
      };
      const failures: string[] = [];
      const expectNo5xx = (what: string, statusCode: number, body: string) => {
        if (statusCode >= 500) failures.push(`${what} → ${statusCode} ${body.slice(0, 300)}`);
        expect(statusCode, `${what} → ${body.slice(0, 300)}`).toBeLessThan(500);
      };

      await fc.assert(
        fc.asyncProperty(
          fc
            .constantFrom(...endpoints)
            .chain(({ name, endpoint }) =>
              hostileRequestTo(endpoint, plausible).map((request) => ({ name, request })),
            ),
          async ({ name, request }) => {
            const response = await send(request);
            expectNo5xx(
              `${name}: ${request.method} ${request.url.slice(0, 200)}`,
              response.statusCode,
              response.body,
            );
          },
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );

      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...WEBHOOKS),
          hostileWebhookBody,
          fc.record({ channel: hostileHeader, token: hostileHeader, state: hostileHeader }),
          fc.boolean(),
          async (url, body, header, signed) => {
            // A Todoist webhook signed with the app's secret reaches the parsing behind the signature.
            const signature = createHmac('sha256', todoistSecret).update(body).digest('base64');
            const response = await app().server.inject({
              method: 'POST',
              url,
              payload: body,
              headers: {
                'content-type': 'application/json',
                'x-goog-channel-id': header.channel,
                'x-goog-channel-token': header.token,
                'x-goog-resource-state': header.state,
                'stripe-signature': header.token,
                ...(signed && { 'x-todoist-hmac-sha256': signature }),
              },
            });
            expectNo5xx(`POST ${url} ${body.slice(0, 200)}`, response.statusCode, response.body);
          },
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      expect(failures).toEqual([]);
      expect(attackerTodoist?.todoistUserId).toBeTruthy();

      // Beside all of that, the victim's task still becomes an event and nothing asks them to act.
      const due = tomorrowAt(10);
      await victim.addTask('Still in sync', due.day, 10, ['30min']);
      await eventually(async () =>
        expect((await victim.events()).map((event) => event.summary)).toEqual(['Still in sync']),
      );
      const problems = await app()
        .database.db.select()
        .from(syncProblems)
        .where(eq(syncProblems.userId, victim.userId));
      expect(problems).toEqual([]);
    }, 240_000);
  });
}
