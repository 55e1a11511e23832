import type { z } from 'zod';
import type { Need } from './todoist.auth.ts';
import { parseWith } from './todoist.validation.ts';

/** A Sync command type: the scope it needs, and what it does with its arguments (the id it creates, if any). */
export type Handler = { need: Need; run: (args: unknown) => string | undefined };

export function command<S extends z.ZodType>(
  need: Need,
  schema: S,
  run: (args: z.infer<S>) => string | undefined,
): Handler {
  return { need, run: (args) => run(parseWith(schema, args)) };
}
