import { type Column, sql } from 'drizzle-orm';
import { z } from 'zod';
import { timeboxSettings } from '#server/db/schema/settings.tables.ts';

/** A JSON column of a statement: PGlite and node-postgres hand it over parsed; a string is parsed. */
export const jsonList = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (typeof value === 'string' ? JSON.parse(value) : value), z.array(item));

/** A user's timeboxes as the JSON column `timeboxesOf` reads, shortest first. */
export const timeboxListSchema = jsonList(z.object({ label: z.string(), duration: z.number().int() }));

/**
 * The timeboxes of the user whose id is `userId` (a column of the outer statement) as one JSON list
 * beside their one-per-user rows, shortest first: a user's view reads in one statement, not two.
 */
export const timeboxesOf = (userId: Column) => sql`coalesce((
  select json_agg(json_build_object('label', ${timeboxSettings.label}, 'duration', ${timeboxSettings.duration})
    order by ${timeboxSettings.duration})
  from ${timeboxSettings} where ${timeboxSettings.userId} = ${userId}), '[]'::json)`;
