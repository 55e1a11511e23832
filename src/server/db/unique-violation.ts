/** True when a database error (PostgreSQL or PGlite, possibly wrapped by Drizzle) is a unique-key violation. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if (typeof current === 'object' && (current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
