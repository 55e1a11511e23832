import type { z } from 'zod';
import { errors } from './todoist.errors.ts';

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Parses a body with zod, answering like Todoist: ARGUMENT_MISSING or INVALID_ARGUMENT_VALUE naming the argument. */
export function parseWith<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const argument = issue?.path.map(String).join('.') || 'body';
  if (issue && issue.path.length > 0 && valueAt(input, issue.path) === undefined)
    throw errors.missing(argument);
  throw errors.invalid(argument, issue?.message);
}

export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
