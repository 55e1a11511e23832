import { afterAll, beforeAll, beforeEach } from 'vitest';

/** What a test file needs of a running emulator: where it listens and how it stops. */
export type StartedEmulator = { origin: string; close(): Promise<unknown> };

/**
 * Starts an emulator before the file's tests (handing it to `started`), closes it after them, and
 * resets it (`POST /_emulator/reset`) before each test, so every test starts from an empty emulator.
 * A file's own `beforeEach` runs after the reset.
 */
export function setUpEmulator<E extends StartedEmulator>(
  start: () => Promise<E>,
  started: (emulator: E) => void,
): void {
  let emulator: E | undefined;
  beforeAll(async () => {
    emulator = await start();
    started(emulator);
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(async () => {
    const origin = emulator?.origin;
    const response = await fetch(`${origin}/_emulator/reset`, { method: 'POST' });
    if (!response.ok) throw new Error(`the emulator at ${origin} refused the reset: ${response.status}`);
  });
}
