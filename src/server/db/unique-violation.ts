/** True when a database error (PostgreSQL or PGlite, possibly wrapped by Drizzle) has this SQLSTATE. */
function hasCode(error: unknown, code: string): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if (typeof current === 'object' && (current as { code?: unknown }).code === code) return true;
  }
  return false;
}

/** A unique-key violation. */
export const isUniqueViolation = (error: unknown) => hasCode(error, '23505');

/** A foreign-key violation: the row referred to (a user, say) is gone. */
export const isForeignKeyViolation = (error: unknown) => hasCode(error, '23503');
