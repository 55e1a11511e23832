/**
 * Faults to inject into the sync engine's provider fakes (engine-fake-todoist.ts, engine-fake-calendar.ts).
 */

/**
 * A fault on the next call of a method. `afterApplying`: the provider did the write, and its answer is
 * lost (the run sees the error, as when its process dies waiting).
 */
export type Fault<M extends string> = { method: M; error: unknown; afterApplying: boolean };

export function faults<M extends string>() {
  const pending: Fault<M>[] = [];
  return {
    add(method: M, error: unknown, options: { afterApplying?: boolean } = {}) {
      pending.push({ method, error, afterApplying: options.afterApplying ?? false });
    },
    take(method: M): Fault<M> | undefined {
      const index = pending.findIndex((fault) => fault.method === method);
      return index < 0 ? undefined : pending.splice(index, 1)[0];
    },
  };
}

/** Runs `apply` unless a fault stops it before; a lost answer throws after it. */
export async function withFault<M extends string, T>(
  fault: Fault<M> | undefined,
  apply: () => T,
): Promise<Awaited<T>> {
  if (fault && !fault.afterApplying) throw fault.error;
  const result = await apply();
  if (fault) throw fault.error;
  return result;
}

/** An HTTP error as the adapters let it through: a status the engine tells permanent refusals by. */
export const httpError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });
