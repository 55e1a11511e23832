import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '#server/errors.ts';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '#shared/validation/storable-text.ts';

/** Deeper than any request of the contract (a few levels); deeper input is refused, never walked. */
export const MAX_INPUT_DEPTH = 16;
const TOO_DEEP_MESSAGE = 'Your request is nested deeper than any request Timeboxer takes.';

/**
 * Why a request's query, path parameters or parsed body cannot be taken, or null: a string (value or
 * key) no database can store, or nesting deeper than `MAX_INPUT_DEPTH`. Walked without recursion, so no
 * input can exhaust the stack.
 */
export function unstorableInput(input: unknown): string | null {
  const pending: { value: unknown; depth: number }[] = [{ value: input, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, depth } = next;
    if (typeof value === 'string') {
      if (!isStorableText(value)) return UNSTORABLE_TEXT_MESSAGE;
      continue;
    }
    if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) continue;
    if (depth >= MAX_INPUT_DEPTH) return TOO_DEEP_MESSAGE;
    for (const [key, child] of Object.entries(value)) {
      if (!isStorableText(key)) return UNSTORABLE_TEXT_MESSAGE;
      pending.push({ value: child, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * Every request, before its route's schema: text no column can hold (NUL, half of an emoji) is refused
 * with a 400 and our message here, so it never reaches a statement, where it would fail as a 500 (and,
 * in a batch, fail its neighbours). Webhook bodies stay raw bytes (signed), and are checked by their
 * readers.
 */
export const storableInputPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    const problem =
      unstorableInput(request.params) ?? unstorableInput(request.query) ?? unstorableInput(request.body);
    if (problem) throw new AppError('bad_request', problem);
  });
});
