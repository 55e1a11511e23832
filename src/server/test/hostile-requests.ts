import fc from 'fast-check';
import { z } from 'zod';
import type { Endpoint } from '#shared/api/endpoint.ts';

/**
 * Requests an attacker would send, built from the HTTP contract's own schemas: each endpoint's keys
 * (body, query, params) with values from a pool of hostile ones, wrong types, prototype keys and deep
 * nesting. Test support for `http/contract-fuzz.integration.test.ts`.
 */

/** The fuzz test's seed and runs: fixed, so CI gives one answer per code; set them to explore others. */
export const CONTRACT_FUZZ = {
  seed: Number(process.env.CONTRACT_FUZZ_SEED ?? 20261201),
  runs: Number(process.env.CONTRACT_FUZZ_RUNS ?? 500),
};

/** Every endpoint of the contract, found by walking it, with the path of names that reach it. */
export function endpointsOf(tree: object, prefix = ''): { name: string; endpoint: Endpoint }[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && 'method' in value && 'path' in value) {
      return [{ name, endpoint: value as Endpoint }];
    }
    return value && typeof value === 'object' ? endpointsOf(value, name) : [];
  });
}

/** What a schema says about an object's keys: their names and the literal values it names for each. */
function keysOf(schema: z.ZodType | undefined, found = new Map<string, string[]>()): Map<string, string[]> {
  if (!schema) return found;
  if (schema instanceof z.ZodObject) {
    for (const [key, value] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      found.set(key, [...(found.get(key) ?? []), ...literalsOf(value)]);
    }
  } else if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    keysOf(schema.unwrap() as z.ZodType, found);
  } else if (schema instanceof z.ZodPipe) {
    keysOf(schema.in as z.ZodType, found);
  } else if (schema instanceof z.ZodUnion) {
    for (const option of schema.options as z.ZodType[]) keysOf(option, found);
  }
  return found;
}

/** The enum and literal values a schema accepts, so that generated requests also reach past the enums. */
function literalsOf(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodEnum) return (schema.options as unknown[]).map(String);
  if (schema instanceof z.ZodLiteral) return [...schema.values].map(String);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return literalsOf(schema.unwrap() as z.ZodType);
  }
  return [];
}

const LONG = 'x'.repeat(100_000);

/** Strings a well-meaning client never sends. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'half \udc00 an emoji',
    '\u202e\u0007\u001b[31m',
    '\uFEFF30',
    LONG,
    '',
    ' ',
    '../../etc/passwd',
    '%00',
    '<script>alert(1)</script>',
    "' or 1=1 --",
    '{{7*7}} #{7*7}',
    '__proto__',
    'constructor',
    '1e309',
    '-1',
    '0x1E',
    'true',
    'null',
    '30Minutes',
    'primary',
  ),
  fc.string({ maxLength: 40, unit: 'binary' }),
);

/** JSON of every type, the wrong one for most fields. */
const hostileLeaf = fc.oneof(
  hostileString,
  fc.constantFrom(0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER + 2, true, false, null),
  fc.integer(),
);

/** `depth` arrays inside each other: a stack-depth attack on parsers and validators. */
const deeplyNested = fc.integer({ min: 30, max: 3000 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
});

/** An object with keys that pollute prototypes when merged carelessly. */
const prototypeKeys = hostileLeaf.map((value) => {
  const polluted: Record<string, unknown> = { constructor: { prototype: { polluted: value } } };
  Object.defineProperty(polluted, '__proto__', { value: { polluted: value }, enumerable: true });
  return polluted;
});

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileLeaf },
  { weight: 1, arbitrary: fc.array(hostileLeaf, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileLeaf, { maxKeys: 4 }) },
  { weight: 1, arbitrary: deeplyNested },
  { weight: 1, arbitrary: prototypeKeys },
);

/** Strings that mean something to the app: ids, labels and addresses a real request would carry. */
export type Plausible = { strings: string[] };

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  element?: z.ZodType;
  format?: string;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/**
 * Values the schema accepts, or near it (zod's definition read as a generator): each request that is
 * almost right reaches past the schema into the services, where a 500 would hide.
 */
