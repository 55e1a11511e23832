/**
 * Graph may send an updated item of a delta round with only some of its properties ("Updated items may
 * contain only a subset of properties", docs/provider-facts.md §2). With the emulator's
 * `deltaChangedPropertiesOnly` setting, an update is sent as its identity plus what it changed.
 */

/** Always present on a partial item: what a client needs to match and version it. */
const IDENTITY = ['@odata.type', '@odata.etag', 'id', 'changeKey', 'lastModifiedDateTime'];

const TIMING = ['start', 'end', 'isAllDay', 'originalStartTimeZone', 'originalEndTimeZone'];

/** Stored field → the event JSON properties it shows in. */
const PROPERTIES: Record<string, readonly string[]> = {
  subject: ['subject'],
  body: ['body', 'bodyPreview'],
  start: TIMING,
  end: TIMING,
  startTimeZone: TIMING,
  endTimeZone: TIMING,
  zone: TIMING,
  isAllDay: TIMING,
  categories: ['categories'],
  sensitivity: ['sensitivity'],
  showAs: ['showAs'],
  importance: ['importance'],
  isReminderOn: ['isReminderOn'],
  reminderMinutesBeforeStart: ['reminderMinutesBeforeStart'],
  location: ['location', 'locations'],
  // Not in delta output (no $expand there).
  singleValueExtendedProperties: [],
};

/**
 * The delta item for an event whose changes since the last round are `changedFields`: the whole event
 * for a create (`all`) or for changes to the series (recurrence, cancelled dates), else the subset.
 */
export function deltaItem(full: Record<string, unknown>, changedFields: readonly string[] | 'all') {
  if (changedFields === 'all' || changedFields.some((field) => PROPERTIES[field] === undefined)) return full;
  const keep = new Set([...IDENTITY, ...changedFields.flatMap((field) => PROPERTIES[field] ?? [])]);
  return Object.fromEntries(Object.entries(full).filter(([key]) => keep.has(key)));
}
