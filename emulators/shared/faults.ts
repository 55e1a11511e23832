import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * Fault injection for every emulator: rules added through `POST /_emulator/faults` make matching
 * requests slow, fail, get throttled, or hang. Control routes under `/_emulator/` are never affected.
 *
 * `lose-response` is the write-then-fail case: the request is handled in full (a create is stored,
 * a webhook sent) and only then does the client get a 5xx (`status`, default 500) or, with `drop`, a
 * connection closed without any answer. That is what a gateway timeout or a lost connection looks
 * like from the client, which then cannot tell whether its write happened.
 *
 * `late-response` is handled in full too, and its answer then waits `latencyMs`: the window in which
 * a client that is killed has written but not yet heard so (crash tests aim there).
 */
export const faultRuleSchema = z
  .object({
    kind: z.enum(['latency', 'status', 'rate-limit', 'hang', 'lose-response', 'late-response']),
    /** HTTP method to match (any when absent). */
    method: z.string().toUpperCase().optional(),
    /** Path prefix to match, or a regular expression when it starts with `^` (any when absent). */
    path: z.string().optional(),
    latencyMs: z.number().int().min(0).max(120_000).optional(),
    /** Status for `status` faults (default 500) and the body to send (default: the vendor's error body). */
    status: z.number().int().min(400).max(599).optional(),
    body: z.unknown().optional(),
    /**
     * The vendor's error reason the default body names, where the vendor documents several for one
     * status (Google's 403: rateLimitExceeded, userRateLimitExceeded, quotaExceeded…).
     */
    reason: z.string().min(1).optional(),
    retryAfterSeconds: z.number().int().min(0).optional(),
    /** How many matching requests the rule still affects; absent = until cleared. */
    times: z.number().int().positive().optional(),
    /** Matching requests to let through untouched first (the write after a read on the same path). */
    skip: z.number().int().min(0).optional(),
    /** `lose-response` only: destroy the socket instead of answering with `status`. */
    drop: z.boolean().optional(),
    /**
     * Only requests authorized with this bearer token (one client's grant) are affected: faults meant
     * for the app under test then spare a test acting as the user through its own client.
     */
    bearer: z.string().min(1).optional(),
  })
  .refine((rule) => rule.kind !== 'lose-response' || rule.status === undefined || rule.status >= 500, {
    message: 'a lost response is answered with a 5xx status',
    path: ['status'],
  });
export type FaultRuleInput = z.infer<typeof faultRuleSchema>;
export type FaultRule = FaultRuleInput & { id: number; hits: number };

export type FaultController = {
  add(rule: FaultRuleInput): FaultRule;
  /** Takes one rule away; false when there is none of that id (spent, or never added). */
  remove(id: number): boolean;
  clear(): void;
  rules(): FaultRule[];
};

export type FaultOptions = {
  /** The vendor's error body for a status (and the rule's `reason`, if any); used when a rule gives none. */
  errorBody: (status: number, reason?: string) => unknown;
};

export function installFaults(app: FastifyInstance, options: FaultOptions): FaultController {
  let rules: FaultRule[] = [];
  let nextId = 1;
  const hanging = new Set<FastifyReply>();
  /** Requests whose handler runs, but whose answer is replaced by the rule's failure or held back. */
  const losing = new WeakMap<FastifyRequest, FaultRule>();

  const matches = (rule: FaultRule, method: string, path: string, authorization: string | undefined) =>
    (!rule.bearer || authorization === `Bearer ${rule.bearer}`) &&
    (!rule.method || rule.method === method) &&
    (!rule.path ||
      (rule.path.startsWith('^') ? new RegExp(rule.path).test(path) : path.startsWith(rule.path)));

  const controller: FaultController = {
    add(input) {
      const rule = { ...input, method: input.method?.toUpperCase(), id: nextId++, hits: 0 };
      rules.push(rule);
      return rule;
    },
    remove(id) {
      const before = rules.length;
      rules = rules.filter((rule) => rule.id !== id);
      return rules.length < before;
    },
    clear() {
      rules = [];
    },
    rules: () => rules.map((rule) => ({ ...rule })),
  };

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/_emulator/')) return;
    const rule = rules.find((candidate) =>
      matches(candidate, request.method, path, request.headers.authorization),
    );
    if (!rule) return;
    if (rule.skip) {
      rule.skip -= 1;
      return;
    }
    rule.hits += 1;
    if (rule.times !== undefined && rule.hits >= rule.times) rules = rules.filter((r) => r !== rule);

    if (rule.kind === 'late-response') {
      losing.set(request, rule);
      return;
    }
    if (rule.latencyMs) await new Promise((resolve) => setTimeout(resolve, rule.latencyMs));
    switch (rule.kind) {
      case 'latency':
        return;
      case 'status': {
        const status = rule.status ?? 500;
        return reply.code(status).send(rule.body ?? options.errorBody(status, rule.reason));
      }
      case 'rate-limit':
        return reply
          .code(429)
          .header('retry-after', String(rule.retryAfterSeconds ?? 1))
          .send(rule.body ?? options.errorBody(429, rule.reason));
      case 'lose-response':
        losing.set(request, rule);
        return;
      case 'hang':
        hanging.add(reply);
        // Never answers: the client's own timeout has to deal with it. Released when the emulator closes.
        return new Promise<void>(() => {});
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const rule = losing.get(request);
    if (!rule) return payload;
    losing.delete(request);
    if (rule.kind === 'late-response') {
      await new Promise((resolve) => setTimeout(resolve, rule.latencyMs ?? 1000));
      return payload;
    }
    if (rule.drop) {
      // The write is done; the client sees the connection close before any byte of an answer.
      reply.raw.socket?.destroy();
      return payload;
    }
    const status = rule.status ?? 500;
    reply.code(status).type('application/json; charset=utf-8');
    reply.removeHeader('content-length');
    return JSON.stringify(rule.body ?? options.errorBody(status, rule.reason));
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
  app.delete<{ Params: { id: string } }>('/_emulator/faults/:id', async (request) => ({
    removed: controller.remove(Number(request.params.id)),
  }));

  return controller;
}
