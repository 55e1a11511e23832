/**
 * Group commit: calls made while a batch is being written wait, and are written together as the next
 * batch. A lone call is written at once; a burst costs a few statements per batch instead of a few per
 * call, and holds at most one database connection. Each caller gets its own result, or its own error:
 * a batch that fails is written again in halves until the inputs that fail are alone, so one input the
 * write cannot take never fails the others beside it.
 */
export function groupCommit<Input, Output>(
  write: (inputs: Input[]) => Promise<Output[]>,
  options: { maxBatch: number } = { maxBatch: 500 },
): (input: Input) => Promise<Output> {
  type Waiting = { input: Input; resolve: (output: Output) => void; reject: (error: unknown) => void };
  let waiting: Waiting[] = [];
  let writing = false;

  async function writeIsolating(batch: Waiting[]): Promise<void> {
    try {
      const outputs = await write(batch.map((entry) => entry.input));
      if (outputs.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} was written with ${outputs.length} results`);
      }
      for (const [index, entry] of batch.entries()) entry.resolve(outputs[index] as Output);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      const half = Math.ceil(batch.length / 2);
      await writeIsolating(batch.slice(0, half));
      await writeIsolating(batch.slice(half));
    }
  }

  async function drain() {
    writing = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.slice(0, options.maxBatch);
        waiting = waiting.slice(options.maxBatch);
        await writeIsolating(batch);
      }
    } finally {
      writing = false;
    }
  }

  return (input) =>
    new Promise<Output>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      if (!writing) void drain();
    });
}
