/**
 * The shape of a provider's JSON answer: each field's type, objects field by field, an array by its
 * first element. Two answers to the same step compare by shape, not value (ids, times and titles differ
 * between an emulator and a live account; a missing, extra or retyped field is what matters).
 */
export type Shape = string | { [field: string]: Shape } | Shape[];

export function shapeOf(value: unknown): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(fields.map(([field, inner]) => [field, shapeOf(inner)]));
  }
  return typeof value;
}

/** What one step of the scenario saw: the HTTP status and the shape of the answer's body. */
export type Observation = { step: string; status: number; shape: Shape };

/** A place where the emulator's answer differs from the live one (`null`: absent on that side). */
export type Difference = { step: string; path: string; emulator: string | null; live: string | null };

const describe = (shape: Shape): string =>
  typeof shape === 'string' ? shape : Array.isArray(shape) ? 'array' : 'object';

function compareShapes(step: string, path: string, emulator: Shape, live: Shape): Difference[] {
  if (
    typeof emulator === 'string' ||
    typeof live === 'string' ||
    Array.isArray(emulator) !== Array.isArray(live)
  ) {
    const [a, b] = [describe(emulator), describe(live)];
    return a === b ? [] : [{ step, path, emulator: a, live: b }];
  }
  if (Array.isArray(emulator) && Array.isArray(live)) {
    // An empty list on one side says nothing about its elements.
    const [a, b] = [emulator[0], live[0]];
    return a === undefined || b === undefined ? [] : compareShapes(step, `${path}[]`, a, b);
  }
  const a = emulator as Record<string, Shape>;
  const b = live as Record<string, Shape>;
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return fields.flatMap((field) => {
    const at = path ? `${path}.${field}` : field;
    const [ours, theirs] = [a[field], b[field]];
    if (ours === undefined || theirs === undefined)
      return [
        {
          step,
          path: at,
          emulator: ours === undefined ? null : describe(ours),
          live: theirs === undefined ? null : describe(theirs),
        },
      ];
    return compareShapes(step, at, ours, theirs);
  });
}

/** Every difference of status and shape between the emulator's run of the scenario and the live one. */
export function differences(emulator: Observation[], live: Observation[]): Difference[] {
  const steps = [...new Set([...emulator, ...live].map((seen) => seen.step))];
  return steps.flatMap((step) => {
    const ours = emulator.find((seen) => seen.step === step);
    const theirs = live.find((seen) => seen.step === step);
    if (!ours || !theirs)
      return [{ step, path: '(step)', emulator: ours ? 'ran' : null, live: theirs ? 'ran' : null }];
    const status =
      ours.status === theirs.status
        ? []
        : [{ step, path: '(status)', emulator: String(ours.status), live: String(theirs.status) }];
    return [...status, ...compareShapes(step, '', ours.shape, theirs.shape)];
  });
}
