/**
 * A write a provider refused for good (docs/product-rules.md §10): which side and what. Kept on the
 * pair (`sync_links.refused_write`) until a write of that pair goes through, and shown on the dashboard.
 */
export const REFUSED_WRITES = [
  'event-create',
  'event-update',
  'event-remove',
  'task-create',
  'task-update',
  'task-delete',
] as const;
export type RefusedWrite = (typeof REFUSED_WRITES)[number];
