/**
 * getSchedule's free/busy arithmetic, free of HTTP and storage: an event's `showAs` as a freeBusyStatus,
 * and the `availabilityView` string, one digit per time slot of the window.
 */

export type FreeBusyStatus = 'free' | 'tentative' | 'busy' | 'oof' | 'workingElsewhere' | 'unknown';

/** A span of time with the free/busy status an event gives it, [start, end) in ms. */
export type StatusSpan = { status: FreeBusyStatus; start: number; end: number };

// scheduleInformation.availabilityView: 0 free, 1 tentative, 2 busy, 3 out of office, 4 working
// elsewhere. `unknown` has no digit of its own; the emulator counts it as busy, the safe side for
// anyone planning around it (Outlook offers no way to set it).
const DIGIT: Record<FreeBusyStatus, string> = {
  free: '0',
  tentative: '1',
  busy: '2',
  oof: '3',
  workingElsewhere: '4',
  unknown: '2',
};
// Where spans overlap in a slot, the slot shows the strongest of them.
const STRENGTH: Record<FreeBusyStatus, number> = {
  free: 0,
  workingElsewhere: 1,
  tentative: 2,
  busy: 3,
  unknown: 3,
  oof: 4,
};
const STATUSES = Object.keys(DIGIT) as FreeBusyStatus[];

/** An event's `showAs` (stored as Graph writes it, `workingElsewhere` in camel case) as a status. */
export function statusOf(showAs: string): FreeBusyStatus {
  return STATUSES.find((status) => status.toLowerCase() === showAs.toLowerCase()) ?? 'unknown';
}

/**
 * The merged view of [from, to) in slots of `intervalMinutes` (the last one may be short): per slot
 * the digit of the strongest span overlapping it, `0` where none does. A span touching a slot's edge
 * only does not count for that slot.
 */
export function availabilityView(
  spans: readonly StatusSpan[],
  window: { from: number; to: number },
  intervalMinutes: number,
): string {
  const slotMs = intervalMinutes * 60_000;
  const slots = Math.max(0, Math.ceil((window.to - window.from) / slotMs));
  let view = '';
  for (let index = 0; index < slots; index++) {
    const slotStart = window.from + index * slotMs;
    const slotEnd = Math.min(slotStart + slotMs, window.to);
    let strongest: FreeBusyStatus = 'free';
    for (const span of spans) {
      if (span.start < slotEnd && span.end > slotStart && STRENGTH[span.status] > STRENGTH[strongest])
        strongest = span.status;
    }
    view += DIGIT[strongest];
  }
  return view;
}
