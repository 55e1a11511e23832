/**
 * Test support for the stores: makes records untouchable, so that a test shows a lookup of one user
 * never reads another user's records (as a scan of every user's would).
 */
export function untouchable<R extends object>(record: R, ...keys: (keyof R & string)[]): R {
  for (const key of keys) {
    Object.defineProperty(record, key, {
      get: () => {
        throw new Error(`read ${key} of another user's record`);
      },
    });
  }
  return record;
}
