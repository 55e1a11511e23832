import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * Fault injection for every emulator: rules added through `POST /_emulator/faults` make matching
 * requests slow, fail, get throttled, or hang. Control routes under `/_emulator/` are never affected.
 */
export const faultRuleSchema = z.object({
  kind: z.enum(['latency', 'status', 'rate-limit', 'hang']),
  /** HTTP method to match (any when absent). */
  method: z.string().toUpperCase().optional(),
  /** Path prefix to match, or a regular expression when it starts with `^` (any when absent). */
  path: z.string().optional(),
  latencyMs: z.number().int().min(0).max(120_000).optional(),
  /** Status for `status` faults (default 500) and the body to send (default: the vendor's error body). */
  status: z.number().int().min(400).max(599).optional(),
  body: z.unknown().optional(),
  retryAfterSeconds: z.number().int().min(0).optional(),
  /** How many matching requests the rule still affects; absent = until cleared. */
  times: z.number().int().positive().optional(),
});
export type FaultRuleInput = z.infer<typeof faultRuleSchema>;
export type FaultRule = FaultRuleInput & { id: number; hits: number };

export type FaultController = {
  add(rule: FaultRuleInput): FaultRule;
  clear(): void;
  rules(): FaultRule[];
};

export type FaultOptions = {
  /** The vendor's error body for a status; used when a rule gives none. */
  errorBody: (status: number) => unknown;
};

export function installFaults(app: FastifyInstance, options: FaultOptions): FaultController {
  let rules: FaultRule[] = [];
  let nextId = 1;
  const hanging = new Set<FastifyReply>();

  const matches = (rule: FaultRule, method: string, path: string) =>
    (!rule.method || rule.method === method) &&
    (!rule.path ||
      (rule.path.startsWith('^') ? new RegExp(rule.path).test(path) : path.startsWith(rule.path)));

  const controller: FaultController = {
    add(input) {
      const rule = { ...input, method: input.method?.toUpperCase(), id: nextId++, hits: 0 };
      rules.push(rule);
      return rule;
    },
    clear() {
      rules = [];
    },
    rules: () => rules.map((rule) => ({ ...rule })),
  };

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/_emulator/')) return;
    const rule = rules.find((candidate) => matches(candidate, request.method, path));
    if (!rule) return;
    rule.hits += 1;
    if (rule.times !== undefined && rule.hits >= rule.times) rules = rules.filter((r) => r !== rule);

    if (rule.latencyMs) await new Promise((resolve) => setTimeout(resolve, rule.latencyMs));
    switch (rule.kind) {
      case 'latency':
        return;
      case 'status': {
        const status = rule.status ?? 500;
        return reply.code(status).send(rule.body ?? options.errorBody(status));
      }
      case 'rate-limit':
        return reply
          .code(429)
          .header('retry-after', String(rule.retryAfterSeconds ?? 1))
          .send(rule.body ?? options.errorBody(429));
      case 'hang':
        hanging.add(reply);
        // Never answers: the client's own timeout has to deal with it. Released when the emulator closes.
        return new Promise<void>(() => {});
    }
  });

  app.addHook('preClose', async () => {
    for (const reply of hanging) reply.raw.socket?.destroy();
    hanging.clear();
  });

  app.get('/_emulator/faults', async () => ({ rules: controller.rules() }));
  app.post('/_emulator/faults', async (request, reply) => {
    const parsed = faultRuleSchema.safeParse(request.body);
    if (!parsed.success)
      return reply.code(400).send({ error: 'invalid fault rule', issues: parsed.error.issues });
    return reply.code(201).send(controller.add(parsed.data));
  });
  app.delete('/_emulator/faults', async () => {
    controller.clear();
    return { cleared: true };
  });

  return controller;
}
