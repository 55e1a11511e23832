import type { FastifyRequest } from 'fastify';
import { readParams } from '../shared/params.ts';
import { badRequest } from './microsoft.errors.ts';

export type Preferences = {
  maxPageSize: number | undefined;
  /** `Prefer: outlook.timezone="…"`: the zone of returned start/end (UTC when absent). */
  timeZone: string | undefined;
  /** `Prefer: outlook.body-content-type="text"|"html"`. */
  bodyContentType: 'text' | 'html' | undefined;
};

export function preferences(request: FastifyRequest): Preferences {
  const header = request.headers.prefer;
  const values = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const result: Preferences = { maxPageSize: undefined, timeZone: undefined, bodyContentType: undefined };
  for (const value of values) {
    const [rawName, ...rest] = value.split('=');
    const name = (rawName ?? '').trim().toLowerCase();
    const argument = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name === 'odata.maxpagesize' && /^\d+$/.test(argument))
      result.maxPageSize = Math.max(1, Number(argument));
    if (name === 'outlook.timezone') result.timeZone = argument;
    if (name === 'outlook.body-content-type') {
      const type = argument.toLowerCase();
      if (type === 'text' || type === 'html') result.bodyContentType = type;
    }
  }
  return result;
}

/** `Preference-Applied` lists the preferences the response honoured. */
export function preferenceApplied(applied: Preferences): string | undefined {
  const parts = [];
  if (applied.maxPageSize !== undefined) parts.push(`odata.maxpagesize=${applied.maxPageSize}`);
  if (applied.timeZone !== undefined) parts.push(`outlook.timezone="${applied.timeZone}"`);
  if (applied.bodyContentType !== undefined)
    parts.push(`outlook.body-content-type="${applied.bodyContentType}"`);
  return parts.length ? parts.join(', ') : undefined;
}

const ODATA_OPTIONS = new Set([
  '$select',
  '$expand',
  '$filter',
  '$orderby',
  '$top',
  '$skip',
  '$search',
  '$count',
]);

/** Query parameters with lower-cased names; OData options also without their `$`, as Graph v1.0 allows. */
export function queryOptions(request: FastifyRequest): Record<string, string> {
  const options: Record<string, string> = {};
  for (const [key, value] of Object.entries(readParams(request.query))) {
    const lower = key.toLowerCase();
    options[ODATA_OPTIONS.has(`$${lower}`) ? `$${lower}` : lower] = value;
  }
  return options;
}

/** Applies `$select`: the named properties plus the ones Graph always returns. */
export function applySelect<T extends Record<string, unknown>>(
  entity: T,
  select: string | undefined,
  always: readonly string[] = ['@odata.etag', 'id'],
): Record<string, unknown> {
  if (!select) return entity;
  const wanted = new Set(
    [...always, ...select.split(',').map((name) => name.trim())].map((n) => n.toLowerCase()),
  );
  return Object.fromEntries(Object.entries(entity).filter(([key]) => wanted.has(key.toLowerCase())));
}

export function parseTop(raw: string | undefined, fallback: number, max = 1000): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw badRequest('BadRequest', `Invalid $top value: '${raw}'.`);
  return Math.min(Math.max(Number(raw), 1), max);
}

export function parseSkip(raw: string | undefined): number {
  if (raw === undefined) return 0;
  if (!/^\d+$/.test(raw)) throw badRequest('BadRequest', `Invalid $skip value: '${raw}'.`);
  return Number(raw);
}

/**
 * One page of a collection with an absolute `@odata.nextLink` (`$skip`) when more remain.
 * `linkBase` is the full URL of the request; its `$skip` is replaced.
 */
export function pageOf<T>(items: readonly T[], skip: number, top: number, linkBase: URL) {
  const value = items.slice(skip, skip + top);
  if (skip + top >= items.length) return { value };
  const next = new URL(linkBase);
  next.searchParams.delete('$skip');
  next.searchParams.set('$top', String(top));
  next.searchParams.set('$skip', String(skip + top));
  return { value, nextLink: decodeDollar(next.href) };
}

/** Graph writes `$top`, not `%24top`, in the links it returns. */
export function decodeDollar(href: string): string {
  return href.replaceAll('%24', '$');
}
