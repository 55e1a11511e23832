import type { LabelRecord, ProjectRecord, TaskRecord, UserRecord } from './todoist.records.ts';
import { tzInfo } from './todoist.time.ts';
import { dueWire, PLAIN_WIRE_FORMS, type WireForms } from './todoist.wire-forms.ts';

/** The v1 task object (REST, Sync `items` and webhook `event_data` share it), in the `forms` played. */
export function taskWire(task: TaskRecord, forms: WireForms = PLAIN_WIRE_FORMS) {
  return {
    id: task.id,
    user_id: task.userId,
    project_id: task.projectId,
    section_id: task.sectionId,
    parent_id: task.parentId,
    added_by_uid: task.addedByUid,
    assigned_by_uid: task.assignedByUid,
    responsible_uid: task.responsibleUid,
    content: task.content,
    description: task.description,
    labels: [...task.labels],
    priority: task.priority,
    due: task.due ? dueWire(task.due, forms) : null,
    duration: task.duration ? { ...task.duration } : null,
    deadline: task.deadline ? { ...task.deadline } : null,
    checked: task.checked,
    is_deleted: task.isDeleted,
    is_collapsed: task.isCollapsed,
    child_order: task.childOrder,
    day_order: task.dayOrder,
    added_at: task.addedAt,
    updated_at: task.updatedAt,
    completed_at: task.completedAt,
  };
}

/** Webhook payloads carry a few extra task fields. */
export function webhookTaskWire(task: TaskRecord, forms: WireForms) {
  return {
    ...taskWire(task, forms),
    completed_by_uid: task.checked ? task.userId : null,
    note_count: 0,
    url: `https://app.todoist.com/app/task/${task.id}`,
  };
}

export function restLabelWire(label: LabelRecord) {
  return {
    id: label.id,
    name: label.name,
    color: label.color,
    order: label.order,
    is_favorite: label.isFavorite,
  };
}

/** Sync and webhook labels use `item_order` and always carry `is_deleted`. */
export function syncLabelWire(label: LabelRecord) {
  return {
    id: label.id,
    name: label.name,
    color: label.color,
    item_order: label.order,
    is_deleted: label.isDeleted,
    is_favorite: label.isFavorite,
  };
}

/** A personal project (REST, Sync `projects` and webhook `event_data` share it). */
export function projectWire(project: ProjectRecord) {
  return {
    id: project.id,
    can_assign_tasks: false,
    child_order: project.childOrder,
    color: project.color,
    created_at: project.createdAt,
    is_archived: project.isArchived,
    is_deleted: project.isDeleted,
    is_favorite: project.isFavorite,
    is_frozen: false,
    name: project.name,
    updated_at: project.updatedAt,
    view_style: project.viewStyle,
    default_order: 0,
    description: project.description,
    is_collapsed: project.isCollapsed,
    is_shared: false,
    parent_id: project.parentId,
    inbox_project: project.isInbox,
  };
}

const isPremium = (user: UserRecord) => user.premiumStatus !== 'not_premium';

/** `GET /api/v1/user`. */
export function restUserWire(user: UserRecord, now: Date) {
  return {
    id: user.id,
    email: user.email,
    full_name: user.fullName,
    avatar_big: null,
    avatar_medium: null,
    avatar_s640: null,
    avatar_small: null,
    business_account_id: null,
    is_premium: isPremium(user),
    premium_status: user.premiumStatus,
    date_format: 0,
    time_format: 0,
    weekly_goal: 30,
    daily_goal: 5,
    completed_count: 0,
    completed_today: 0,
    karma: 0,
    karma_trend: 'up',
    lang: 'en',
    next_week: 1,
    start_day: 1,
    start_page: 'today',
    tz_info: tzInfo(user.timeZone, now),
    inbox_project_id: user.inboxProjectId,
    days_off: [6, 7],
    weekend_start_day: 6,
  };
}

/** The Sync `user` resource, which carries more settings. */
export function syncUserWire(user: UserRecord, now: Date) {
  // Sync omits the avatar keys when there is no avatar (they are not nullable there).
  const { avatar_big, avatar_medium, avatar_s640, avatar_small, ...rest } = restUserWire(user, now);
  return {
    ...rest,
    activated_user: true,
    auto_reminder: 0,
    dateist_lang: null,
    feature_identifier: `${user.id}_sandbox`,
    features: {
      karma_disabled: false,
      restriction: isPremium(user) ? 3 : 0,
      karma_vacation: false,
      dateist_lang: null,
      beta: 0,
      has_push_reminders: false,
      dateist_inline_disabled: false,
    },
    has_magic_number: false,
    has_password: true,
    image_id: null,
    is_celebrations_enabled: true,
    joinable_workspace: null,
    joined_at: user.joinedAt,
    getting_started_guide_projects: null,
    mfa_enabled: false,
    premium_until: null,
    share_limit: isPremium(user) ? 51 : 6,
    sort_order: 0,
    theme_id: '0',
    unique_prefix: 1,
    verification_status: 'verified',
    websocket_url: 'wss://ws.todoist.com/ws',
  };
}

export function initiatorWire(user: UserRecord) {
  return {
    id: user.id,
    full_name: user.fullName,
    email: user.email,
    image_id: null,
    is_premium: isPremium(user),
  };
}
