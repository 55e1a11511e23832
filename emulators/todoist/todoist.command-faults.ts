import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { TodoistError } from './todoist.errors.ts';
import { parseWith } from './todoist.validation.ts';

/**
 * Sync commands Todoist refuses one by one: the batch is answered 200 and the command's `sync_status` is
 * an error object (`error_tag`, `http_code`…) instead of "ok", as for an invalid argument or a task gone
 * (docs/provider-facts.md §12). An HTTP fault rule (`/_emulator/faults`) fails the whole request; these
 * rules (`/_emulator/command-faults`) refuse only the commands of a type, for one token if `bearer` says
 * so, and count what they refused (`hits`).
 */
export const commandFaultSchema = z.object({
  /** The command type refused (`item_update`, `item_add`…). */
  type: z.string().min(1),
  /** Only commands sent with this access token (the app's grant, not the user's own client). */
  bearer: z.string().min(1).optional(),
  errorTag: z.string().min(1).default('INVALID_ARGUMENT_VALUE'),
  errorCode: z.number().int().default(20),
  httpCode: z.number().int().min(400).max(599).default(400),
  error: z.string().min(1).default('Invalid argument value'),
  /** How many commands the rule still refuses; absent = until removed. */
  times: z.number().int().positive().optional(),
});
export type CommandFaultRule = z.infer<typeof commandFaultSchema> & { id: number; hits: number };

export type CommandFaults = {
  /** The refusal for a command of `type` sent with `bearer`, counted; null when no rule matches. */
  refusal(type: string, bearer: string): TodoistError | null;
  clear(): void;
};

export function registerCommandFaults(app: FastifyInstance): CommandFaults {
  let rules: CommandFaultRule[] = [];
  let nextId = 1;

  app.get('/_emulator/command-faults', async () => ({ rules: rules.map((rule) => ({ ...rule })) }));
  app.post('/_emulator/command-faults', async (request, reply) => {
    const rule = { ...parseWith(commandFaultSchema, request.body), id: nextId++, hits: 0 };
    rules.push(rule);
    return reply.code(201).send(rule);
  });
  app.delete('/_emulator/command-faults', async () => {
    rules = [];
    return { cleared: true };
  });
  app.delete<{ Params: { id: string } }>('/_emulator/command-faults/:id', async (request) => {
    const before = rules.length;
    rules = rules.filter((rule) => rule.id !== Number(request.params.id));
    return { removed: rules.length < before };
  });

  return {
    refusal(type, bearer) {
      const rule = rules.find(
        (candidate) => candidate.type === type && (!candidate.bearer || candidate.bearer === bearer),
      );
      if (!rule) return null;
      rule.hits += 1;
      if (rule.times !== undefined && rule.hits >= rule.times) rules = rules.filter((each) => each !== rule);
      return new TodoistError(rule.httpCode, rule.errorTag, rule.errorCode, rule.error);
    },
    clear() {
      rules = [];
    },
  };
}
