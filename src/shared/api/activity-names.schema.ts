import { z } from 'zod';

/**
 * GET /api/sync/activity/names: the titles and times of the tasks and events the sync activity and the
 * safety brake name, read from Todoist and the calendar when the screen asks (docs/decisions/025). They
 * are never stored: the server keeps them in memory for a few minutes, the browser while it shows them.
 */

/** When an item is: an instant, a Todoist floating time (the same wall time in every zone), or a day. */
export const itemWhenSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('instant'), start: z.iso.datetime({ offset: true }) }),
  /** `YYYY-MM-DDTHH:MM`: the wall time Todoist shows in any zone. */
  z.object({ kind: z.literal('floating'), local: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/) }),
  z.object({ kind: z.literal('date'), date: z.iso.date() }),
]);
export type ItemWhen = z.infer<typeof itemWhenSchema>;

export const itemNameSchema = z.object({
  title: z.string(),
  /** Null: the task has no due date. */
  when: itemWhenSchema.nullable(),
});
export type ItemName = z.infer<typeof itemNameSchema>;

export const NAME_SIDES = ['todoist', 'calendar'] as const;
export type NameSide = (typeof NAME_SIDES)[number];

export const activityNamesSchema = z.object({
  /** By task id: its name, or null when Todoist no longer has it open (deleted or completed). */
  tasks: z.record(z.string(), itemNameSchema.nullable()),
  /** By event id: its name, or null when it is no longer where the sync put it. */
  events: z.record(z.string(), itemNameSchema.nullable()),
  /** Sides that could not be read just now (not connected, failing, or busy): their items show by id. */
  unavailable: z.array(z.enum(NAME_SIDES)),
});
export type ActivityNames = z.infer<typeof activityNamesSchema>;
