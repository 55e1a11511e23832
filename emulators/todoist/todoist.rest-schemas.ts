import { z } from 'zod';
import { LABEL_COLORS } from '#shared/settings/constants.ts';
import { buildDue, type DueContext } from './todoist.due.ts';
import { errors } from './todoist.errors.ts';
import { PROJECT_VIEW_STYLES } from './todoist.records.ts';
import type { TaskFields } from './todoist.task-operations.ts';
import { DATE_ONLY, parseWith } from './todoist.validation.ts';

const taskBody = z
  .object({
    content: z.string().min(1).max(500),
    description: z.string().max(16_383),
    project_id: z.string().min(1),
    section_id: z.string().nullable(),
    parent_id: z.string().nullable(),
    order: z.number().int(),
    child_order: z.number().int(),
    labels: z.array(z.string().min(1)),
    priority: z.number().int().min(1).max(4),
    assignee_id: z.string().nullable(),
    due_string: z.string().nullable(),
    due_lang: z.string().nullable(),
    due_date: z.string().regex(DATE_ONLY),
    due_datetime: z.string(),
    duration: z.number().int().positive().nullable(),
    duration_unit: z.enum(['minute', 'day']).nullable(),
    deadline_date: z.string().regex(DATE_ONLY).nullable(),
    deadline_lang: z.string().nullable(),
    day_order: z.number().int(),
    is_collapsed: z.boolean(),
  })
  .partial();

export const createTaskBody = taskBody.extend({ content: z.string().min(1).max(500) });
export const updateTaskBody = taskBody;
type TaskBody = z.infer<typeof taskBody>;

/** Maps a REST create/update body to task fields (due via `due_string`/`due_date`/`due_datetime`). */
export function restTaskFields(body: TaskBody, ctx: DueContext): TaskFields {
  const fields: TaskFields = {
    content: body.content,
    description: body.description,
    projectId: body.project_id,
    sectionId: body.section_id,
    parentId: body.parent_id,
    childOrder: body.child_order ?? body.order,
    labels: body.labels,
    priority: body.priority,
    responsibleUid: body.assignee_id,
    dayOrder: body.day_order,
    isCollapsed: body.is_collapsed,
  };
  if (body.due_date !== undefined && body.due_datetime !== undefined) {
    throw errors.invalid('due_datetime', 'due_date and due_datetime cannot be combined');
  }
  const date = body.due_date ?? body.due_datetime;
  if (date !== undefined || body.due_string !== undefined) {
    const argument = body.due_date ? 'due_date' : body.due_datetime ? 'due_datetime' : 'due_string';
    fields.due =
      body.due_string === null && date === undefined
        ? null
        : buildDue(
            { string: body.due_string ?? undefined, date, lang: body.due_lang ?? undefined },
            ctx,
            argument,
          );
  }
  if ((body.duration === undefined) !== (body.duration_unit === undefined)) {
    throw errors.invalid('duration', 'duration and duration_unit must be given together');
  }
  if (body.duration !== undefined && body.duration_unit !== undefined) {
    if ((body.duration === null) !== (body.duration_unit === null)) throw errors.invalid('duration_unit');
    fields.duration =
      body.duration === null || body.duration_unit === null
        ? null
        : { amount: body.duration, unit: body.duration_unit };
  }
  if (body.deadline_date !== undefined) {
    fields.deadline =
      body.deadline_date === null ? null : { date: body.deadline_date, lang: body.deadline_lang ?? 'en' };
  }
  return fields;
}

const labelBody = z
  .object({
    name: z.string().min(1).max(128),
    order: z.number().int().nullable(),
    color: z.enum(LABEL_COLORS),
    is_favorite: z.boolean(),
  })
  .partial();
export const createLabelBody = labelBody.extend({ name: z.string().min(1).max(128) });
export const updateLabelBody = labelBody;

export function restLabelFields(body: z.infer<typeof labelBody>) {
  return { name: body.name, color: body.color, order: body.order, isFavorite: body.is_favorite };
}

const projectBody = z
  .object({
    name: z.string().min(1),
    description: z.string(),
    color: z.enum(LABEL_COLORS),
    is_favorite: z.boolean(),
    view_style: z.enum(PROJECT_VIEW_STYLES),
  })
  .partial();
export const createProjectBody = projectBody.extend({
  name: z.string().min(1),
  parent_id: z.string().min(1).nullable().optional(),
});
export const updateProjectBody = projectBody;

export function restProjectFields(body: z.infer<typeof projectBody>) {
  return {
    name: body.name,
    description: body.description,
    color: body.color,
    isFavorite: body.is_favorite,
    viewStyle: body.view_style,
  };
}

export { parseWith };
