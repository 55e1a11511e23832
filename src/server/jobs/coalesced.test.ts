import { describe, expect, it } from 'vitest';
import { coalesced } from './job-queue.ts';

/** A call whose end the test decides. */
function controlledCalls() {
  const calls: { key: string; finish: () => void; fail: (error: Error) => void }[] = [];
  const call = (key: string) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ key, finish: resolve, fail: reject });
    });
  return { calls, call };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('coalesced', () => {
  it('makes one call at a time per key, and one more after it for everything asked meanwhile', async () => {
    const { calls, call } = controlledCalls();
    const requests = coalesced(call);
    const first = requests.request('user-1');
    const second = requests.request('user-1');
    const third = requests.request('user-1');
    await settle();
    expect(calls.map((entry) => entry.key)).toEqual(['user-1']);

    let secondDone = false;
    void second.then(() => {
      secondDone = true;
    });
    calls[0]?.finish();
    await first;
    await settle();
    // The call that covers the second and third requests started only after they asked.
    expect(calls).toHaveLength(2);
    expect(secondDone).toBe(false);
    calls[1]?.finish();
    await Promise.all([second, third]);
    expect(calls).toHaveLength(2);
  });

  it('keeps keys apart', async () => {
    const { calls, call } = controlledCalls();
    const requests = coalesced(call);
    void requests.request('user-1');
    void requests.request('user-2');
    await settle();
    expect(calls.map((entry) => entry.key)).toEqual(['user-1', 'user-2']);
  });

  it('makes the next call after a failed one, and hands the failure only to its own callers', async () => {
    const { calls, call } = controlledCalls();
    const requests = coalesced(call);
    const first = requests.request('user-1');
    const second = requests.request('user-1');
    calls[0]?.fail(new Error('queue unavailable'));
    await expect(first).rejects.toThrow('queue unavailable');
    await settle();
    expect(calls).toHaveLength(2);
    calls[1]?.finish();
    await expect(second).resolves.toBeUndefined();
    // Nothing in flight any more: a new request makes a call at once.
    void requests.request('user-1');
    await settle();
    expect(calls).toHaveLength(3);
  });
});
