import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * Fields a client does not know, in every JSON answer and every resource in it, while switched on (`POST
 * /_emulator/unknown-fields { "on": true }`; a reset switches it off). The providers add fields to
 * their resources over time without a new version, and their documents tell clients to ignore the
 * ones they do not know (docs/provider-facts.md §13): the model-based test plays both forms, so the app
 * is tested against answers richer than the emulators' own.
 */
export const UNKNOWN_FIELD = 'field_added_later';

/**
 * `value` with an unknown field in the answer itself and in each resource in it (an object with an
 * `id`: a task, project, label, event, calendar, subscription), at every depth. Maps keyed by the
 * client's own keys (Todoist's `sync_status` and `temp_id_mapping`, Google's extended properties) and
 * plain values (a due, a time) are left as they are: a provider adds fields, never keys of those.
 */
export function withUnknownFields(value: unknown, top = true): unknown {
  if (Array.isArray(value)) return value.map((item) => withUnknownFields(item, false));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = withUnknownFields(item, false);
  if (top || typeof copy.id === 'string' || typeof copy.id === 'number')
    copy[UNKNOWN_FIELD] = { added: true, note: 'a field this client does not know yet' };
  return copy;
}

const switchSchema = z.object({ on: z.boolean() });

/** Installs the switch and the hook that adds the fields to the emulator's JSON answers. */
export function installUnknownFields(app: FastifyInstance): { isOn(): boolean } {
  let on = false;
  app.addHook('onRequest', async (request) => {
    if (request.method === 'POST' && request.url === '/_emulator/reset') on = false;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!on || request.url.startsWith('/_emulator/') || typeof payload !== 'string') return payload;
    if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
    try {
      const richer = JSON.stringify(withUnknownFields(JSON.parse(payload)));
      reply.removeHeader('content-length');
      return richer;
    } catch {
      return payload;
    }
  });
  app.post('/_emulator/unknown-fields', async (request, reply) => {
    const parsed = switchSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ error: 'invalid control request' });
    on = parsed.data.on;
    return { on };
  });
  return { isOn: () => on };
}
