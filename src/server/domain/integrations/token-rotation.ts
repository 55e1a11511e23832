import type { Logger } from 'pino';
import type { IntegrationRepository } from './integration.repository.ts';
import { type TokenCipher, TokenCipherError } from './token-cipher.ts';

export type RotationProgress = {
  reencrypted: number;
  skipped: number;
  unreadable: number;
  remaining: number;
};

/**
 * Re-encrypts every stored provider token under the first key of TOKEN_ENCRYPTION_KEYS (key rotation,
 * docs/operations.md), a batch at a time, logging its progress; afterwards no row needs an older key,
 * which can then be removed. A token refreshed meanwhile is left alone (it is on the new key already).
 * A token whose key is no longer configured cannot be read: it is counted and left (its user must
 * connect again), never deleted.
 */
export async function reencryptTokens(
  deps: {
    integrations: Pick<IntegrationRepository, 'onOtherKeys' | 'reencrypt'>;
    cipher: TokenCipher;
    log: Logger;
  },
  batchSize = 100,
): Promise<RotationProgress> {
  const { integrations, cipher, log } = deps;
  const progress: RotationProgress = { reencrypted: 0, skipped: 0, unreadable: 0, remaining: 0 };
  // Rows not to ask for again: unreadable, or changed under us by a process still on an older key.
  const leftAlone = new Set<string>();
  for (;;) {
    const { rows, remaining } = await integrations.onOtherKeys(
      cipher.currentKeyId,
      batchSize + leftAlone.size,
    );
    const batch = rows.filter((row) => !leftAlone.has(row.id));
    progress.remaining = remaining - leftAlone.size;
    if (batch.length === 0) break;
    log.info(
      { ...progress, keyId: cipher.currentKeyId },
      'provider tokens: re-encrypting under the newest key',
    );
    for (const row of batch.slice(0, batchSize)) {
      try {
        const written = await integrations.reencrypt(row, {
          accessTokenEncrypted: cipher.encrypt(cipher.decrypt(row.accessTokenEncrypted)),
          refreshTokenEncrypted:
            row.refreshTokenEncrypted === null
              ? null
              : cipher.encrypt(cipher.decrypt(row.refreshTokenEncrypted)),
          keyId: cipher.currentKeyId,
        });
        if (written) progress.reencrypted += 1;
        else {
          progress.skipped += 1;
          leftAlone.add(row.id);
        }
      } catch (error) {
        if (!(error instanceof TokenCipherError)) throw error;
        leftAlone.add(row.id);
        progress.unreadable += 1;
        log.warn(
          { userId: row.userId, kind: row.kind, keyId: row.keyId, err: error },
          'provider token unreadable; left as it is',
        );
      }
    }
  }
  progress.remaining = 0;
  log.info(
    { ...progress, keyId: cipher.currentKeyId },
    'provider tokens: every readable token is on the newest key',
  );
  return progress;
}
