import { afterAll, beforeAll } from 'vitest';

/**
 * Runs a file's tests with this process (the app under test) in `zone`, as a server whose own zone is
 * not its users' would be: Node reads `TZ` anew whenever it is set. The zone before is restored after
 * the file, for the next file in the same worker.
 */
export function useServerTimeZone(zone: string): void {
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.TZ;
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
}
