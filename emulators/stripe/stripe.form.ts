/**
 * Stripe's form encoding: bracket notation for nested objects (`metadata[plan]=pro`) and arrays,
 * indexed (`expand[0]=x`, what the SDK sends) or appended (`expand[]=x`). Used for bodies and queries.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

function splitKey(key: string): string[] {
  const first = /^[^[]*/.exec(key)?.[0] ?? key;
  const rest = [...key.slice(first.length).matchAll(/\[([^\]]*)\]/g)].map((match) => match[1] ?? '');
  return [first, ...rest];
}

function assign(target: FormObject, path: string[], value: string): void {
  let node: FormObject = target;
  path.forEach((segment, index) => {
    const last = index === path.length - 1;
    const key = segment === '' ? String(Object.keys(node).length) : segment;
    if (last) {
      node[key] = value;
      return;
    }
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as FormObject;
  });
}

/** Objects whose keys are all indices become arrays (metadata keeps its keys whatever they are). */
function toArrays(value: FormValue, key = ''): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, toArrays(v, k)] as const);
  if (key !== 'metadata' && entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}

export function parseStripeForm(input: string): FormObject {
  const root: FormObject = {};
  for (const pair of input.split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const rawKey = separator === -1 ? pair : pair.slice(0, separator);
    const rawValue = separator === -1 ? '' : pair.slice(separator + 1);
    const path = splitKey(decode(rawKey));
    if (path[0] === '') continue;
    assign(root, path, decode(rawValue));
  }
  return toArrays(root) as FormObject;
}
