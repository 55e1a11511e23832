/**
 * Group commit: calls made while a batch is being written wait, and are written together as the next
 * batch. A lone call is written at once; a burst costs a few statements per batch instead of a few per
 * call, and holds at most one database connection. Each caller gets its own result, or its batch's
 * error.
 */
export function groupCommit<Input, Output>(
  write: (inputs: Input[]) => Promise<Output[]>,
  options: { maxBatch: number } = { maxBatch: 500 },
): (input: Input) => Promise<Output> {
  type Waiting = { input: Input; resolve: (output: Output) => void; reject: (error: unknown) => void };
  let waiting: Waiting[] = [];
  let writing = false;

  async function drain() {
    writing = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.slice(0, options.maxBatch);
        waiting = waiting.slice(options.maxBatch);
        try {
          const outputs = await write(batch.map((entry) => entry.input));
          if (outputs.length !== batch.length) {
            throw new Error(`a batch of ${batch.length} was written with ${outputs.length} results`);
          }
          for (const [index, entry] of batch.entries()) entry.resolve(outputs[index] as Output);
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
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
