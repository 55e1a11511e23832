import { invalidRequest, noSuch } from './stripe.errors.ts';

export type ListParams = { limit?: number; starting_after?: string; ending_before?: string };

export type ListEnvelope<T> = { object: 'list'; url: string; has_more: boolean; data: T[] };

/**
 * Stripe's list envelope and cursor pagination. `items` come oldest first (insertion order);
 * lists are served newest first, as Stripe serves them.
 */
export function paginate<T extends { id: string }>(
  url: string,
  items: T[],
  params: ListParams,
): ListEnvelope<T> {
  const ordered = [...items].reverse();
  const limit = params.limit ?? 10;
  const indexOf = (id: string, param: string) => {
    const index = ordered.findIndex((item) => item.id === id);
    if (index === -1) throw noSuch('object', id, param);
    return index;
  };
  if (params.ending_before) {
    const end = indexOf(params.ending_before, 'ending_before');
    const start = Math.max(0, end - limit);
    return { object: 'list', url, has_more: start > 0, data: ordered.slice(start, end) };
  }
  const start = params.starting_after ? indexOf(params.starting_after, 'starting_after') + 1 : 0;
  return {
    object: 'list',
    url,
    has_more: start + limit < ordered.length,
    data: ordered.slice(start, start + limit),
  };
}

type Finder = (id: string) => object | undefined;

function expandPath(node: unknown, segments: string[], find: Finder, path: string): unknown {
  if (Array.isArray(node)) return node.map((element) => expandPath(element, segments, find, path));
  const [key, ...rest] = segments;
  if (key === undefined || typeof node !== 'object' || node === null) return node;
  const record = node as Record<string, unknown>;
  if (!(key in record)) throw invalidRequest(`This property cannot be expanded (${path}).`, 'expand');
  let child = record[key];
  if (typeof child === 'string') {
    const found = find(child);
    if (!found) throw invalidRequest(`This property cannot be expanded (${path}).`, 'expand');
    child = structuredClone(found);
  }
  return { ...record, [key]: expandPath(child, rest, find, path) };
}

/** Replaces ids by objects along each `expand[]` path (`customer`, `data.product`, `subscription.latest_invoice`). */
export function expand<T>(value: T, paths: readonly string[] | undefined, find: Finder): T {
  let result: unknown = value;
  for (const path of paths ?? []) result = expandPath(result, path.split('.'), find, path);
  return result as T;
}
