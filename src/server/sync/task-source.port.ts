/**
 * What the sync engine needs from a task service (Todoist): incremental reads of tasks and idempotent
 * writes. `providers/todoist/todoist-tasks.adapter.ts` implements it with the official SDK; the engine
 * knows nothing of HTTP or of any vendor. Texts pass through memory only: the engine stores hashes.
 */

/** A Todoist due: `date` is `YYYY-MM-DD` (all-day), floating `YYYY-MM-DDTHH:MM:SS`, or UTC `…Z` (fixed). */
export type TaskDue = {
  date: string;
  /** Set for a fixed due time (Todoist's `timezone`); null for floating times and dates. */
  timezone: string | null;
  isRecurring: boolean;
  /** The human string ("every monday at 9am"); needed to keep a recurrence when the time moves. */
  string: string;
};

export type TaskSnapshot = {
  id: string;
  content: string;
  description: string;
  labels: string[];
  /** The task's project (null: not known, as for a task known only by its id). */
  projectId: string | null;
  due: TaskDue | null;
  duration: { amount: number; unit: 'minute' | 'day' } | null;
  checked: boolean;
  /** Todoist's API priority: 4 is the highest (shown as p1), 1 the lowest. */
  priority: number;
  /** The task's order in its list (Todoist's `child_order`). */
  order: number;
  completedAt: string | null;
  isDeleted: boolean;
  /** Todoist's `updated_at`: the version marker of the task. */
  updatedAt: string | null;
};

/** A project as Todoist's read brings it; archived and deleted ones leave the settings' list. */
export type ProjectSnapshot = {
  id: string;
  name: string;
  color: string;
  parentId: string | null;
  inbox: boolean;
  order: number;
  isArchived: boolean;
  isDeleted: boolean;
};

/** A label as Todoist's read brings it: tasks name their labels; settings follow them by id. */
export type LabelSnapshot = { id: string; name: string; color: string; order: number; isDeleted: boolean };

export type TaskChanges = {
  tasks: TaskSnapshot[];
  /** The labels changed since the token (every label after a full read), read with the tasks. */
  labels: LabelSnapshot[];
  /** The projects changed since the token (every active project after a full read). */
  projects: ProjectSnapshot[];
  /** True when the read was a full one (no token, or Todoist refused the token). */
  full: boolean;
  nextToken: string;
  /** The Todoist user's time zone, when the read returned the user. */
  timeZone: string | null;
};

/** What we write of a due: a floating local time, or a fixed UTC instant with its zone. */
export type DueWrite =
  | { kind: 'floating'; local: string; string?: string }
  | { kind: 'fixed'; utc: string; timezone: string; string?: string }
  | { kind: 'date'; date: string; string?: string };

/**
 * A Todoist write. `uuid` makes it idempotent: the same command sent twice is applied once (Todoist
 * remembers command uuids), so a job that dies after sending it can send it again.
 */
export type TaskCommand =
  | {
      kind: 'add';
      uuid: string;
      tempId: string;
      content: string;
      due: DueWrite;
      labels: string[];
      duration: { amount: number; unit: 'minute' } | null;
      /** Omitted: Todoist's default, the Inbox. */
      projectId?: string;
    }
  | {
      kind: 'update';
      uuid: string;
      id: string;
      content?: string;
      due?: DueWrite | null;
      labels?: string[];
      duration?: { amount: number; unit: 'minute' } | null;
    }
  | { kind: 'delete'; uuid: string; id: string };

export type TaskCommandResult = {
  /** Real ids of added tasks, by the command's temp id. */
  idsByTempId: Record<string, string>;
  /** Commands Todoist refused, by uuid, with its error tag. A deleted task's update is refused. */
  failed: Record<string, string>;
  /** The HTTP status Todoist gives a refused command (its `http_code`), by uuid, where it gives one. */
  failedStatus?: Record<string, number>;
};

export type TaskSource = {
  /** Changes since `syncToken` (null: everything active). An expired token yields a full read. */
  changes(accessToken: string, syncToken: string | null): Promise<TaskChanges>;
  /** One task, completed or not; null when it no longer exists. */
  task(accessToken: string, id: string): Promise<TaskSnapshot | null>;
  /** The open tasks among `ids`, in one read (Todoist's `GET /tasks?ids=`); completed and deleted ones are left out. */
  openTasks(accessToken: string, ids: readonly string[]): Promise<TaskSnapshot[]>;
  apply(accessToken: string, commands: TaskCommand[]): Promise<TaskCommandResult>;
};
