import { z } from 'zod';

/**
 * Tasks with a date but no time (docs/product-rules.md §10 "Tasks with a date but no time"): left alone
 * (the default), or, when timeboxed, shown as an all-day event on their date.
 */
export const DATED_TASKS_SETTINGS = ['skip', 'allday'] as const;
export type DatedTasksSetting = (typeof DATED_TASKS_SETTINGS)[number];
export const DATED_TASKS_DEFAULT: DatedTasksSetting = 'skip';

/** `PATCH /api/settings/datedtasks`. */
export const datedTasksSchema = z.object({ setting: z.enum(DATED_TASKS_SETTINGS) });
