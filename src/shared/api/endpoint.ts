import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

type Schema = z.ZodType | undefined;

/**
 * One HTTP call as both sides know it: the server registers its route from it, the browser calls it
 * through `api()` (src/web/lib/api-client.ts). `path` uses the router's syntax (`:name`, or `*` for
 * the rest of the path). An endpoint without `response` answers with a redirect (form posts, links).
 */
export type Endpoint<
  M extends Method = Method,
  P extends string = string,
  R extends Schema = Schema,
  B extends Schema = Schema,
  Pa extends Schema = Schema,
  Q extends Schema = Schema,
> = {
  readonly method: M;
  readonly path: P;
  readonly response: R;
  readonly body: B;
  readonly params: Pa;
  readonly query: Q;
};

/** Declares an endpoint; what is left out is `undefined`, so both sides can read every part. */
export function endpoint<
  const M extends Method,
  const P extends string,
  R extends Schema = undefined,
  B extends Schema = undefined,
  Pa extends Schema = undefined,
  Q extends Schema = undefined,
>(definition: {
  method: M;
  path: P;
  response?: R;
  body?: B;
  params?: Pa;
  query?: Q;
}): Endpoint<M, P, R, B, Pa, Q> {
  return {
    method: definition.method,
    path: definition.path,
    response: definition.response as R,
    body: definition.body as B,
    params: definition.params as Pa,
    query: definition.query as Q,
  };
}

/** The URL of a call: `:name` and `*` filled in (encoded), then the query without empty values. */
export function urlOf(
  endpoint: Pick<Endpoint, 'path'>,
  params: Record<string, string> = {},
  query: Record<string, string | undefined> = {},
): string {
  const path = endpoint.path.replace(/:([A-Za-z_]+)|\*/g, (match, name: string | undefined) => {
    const value = params[name ?? match];
    if (value === undefined) throw new Error(`${endpoint.path} needs the parameter ${name ?? match}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => !!entry[1]),
  ).toString();
  return search ? `${path}?${search}` : path;
}
