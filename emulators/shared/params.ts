/** Flattens a parsed query string or form body into single string values (the first one wins). */
export function readParams(input: unknown): Record<string, string> {
  const params: Record<string, string> = {};
  if (typeof input !== 'object' || input === null) return params;
  for (const [key, value] of Object.entries(input)) {
    const first: unknown = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') params[key] = first;
  }
  return params;
}

/** The token of an `Authorization: Bearer …` header, if there is one. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
