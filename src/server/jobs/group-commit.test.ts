import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.ts';

/** A batch write whose end the test decides; it answers each input doubled. */
function controlledWrites() {
  const batches: { inputs: number[]; finish: () => void; fail: (error: Error) => void }[] = [];
  const write = (inputs: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      batches.push({ inputs, finish: () => resolve(inputs.map((input) => input * 2)), fail: reject });
    });
  return { batches, write };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('groupCommit', () => {
  it('writes a lone call at once, and everything asked meanwhile as the next batch', async () => {
    const { batches, write } = controlledWrites();
    const submit = groupCommit(write);
    const first = submit(1);
    await settle();
    expect(batches.map((batch) => batch.inputs)).toEqual([[1]]);

    const rest = [submit(2), submit(3), submit(4)];
    await settle();
    expect(batches).toHaveLength(1);
    batches[0]?.finish();
    expect(await first).toBe(2);
    await settle();
    expect(batches.map((batch) => batch.inputs)).toEqual([[1], [2, 3, 4]]);
    batches[1]?.finish();
    expect(await Promise.all(rest)).toEqual([4, 6, 8]);
  });

  it('splits a queue longer than the largest batch', async () => {
    const { batches, write } = controlledWrites();
    const submit = groupCommit(write, { maxBatch: 2 });
    const all = [submit(1), submit(2), submit(3), submit(4), submit(5)];
    await settle();
    batches[0]?.finish();
    await settle();
    batches[1]?.finish();
    await settle();
    batches[2]?.finish();
    expect(await Promise.all(all)).toEqual([2, 4, 6, 8, 10]);
    expect(batches.map((batch) => batch.inputs)).toEqual([[1], [2, 3], [4, 5]]);
  });

  it("fails a batch's callers with its error, and goes on with the next batch", async () => {
    const { batches, write } = controlledWrites();
    const submit = groupCommit(write);
    const first = submit(1);
    const second = submit(2);
    await settle();
    batches[0]?.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settle();
    batches[1]?.finish();
    expect(await second).toBe(4);
    const later = submit(3);
    await settle();
    batches[2]?.finish();
    expect(await later).toBe(6);
  });

  it('writes a failed batch again in halves, so only the input the write cannot take fails', async () => {
    const written: number[][] = [];
    const submit = groupCommit(async (inputs: number[]) => {
      written.push(inputs);
      if (inputs.includes(13)) throw new Error('13 cannot be written');
      return inputs.map((input) => input * 2);
    });
    const blocker = submit(0);
    const burst = [1, 2, 13, 4, 5].map((input) => submit(input).catch((error: Error) => error.message));
    expect(await blocker).toBe(0);
    expect(await Promise.all(burst)).toEqual([2, 4, '13 cannot be written', 8, 10]);
    expect(written).toEqual([[0], [1, 2, 13, 4, 5], [1, 2, 13], [1, 2], [13], [4, 5]]);
  });

  it('fails every caller of a batch the write cannot take at all, each with the error', async () => {
    const submit = groupCommit(async (_inputs: number[]): Promise<number[]> => {
      throw new Error('connection lost');
    });
    const all = [submit(1), submit(2), submit(3)].map((call) => call.catch((error: Error) => error.message));
    expect(await Promise.all(all)).toEqual(['connection lost', 'connection lost', 'connection lost']);
  });

  it('refuses a write that answers a different number of results', async () => {
    const submit = groupCommit(async (inputs: number[]) => inputs.slice(1));
    await expect(submit(1)).rejects.toThrow('a batch of 1 was written with 0 results');
  });
});
