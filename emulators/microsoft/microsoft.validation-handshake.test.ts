import { describe, expect, it } from 'vitest';
import { type HandshakeRecord, recordHandshake } from './microsoft.validation-handshake.ts';

const handshake = (n: number): HandshakeRecord => ({
  url: 'https://app.example/api/webhooks/microsoft',
  token: `token-${n}`,
  outcome: 'ok',
  at: new Date(n * 1000).toISOString(),
});

describe('the validation handshakes log', () => {
  it('keeps the most recent ones, dropping the oldest a tenth at a time, in the same array', () => {
    const log: HandshakeRecord[] = [];
    for (let n = 0; n < 110; n++) recordHandshake(log, handshake(n), 100);
    // Up to a tenth over the bound, nothing is dropped (no copy per handshake).
    expect(log).toHaveLength(110);
    recordHandshake(log, handshake(110), 100);
    expect(log).toHaveLength(100);
    expect(log[0]?.token).toBe('token-11');
    expect(log.at(-1)?.token).toBe('token-110');
  });
});
