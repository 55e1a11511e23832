import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { inMemoryIntegrations } from '../testing/in-memory-integrations.ts';
import { createTokenCipher } from './token-cipher.ts';
import { reencryptTokens } from './token-rotation.ts';

const key = (byte: number) => Buffer.alloc(32, byte);
const oldCipher = createTokenCipher([{ id: 'k1', key: key(1) }]);
const lostCipher = createTokenCipher([{ id: 'k0', key: key(9) }]);
const rotated = createTokenCipher([
  { id: 'k2', key: key(2) },
  { id: 'k1', key: key(1) },
]);
const log = pino({ level: 'silent' });

describe('re-encrypting provider tokens under the newest key', () => {
  it('moves every readable token to the first key, in batches, and leaves the unreadable ones as they are', async () => {
    const integrations = inMemoryIntegrations();
    const now = new Date('2026-07-15T06:00:00Z');
    for (let n = 0; n < 7; n += 1) {
      await integrations.connect(
        {
          userId: `user-${n}`,
          kind: 'todoist',
          provider: 'todoist',
          accountId: null,
          accessTokenEncrypted: oldCipher.encrypt(`access-${n}`),
          refreshTokenEncrypted: n % 2 === 0 ? oldCipher.encrypt(`refresh-${n}`) : null,
          keyId: 'k1',
          expiresAt: null,
        },
        now,
      );
    }
    // A token under a key no longer configured: its user must connect again; it is never deleted.
    await integrations.connect(
      {
        userId: 'user-lost',
        kind: 'calendar',
        provider: 'google',
        accountId: null,
        accessTokenEncrypted: lostCipher.encrypt('lost'),
        refreshTokenEncrypted: null,
        keyId: 'k0',
        expiresAt: null,
      },
      now,
    );

    const progress = await reencryptTokens({ integrations, cipher: rotated, log }, 3);
    expect(progress).toEqual({ reencrypted: 7, skipped: 0, unreadable: 1, remaining: 0 });
    for (let n = 0; n < 7; n += 1) {
      const row = integrations.rows.get(`user-${n}:todoist`);
      expect(row?.keyId).toBe('k2');
      expect(rotated.keyIdOf(row?.accessTokenEncrypted ?? '')).toBe('k2');
      expect(rotated.decrypt(row?.accessTokenEncrypted ?? '')).toBe(`access-${n}`);
      if (n % 2 === 0) expect(rotated.decrypt(row?.refreshTokenEncrypted ?? '')).toBe(`refresh-${n}`);
      // Readable with the new key alone: the old one can go.
      expect(createTokenCipher([{ id: 'k2', key: key(2) }]).decrypt(row?.accessTokenEncrypted ?? '')).toBe(
        `access-${n}`,
      );
    }
    expect(integrations.rows.get('user-lost:calendar')?.keyId).toBe('k0');
    // Run again: nothing left to do.
    expect(await reencryptTokens({ integrations, cipher: rotated, log }, 3)).toMatchObject({
      reencrypted: 0,
    });
  });
});
