/** One part of the app to close: named while it is awaited, or a quick call that waits for nothing. */
export type CloseStep = { name: string; close: () => unknown } | (() => void);

/**
 * Closes the app's parts once, in order (later calls get the same promise), and says which part a
 * close in progress waits for now, so a shutdown that overruns names it.
 */
export function createShutdown(steps: readonly CloseStep[]) {
  let closing: Promise<void> | undefined;
  let closingStep: string | null = null;
  return {
    close: (): Promise<void> => {
      closing ??= (async () => {
        for (const step of steps) {
          if (typeof step === 'function') step();
          else {
            closingStep = step.name;
            await step.close();
          }
        }
        closingStep = null;
      })();
      return closing;
    },
    closingStep: () => closingStep,
  };
}
