/** A count with its noun, singular for one ("1 event", "6 events"); `many` for an irregular plural. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
