import { badRequest } from './microsoft.errors.ts';
import type { StoredEvent } from './microsoft.event-store.ts';

/**
 * A small `$filter` for events: `and` of comparisons (`start/dateTime ge '…'`, `subject eq '…'`,
 * `transactionId eq '…'`, `type eq 'singleInstance'`, `isAllDay eq false`), `contains`/`startswith`,
 * `categories/any(c:c eq '…')` and `singleValueExtendedProperties/any(ep: ep/id eq '…' and ep/value eq '…')`.
 * Evaluated against the event as rendered in UTC.
 */
export type EventPredicate = (json: Record<string, unknown>, event: StoredEvent) => boolean;

const invalidFilter = (detail: string) =>
  badRequest(
    'ErrorInvalidUrlQueryFilter',
    `The query filter contains one or more invalid nodes. ${detail}`.trim(),
  );

/** Splits on ` and ` outside quotes and parentheses. */
function splitAnd(expression: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < expression.length; i++) {
    const char = expression[i];
    if (char === "'") quoted = !quoted;
    if (quoted) continue;
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (depth === 0 && /^\s+and\s+/i.test(expression.slice(i)) && /\s/.test(char ?? '')) {
      parts.push(expression.slice(start, i).trim());
      const match = /^\s+and\s+/i.exec(expression.slice(i));
      i += (match?.[0].length ?? 1) - 1;
      start = i + 1;
    }
  }
  parts.push(expression.slice(start).trim());
  return parts.filter(Boolean);
}

function literal(raw: string): string | number | boolean | null {
  const text = raw.trim();
  const quoted = /^'((?:[^']|'')*)'$/.exec(text);
  if (quoted) return (quoted[1] ?? '').replaceAll("''", "'");
  if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (/^null$/i.test(text)) return null;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})?$/i.test(text)) return text;
  throw invalidFilter(`Unsupported literal ${text}.`);
}

function read(json: Record<string, unknown>, path: string): unknown {
  let value: unknown = json;
  for (const segment of path.split('/')) {
    if (typeof value !== 'object' || value === null) return undefined;
    const entry = Object.entries(value).find(([key]) => key.toLowerCase() === segment.toLowerCase());
    value = entry?.[1];
  }
  return value;
}

const asTime = (value: string) => Date.parse(/Z$|[+-]\d{2}:\d{2}$/.test(value) ? value : `${value}Z`);
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}T/;

function compare(left: unknown, operator: string, right: string | number | boolean | null): boolean {
  let a: unknown = left;
  let b: unknown = right;
  if (typeof a === 'string' && typeof b === 'string' && DATE_LIKE.test(a) && DATE_LIKE.test(b)) {
    a = asTime(a);
    b = asTime(b);
  } else if (typeof a === 'string' && typeof b === 'string') {
    a = a.toLowerCase();
    b = b.toLowerCase();
  }
  switch (operator) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    default: {
      if (typeof a !== typeof b || a === null || b === null) return false;
      const x = a as number | string;
      const y = b as number | string;
      return operator === 'gt' ? x > y : operator === 'ge' ? x >= y : operator === 'lt' ? x < y : x <= y;
    }
  }
}

function clause(text: string): EventPredicate {
  const category = /^categories\/any\((\w+):\s*\1\s+eq\s+('(?:[^']|'')*')\)$/i.exec(text);
  if (category?.[2]) {
    const wanted = String(literal(category[2])).toLowerCase();
    return (json) => ((json.categories as string[]) ?? []).some((name) => name.toLowerCase() === wanted);
  }
  const extended = /^singleValueExtendedProperties\/any\((\w+):\s*(.+)\)$/i.exec(text);
  if (extended?.[1] && extended[2]) {
    const variable = extended[1];
    const conditions = splitAnd(extended[2]).map((part) => {
      const match = new RegExp(`^${variable}/(id|value)\\s+eq\\s+('(?:[^']|'')*')$`, 'i').exec(part);
      if (!match?.[1] || !match[2]) throw invalidFilter(`Unsupported condition ${part}.`);
      return { field: match[1].toLowerCase() as 'id' | 'value', value: String(literal(match[2])) };
    });
    return (_json, event) =>
      event.singleValueExtendedProperties.some((property) =>
        conditions.every(({ field, value }) =>
          field === 'id' ? property.id.toLowerCase() === value.toLowerCase() : property.value === value,
        ),
      );
  }
  const fn = /^(contains|startswith)\(([\w/]+),\s*('(?:[^']|'')*')\)$/i.exec(text);
  if (fn?.[1] && fn[2] && fn[3]) {
    const [name, path, needle] = [fn[1].toLowerCase(), fn[2], String(literal(fn[3])).toLowerCase()];
    return (json) => {
      const value = String(read(json, path) ?? '').toLowerCase();
      return name === 'contains' ? value.includes(needle) : value.startsWith(needle);
    };
  }
  const comparison = /^([\w/]+)\s+(eq|ne|gt|ge|lt|le)\s+(.+)$/i.exec(text);
  if (comparison?.[1] && comparison[2] && comparison[3]) {
    const [path, operator, value] = [comparison[1], comparison[2].toLowerCase(), literal(comparison[3])];
    return (json) => compare(read(json, path), operator, value);
  }
  throw invalidFilter(`Unsupported clause ${text}.`);
}

export function parseEventFilter(expression: string): EventPredicate {
  const clauses = splitAnd(expression.trim()).map(clause);
  return (json, event) => clauses.every((predicate) => predicate(json, event));
}
