import type { Db } from '#server/db/client.ts';
import { users } from '#server/db/schema/users.table.ts';

/**
 * Inserts a user row for each id, named after it (`<id>@example.com`), valid until `validUntil`: the
 * owners the tests of a table that references users write their rows for.
 */
export async function seedUsers(db: Db, ids: string[], validUntil: Date): Promise<void> {
  await db
    .insert(users)
    .values(
      ids.map((id) => ({ id, firstName: id, displayName: id, email: `${id}@example.com`, validUntil })),
    );
}
