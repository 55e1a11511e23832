/**
 * One kind of record (tasks, labels, projects) by id, with each user's kept apart too: a request reads
 * its user's records without going through every user's (the benchmark seeds thousands of users).
 * Records are never removed (deleting marks them `isDeleted`), only all of them on reset.
 */
export class UserRecords<R extends { id: string; userId: string }> {
  #all = new Map<string, R>();
  #byUser = new Map<string, Map<string, R>>();

  get(id: string): R | undefined {
    return this.#all.get(id);
  }

  /** Stores a record under its id; a user's records keep the order they were first added in. */
  add(record: R): void {
    const previous = this.#all.get(record.id);
    if (previous && previous.userId !== record.userId) this.#byUser.get(previous.userId)?.delete(record.id);
    this.#all.set(record.id, record);
    let own = this.#byUser.get(record.userId);
    if (!own) {
      own = new Map();
      this.#byUser.set(record.userId, own);
    }
    own.set(record.id, record);
  }

  /** The user's records, in the order they were added. */
  of(userId: string): R[] {
    const own = this.#byUser.get(userId);
    return own ? [...own.values()] : [];
  }

  /** Every user's records, in the order they were added (the state view). */
  values(): R[] {
    return [...this.#all.values()];
  }

  clear(): void {
    this.#all.clear();
    this.#byUser.clear();
  }
}