export function validFor(schema: z.ZodType | undefined, plausible: Plausible): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant(undefined);
  const def = defOf(schema);
  const text = fc.oneof(fc.constantFrom(...plausible.strings), fc.string({ maxLength: 20 }));
  switch (def.type) {
    case 'object':
      return fc.record(
        Object.fromEntries(
          Object.entries(def.shape ?? {}).map(([key, value]) => [key, validFor(value, plausible)]),
        ),
      );
    case 'optional':
      return fc.option(validFor(def.innerType, plausible), { nil: undefined });
    case 'nullable':
      return fc.option(validFor(def.innerType, plausible), { nil: null });
    case 'default':
    case 'readonly':
      return validFor(def.innerType, plausible);
    case 'pipe':
      return validFor(def.in, plausible);
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => validFor(option, plausible)));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? { none: '' }));
    case 'literal':
      return fc.constantFrom(...(def.values ?? [null]));
    case 'boolean':
      return fc.boolean();
    case 'number':
      return fc.integer({ min: -2, max: 2000 });
    case 'array':
      return fc.array(validFor(def.element, plausible), { maxLength: 3 });
    case 'string':
      return def.format === 'email'
        ? fc.constantFrom(...plausible.strings.filter((s) => s.includes('@')))
        : text;
    default:
      return fc.oneof(text, fc.integer({ min: 0, max: 1500 }), fc.boolean());
  }
}

/** A valid-looking object with one of its fields made hostile: the most telling request of all. */
function oneFieldWrong(schema: z.ZodType | undefined, plausible: Plausible) {
  const keys = [...keysOf(schema).keys()];
  const valid = validFor(schema, plausible);
  if (keys.length === 0) return valid;
  return fc
    .tuple(valid, fc.constantFrom(...keys), hostileValue)
    .map(([value, key, wrong]) => (value && typeof value === 'object' ? { ...value, [key]: wrong } : value));
}

/** A value for one key: one the schema names (an enum's), or a hostile one. */
const valueFor = (literals: string[]) =>
  literals.length > 0
    ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...literals) }, { weight: 3, arbitrary: hostileValue })
    : hostileValue;

/** An object with the schema's keys (some left out) and hostile values, sometimes with extra keys. */
function objectFor(schema: z.ZodType | undefined): fc.Arbitrary<Record<string, unknown>> {
  const keys = [...keysOf(schema)];
  const known = fc.record(Object.fromEntries(keys.map(([key, literals]) => [key, valueFor(literals)])), {
    requiredKeys: [],
  });
  return fc
    .tuple(known, fc.option(prototypeKeys, { nil: undefined }))
    .map(([fields, extra]) => (extra ? Object.assign(extra, fields) : fields));
}

/** A path segment as it arrives: percent-encoded text, or bytes no UTF-8 decoder accepts. */
const hostileSegment = fc.oneof(
  hostileString
    .filter((value) => value.length < 5000 && value.isWellFormed())
    .map((value) => encodeURIComponent(value)),
  fc.constantFrom('%ED%A0%80', '%00', '%FF%FE', '%', '%E0%A4%A', '..%2F..%2F', 'a%2Fb', 'x'.repeat(3000)),
);

