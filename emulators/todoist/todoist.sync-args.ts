import { z } from 'zod';
import { LABEL_COLORS } from '#shared/settings/constants.ts';
import { PROJECT_VIEW_STYLES } from './todoist.records.ts';
import { DATE_ONLY } from './todoist.validation.ts';

/** The wire (snake_case) arguments of the Sync commands the emulator runs. */

export const due = z
  .object({
    date: z.string(),
    string: z.string(),
    timezone: z.string().nullable(),
    lang: z.string(),
    is_recurring: z.boolean(),
  })
  .partial()
  .nullable();
export const taskArgs = z
  .object({
    content: z.string().min(1).max(500),
    description: z.string(),
    project_id: z.string(),
    section_id: z.string().nullable(),
    parent_id: z.string().nullable(),
    due,
    deadline: z.object({ date: z.string().regex(DATE_ONLY), lang: z.string().optional() }).nullable(),
    duration: z.object({ amount: z.number().int().positive(), unit: z.enum(['minute', 'day']) }).nullable(),
    priority: z.number().int().min(1).max(4),
    child_order: z.number().int(),
    day_order: z.number().int(),
    is_collapsed: z.boolean(),
    labels: z.array(z.string().min(1)),
    responsible_uid: z.string().nullable(),
  })
  .partial();
export const itemAdd = taskArgs.extend({ content: z.string().min(1).max(500) });
export const itemUpdate = taskArgs
  .omit({ project_id: true, section_id: true, parent_id: true })
  .extend({ id: z.string() });
export const byId = z.object({ id: z.string() });
export const itemComplete = byId.extend({
  completed_at: z.string().optional(),
  date_completed: z.string().optional(),
});
export const labelArgs = z
  .object({
    name: z.string().min(1).max(128),
    color: z.enum(LABEL_COLORS),
    item_order: z.number().int(),
    is_favorite: z.boolean(),
  })
  .partial();
export const labelAdd = labelArgs.extend({ name: z.string().min(1).max(128) });
export const labelUpdate = labelArgs.extend({ id: z.string() });
export const labelDelete = byId.extend({ cascade: z.enum(['all', 'none']).optional() });

/** Todoist sends 1/0 in its own examples; the SDK sends booleans. */
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform(Boolean);

const moveTarget = z.object({
  project_id: z.string().optional(),
  section_id: z.string().nullable().optional(),
  parent_id: z.string().nullable().optional(),
});
const oneTarget = (args: z.infer<typeof moveTarget>) =>
  [args.project_id, args.section_id, args.parent_id].filter((v) => v !== undefined).length === 1;
const oneTargetError = {
  message: 'Exactly one of project_id, section_id or parent_id is required',
  path: ['project_id'],
};
export const itemMove = byId.extend(moveTarget.shape).refine(oneTarget, oneTargetError);
/** `POST /api/v1/tasks/{id}/move`: the same targets as `item_move`. */
export const taskMoveBody = moveTarget.refine(oneTarget, oneTargetError);
export const itemUpdateDateComplete = byId.extend({
  due: due.unwrap(),
  is_forward: flag.default(true),
  reset_subtasks: flag.default(false),
});
export const itemCompleteUndo = byId.extend({
  descendants: z.array(z.object({ id: z.string(), checked: z.boolean().optional() })).default([]),
});
export const projectArgs = z
  .object({
    name: z.string().min(1),
    color: z.enum(LABEL_COLORS),
    description: z.string(),
    view_style: z.enum(PROJECT_VIEW_STYLES),
    is_favorite: z.boolean(),
    is_collapsed: z.boolean(),
    child_order: z.number().int(),
  })
  .partial();
export const projectAdd = projectArgs.extend({
  name: z.string().min(1),
  parent_id: z.string().nullable().optional(),
});
export const projectUpdate = projectArgs.omit({ child_order: true }).extend({ id: z.string() });
export const projectMove = byId.extend({ parent_id: z.string().nullable().default(null) });
export const labelRename = z.object({
  name_old: z.string().min(1),
  name_new: z.string().min(1).max(128),
});
