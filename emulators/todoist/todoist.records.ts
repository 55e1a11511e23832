/** The records the emulator keeps; `seq` is the change sequence incremental syncs compare against. */
import type { Due } from './todoist.due.ts';

export const PREMIUM_STATUSES = [
  'not_premium',
  'current_personal_plan',
  'legacy_personal_plan',
  'teams_business_member',
] as const;
export type PremiumStatus = (typeof PREMIUM_STATUSES)[number];

/** How an expired or unknown sync token is answered: a full sync (Todoist's behaviour) or a 400. */
export type InvalidSyncTokenMode = 'full-sync' | 'error';

export type UserRecord = {
  id: string;
  email: string;
  fullName: string;
  premiumStatus: PremiumStatus;
  timeZone: string;
  inboxProjectId: string;
  joinedAt: string;
  seq: number;
  /** Sync tokens issued before the current epoch are expired. */
  syncEpoch: number;
  invalidSyncTokenMode: InvalidSyncTokenMode;
};

export const PROJECT_VIEW_STYLES = ['list', 'board', 'calendar', 'table'] as const;
export type ProjectViewStyle = (typeof PROJECT_VIEW_STYLES)[number];

export type ProjectRecord = {
  id: string;
  userId: string;
  name: string;
  color: string;
  /** null for a root project. */
  parentId: string | null;
  /** The position among the projects with the same parent. */
  childOrder: number;
  description: string;
  viewStyle: ProjectViewStyle;
  isFavorite: boolean;
  isCollapsed: boolean;
  isInbox: boolean;
  isArchived: boolean;
  isDeleted: boolean;
  createdAt: string;
  updatedAt: string;
  seq: number;
};

export type Duration = { amount: number; unit: 'minute' | 'day' };

export type TaskRecord = {
  id: string;
  userId: string;
  projectId: string;
  sectionId: string | null;
  parentId: string | null;
  content: string;
  description: string;
  labels: string[];
  priority: number;
  due: Due | null;
  duration: Duration | null;
  deadline: { date: string; lang: string } | null;
  checked: boolean;
  isDeleted: boolean;
  isCollapsed: boolean;
  childOrder: number;
  dayOrder: number;
  addedAt: string;
  updatedAt: string;
  completedAt: string | null;
  addedByUid: string;
  assignedByUid: string | null;
  responsibleUid: string | null;
  seq: number;
};

export type LabelRecord = {
  id: string;
  userId: string;
  name: string;
  color: string;
  order: number;
  isFavorite: boolean;
  isDeleted: boolean;
  seq: number;
};

/** A Sync command already applied, remembered by uuid so a replay is answered without applying it again. */
export type CommandResult = { status: 'ok' | Record<string, unknown>; tempId?: string; realId?: string };