/** Query strings are text: the schema's keys, valid-looking or hostile, sometimes repeated (an array). */
function queryFor(schema: z.ZodType | undefined, plausible: Plausible): fc.Arbitrary<string> {
  const keys = [...keysOf(schema)];
  if (keys.length === 0) return fc.constantFrom('', '?a=%00', '?__proto__[x]=1');
  const asQuery = (value: unknown) =>
    Object.entries((value ?? {}) as Record<string, unknown>)
      .filter(([, field]) => field !== undefined && String(field).isWellFormed())
      .map(([key, field]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(field))}`);
  const entry = fc
    .constantFrom(...keys)
    .chain(([key, literals]) =>
      fc
        .oneof(
          ...(literals.length > 0 ? [fc.constantFrom(...literals).map(encodeURIComponent)] : []),
          hostileSegment,
        )
        .map((value) => `${encodeURIComponent(key)}=${value}`),
    );
  return fc
    .oneof(
      validFor(schema, plausible).map(asQuery),
      fc
        .tuple(validFor(schema, plausible).map(asQuery), fc.array(entry, { maxLength: 2 }))
        .map(([a, b]) => [...a, ...b]),
      fc.array(entry, { maxLength: 5 }),
    )
    .map((entries) => (entries.length ? `?${entries.join('&')}` : ''));
}

export type HostileRequest = {
  method: Endpoint['method'];
  url: string;
  /** Raw text, so that a body can be JSON of any shape or not JSON at all. */
  payload?: string;
  contentType?: string;
  signedIn: boolean;
};

/** A request to `endpoint` with its parameters, query and body made hostile. */
export function hostileRequestTo(endpoint: Endpoint, plausible: Plausible): fc.Arbitrary<HostileRequest> {
  // The path around its parameters (`:name`, or `*` for the rest of the path).
  const pieces = endpoint.path.split(/:[A-Za-z_]+|\*/);
  const segments = pieces.length - 1;
  const body: fc.Arbitrary<string | undefined> =
    endpoint.method === 'GET'
      ? fc.constant(undefined)
      : fc.oneof(
          {
            weight: 3,
            arbitrary: validFor(endpoint.body, plausible).map((value) => JSON.stringify(value ?? {})),
          },
          {
            weight: 4,
            arbitrary: oneFieldWrong(endpoint.body, plausible).map((value) => JSON.stringify(value ?? {})),
          },
          { weight: 3, arbitrary: objectFor(endpoint.body).map((value) => JSON.stringify(value)) },
          { weight: 1, arbitrary: hostileValue.map((value) => JSON.stringify(value) ?? 'null') },
          { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', 'not json', '\u0000', '[]'.repeat(50_000)) },
        );
  return fc
    .record({
      params: fc.array(
        fc.oneof(fc.constantFrom(...plausible.strings).map(encodeURIComponent), hostileSegment),
        { minLength: segments, maxLength: segments },
      ),
      query: queryFor(endpoint.query, plausible),
      payload: body,
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
      ),
      signedIn: fc.oneof(
        { weight: 4, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
    })
    .map(({ params, query, payload, contentType, signedIn }) => {
      const filled = pieces.map((piece, index) => `${piece}${params[index] ?? ''}`).join('');
      return { method: endpoint.method, url: `${filled}${query}`, payload, contentType, signedIn };
    });
}

/** Bodies for the webhook endpoints: provider-shaped JSON with hostile ids, or anything at all. */
export const hostileWebhookBody = fc.oneof(
  fc
    .record({
      subscriptionId: hostileValue,
      clientState: hostileValue,
      lifecycleEvent: fc.oneof(
        fc.constantFrom('reauthorizationRequired', 'subscriptionRemoved'),
        hostileValue,
      ),
      resource: hostileValue,
    })
    .map((notification) => JSON.stringify({ value: [notification, notification] })),
  fc
    .record({
      event_name: fc.oneof(fc.constantFrom('item:added', 'item:updated'), hostileValue),
      user_id: hostileValue,
      event_data: hostileValue,
    })
    .map((hook) => JSON.stringify(hook)),
  hostileValue.map((value) => JSON.stringify(value) ?? 'null'),
  fc.constantFrom('', '{', 'not json', '{"value":'),
);

/** Header values a client can send at all (no NUL or line breaks): long, odd, or of the wrong form. */
export const hostileHeader = fc.oneof(
  fc.constantFrom('', 'x', 'a b', 'x'.repeat(8000), 'exists', 'sync', '-1', 'éü'),
  fc.string({ maxLength: 60 }).map((value) => value.replace(/[^\x20-\x7e]/g, '')),
);
