import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { users } from '#server/db/schema/users.table.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpMigratedDatabase } from '#server/test/suite-setup.ts';
import { createIntegrationRepository } from './integration.repository.ts';
import { createTokenCipher } from './token-cipher.ts';
import { reencryptTokens } from './token-rotation.ts';

const key = (byte: number) => Buffer.alloc(32, byte);
const before = createTokenCipher([{ id: 'k1', key: key(1) }]);
const after = createTokenCipher([
  { id: 'k2', key: key(2) },
  { id: 'k1', key: key(1) },
]);

/** Key rotation on the real databases: every token moves to the newest key; a token refreshed meanwhile is kept. */
for (const database of await testDatabases('token re-encryption')) {
  describe.skipIf(!database.enabled)(`token re-encryption (${database.name})`, () => {
    const opened = setUpMigratedDatabase(database);

    it('moves every token to the newest key, and never overwrites one written since it was read', async () => {
      const { db } = opened();
      const ids: string[] = [];
      for (let n = 0; n < 5; n += 1) {
        const [user] = await db
          .insert(users)
          .values({
            firstName: 'A',
            displayName: 'A',
            email: `rotate-${n}@example.com`,
            validUntil: new Date(),
          })
          .returning({ id: users.id });
        ids.push(user?.id ?? '');
        await db.insert(integrations).values({
          userId: user?.id ?? '',
          kind: 'todoist',
          provider: 'todoist',
          accessTokenEncrypted: before.encrypt(`access-${n}`),
          refreshTokenEncrypted: n === 0 ? null : before.encrypt(`refresh-${n}`),
          keyId: 'k1',
        });
      }
      const repository = createIntegrationRepository(db);
      // A refresh lands between the read and the write: the refreshed token stays.
      const [stale] = (await repository.onOtherKeys('k2', 1)).rows;
      await db
        .update(integrations)
        .set({ accessTokenEncrypted: after.encrypt('refreshed'), keyId: 'k2' })
        .where(eq(integrations.userId, stale?.userId ?? ''));
      expect(
        await repository.reencrypt(stale as NonNullable<typeof stale>, {
          accessTokenEncrypted: after.encrypt('old'),
          refreshTokenEncrypted: null,
          keyId: 'k2',
        }),
      ).toBe(false);

      const progress = await reencryptTokens(
        { integrations: repository, cipher: after, log: pino({ level: 'silent' }) },
        2,
      );
      expect(progress).toMatchObject({ reencrypted: 4, unreadable: 0, remaining: 0 });
      const rows = await db.select().from(integrations);
      expect(rows.every((row) => row.keyId === 'k2')).toBe(true);
      const newOnly = createTokenCipher([{ id: 'k2', key: key(2) }]);
      const plain = rows.map((row) => newOnly.decrypt(row.accessTokenEncrypted)).sort();
      expect(plain).toEqual(
        ['access-0', 'access-1', 'access-2', 'access-3', 'access-4', 'refreshed']
          .filter((value) =>
            value === 'refreshed' ? true : value !== `access-${ids.indexOf(stale?.userId ?? '')}`,
          )
          .sort(),
      );
    });
  });
}
