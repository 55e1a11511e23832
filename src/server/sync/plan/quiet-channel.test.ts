import { describe, expect, it } from 'vitest';
import { channelWentQuiet, PUSH_GRACE_MS } from './quiet-channel.ts';

const at = (minutes: number) => new Date(Date.parse('2026-12-04T09:00:00Z') + minutes * 60_000);
const now = at(30);

describe('a push channel gone quiet', () => {
  it('is one that never told of a change made after it last delivered and longer ago than the grace', () => {
    expect(channelWentQuiet({ changedAt: [at(10)], pushHeardAt: at(5), now })).toBe(true);
  });

  it('is not one that told of the change, however late the run that read it', () => {
    // Heard at 10:01 for a change at 10:00; the run came only at 10:30 (a quota held it back).
    expect(channelWentQuiet({ changedAt: [at(10)], pushHeardAt: at(10.02), now })).toBe(false);
  });

  it('gives a change the grace to be told of', () => {
    const recent = new Date(now.getTime() - PUSH_GRACE_MS + 1000);
    expect(channelWentQuiet({ changedAt: [recent], pushHeardAt: at(5), now })).toBe(false);
  });

  it('is not judged without a time the channel delivered, nor by changes without a time', () => {
    expect(channelWentQuiet({ changedAt: [at(10)], pushHeardAt: null, now })).toBe(false);
    expect(channelWentQuiet({ changedAt: [null], pushHeardAt: at(5), now })).toBe(false);
    expect(channelWentQuiet({ changedAt: [], pushHeardAt: at(5), now })).toBe(false);
  });

  it('is found by one silent change among told ones', () => {
    expect(channelWentQuiet({ changedAt: [at(1), at(12), null], pushHeardAt: at(5), now })).toBe(true);
  });
});
