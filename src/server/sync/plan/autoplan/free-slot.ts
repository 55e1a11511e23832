/**
 * Finding room between busy times. Times are epoch milliseconds; a span is half-open `[start, end)`,
 * so a block may begin the instant a meeting ends (when there is no gap).
 */

export type Span = { start: number; end: number };

/** The span grown by `gapMs` on both sides: what a new block must stay clear of. */
const withGap = (span: Span, gapMs: number): Span => ({ start: span.start - gapMs, end: span.end + gapMs });

/** Whether `block` overlaps any of `occupied`, or comes closer to one than `gapMs`. */
export function collides(block: Span, occupied: readonly Span[], gapMs: number): boolean {
  return occupied.some((span) => {
    const guarded = withGap(span, gapMs);
    return block.start < guarded.end && guarded.start < block.end;
  });
}

export type SlotSearch = {
  /** Earliest start allowed. */
  from: number;
  /** The block must end by then. */
  until: number;
  durationMs: number;
  occupied: readonly Span[];
  gapMs: number;
};

/** The earliest start at or after `from` where the block fits before `until`; null when none does. */
export function firstFreeStart(search: SlotSearch): number | null {
  const { from, until, durationMs, gapMs } = search;
  if (!(durationMs > 0)) return null;
  const guarded = search.occupied
    .map((span) => withGap(span, gapMs))
    .filter((span) => span.end > from && span.start < until)
    .sort((a, b) => a.start - b.start);
  let candidate = from;
  for (const span of guarded) {
    if (span.start >= candidate + durationMs) break;
    candidate = Math.max(candidate, span.end);
  }
  return candidate + durationMs <= until ? candidate : null;
}
