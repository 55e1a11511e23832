/**
 * On Ctrl-C (or SIGTERM), `cleanUp` runs once (stop the processes, drop the benchmark's database) before
 * the benchmark exits, so an interrupted run leaves no database or process behind.
 */
export function cleanUpOnInterrupt(cleanUp: () => Promise<unknown>): void {
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    console.error('interrupted: stopping the app and the emulators, removing the database');
    void cleanUp()
      .catch((error: unknown) => console.error('cleaning up after the interruption failed:', error))
      .finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}
