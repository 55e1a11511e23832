import { describe, expect, it } from 'vitest';
import { instantOfWallClockMs } from '#emulators/shared/wall-clock.ts';
import { testDatabases } from '#server/test/databases.ts';
import { useServerTimeZone } from '#server/test/server-time-zone.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { emulatorControl, SYNCING_USERS } from '#server/test/sync-fixtures.ts';

/**
 * Dues are read in the Todoist account's zone, never in the server's (docs/provider-facts.md, "Due
 * dates"): with the server process in New York, floating and fixed dues of users in Berlin and Kolkata
 * land at the instants they mean, on Google and Microsoft, with Todoist writing its due times in the
 * documented form with six fractional digits (`2026-12-03T09:00:00.000000`).
 */

const SERVER_ZONE = 'America/New_York';
const USER_ZONES = ['Europe/Berlin', 'Asia/Kolkata'] as const;

/** An event's start as an instant, from either calendar's answer. */
function startOf(event: { start?: { dateTime?: string | null } | null }): string {
  const dateTime = event.start?.dateTime ?? '';
  // Graph answers in UTC without an offset (the test client asks for UTC); Google with one.
  return new Date(/(Z|[+-]\d{2}:\d{2})$/.test(dateTime) ? dateTime : `${dateTime}Z`).toISOString();
}

for (const database of await testDatabases('time zones')) {
  describe.skipIf(!database.enabled)(
    `dues read in the user's zone, not the server's (${database.name})`,
    () => {
      const app = setUpTestApp(database, {
        env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
        overrides: { role: 'web' },
      });
      // From here on, a zoneless string read with `new Date()` would be read in New York, hours off for
      // every user below.
      useServerTimeZone(SERVER_ZONE);

      for (const [provider, syncingUserOn] of Object.entries(SYNCING_USERS)) {
        for (const zone of USER_ZONES) {
          it(`puts a floating 9:00 and a fixed instant where they belong for a user in ${zone} (${provider})`, async () => {
            // The server is in New York: a January day there is five hours behind UTC.
            expect(new Date(2026, 0, 15, 12).getTimezoneOffset()).toBe(300);
            const email = `zone-${provider}-${zone.replace('/', '-').toLowerCase()}@example.com`;
            const user = await syncingUserOn(app(), email);
            const origin = app().emulators?.todoist.origin ?? '';
            await emulatorControl(origin, `users/${encodeURIComponent(email)}`, { timezone: zone });
            await emulatorControl(origin, 'forms', { dueFractionalSeconds: true });

            const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
            const fixed = new Date(`${day}T14:15:00Z`);
            await user.todoist.addTask({
              content: 'Floating',
              labels: ['30min'],
              dueDatetime: `${day}T09:00:00`,
            });
            const pinned = await user.todoist.addTask({
              content: 'Fixed',
              labels: ['30min'],
              dueDatetime: fixed.toISOString().replace('.000Z', 'Z'),
            });
            expect((await user.todoist.getTask(pinned.id)).due).toMatchObject({
              date: `${day}T14:15:00.000000Z`,
              timezone: zone,
            });
            await user.run();

            const starts = Object.fromEntries(
              (await user.events()).map((event) => [
                'summary' in event ? event.summary : (event as { subject: string }).subject,
                startOf(event as { start?: { dateTime?: string | null } }),
              ]),
            );
            const nine = instantOfWallClockMs(Date.parse(`${day}T09:00:00Z`), zone);
            expect(starts).toEqual({ Floating: new Date(nine).toISOString(), Fixed: fixed.toISOString() });
          });
        }
      }
    },
  );
}
