import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { UNSTORABLE_TEXT_MESSAGE } from '#shared/validation/storable-text.ts';
import { errorsPlugin } from './errors.plugin.ts';
import { MAX_INPUT_DEPTH, storableInputPlugin, unstorableInput } from './storable-input.plugin.ts';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = { next: value };
  return value;
};

describe('unstorableInput', () => {
  it('takes well-formed text at any place, line breaks and emoji included', () => {
    expect(unstorableInput({ label: 'Focus 😀', notes: ['one\ntwo'], count: 3, none: null })).toBeNull();
    expect(unstorableInput(nested(MAX_INPUT_DEPTH - 1))).toBeNull();
  });

  it('refuses NUL and lone surrogates in values and keys, however deep', () => {
    expect(unstorableInput({ calendarId: 'a\u0000b' })).toBe(UNSTORABLE_TEXT_MESSAGE);
    expect(unstorableInput({ list: [{ label: '\ud800' }] })).toBe(UNSTORABLE_TEXT_MESSAGE);
    expect(unstorableInput({ 'key\udfff': 'x' })).toBe(UNSTORABLE_TEXT_MESSAGE);
  });

  it('refuses nesting deeper than any request, without walking it recursively', () => {
    expect(unstorableInput(nested(MAX_INPUT_DEPTH + 1))).toMatch(/nested deeper/);
    expect(unstorableInput(nested(100_000))).toMatch(/nested deeper/);
  });
});

describe('storableInputPlugin', () => {
  it('answers 400 with our message before a route sees unstorable query, path or body text', async () => {
    const app = Fastify({ logger: false });
    await app.register(errorsPlugin);
    await app.register(storableInputPlugin);
    let reached = 0;
    app.post('/items/:id', async () => {
      reached += 1;
      return { ok: true };
    });
    const post = (url: string, payload: unknown) =>
      app.inject({ method: 'POST', url, payload: payload as object });

    const refused = await Promise.all([
      post('/items/a%00b', { name: 'x' }),
      post('/items/1?calendarId=a%00b', { name: 'x' }),
      post('/items/1', { name: '\ud800' }),
    ]);
    for (const answer of refused) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ error: 'bad_request', message: UNSTORABLE_TEXT_MESSAGE });
    }
    expect(reached).toBe(0);
    expect((await post('/items/1', { name: 'Café 😀' })).json()).toEqual({ ok: true });
    expect(reached).toBe(1);
    await app.close();
  });
});
