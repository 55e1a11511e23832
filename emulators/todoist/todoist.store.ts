import { createHash } from 'node:crypto';
import { numericIdFrom, randomAlphanumeric, randomUrlSafe } from '../shared/ids.ts';
import type { CommandResult, LabelRecord, ProjectRecord, TaskRecord, UserRecord } from './todoist.records.ts';
import { UserRecords } from './todoist.user-records.ts';

/**
 * The shape of the opaque string ids the emulator makes: `letters`, as API v1 makes them
 * (`6X7rM8997g3RQmvh`); `digits`, numeric strings (REST v2's shape), played so that nothing relies on
 * one: any string is an id to a client (docs/provider-facts.md §13).
 */
export type IdShape = 'letters' | 'digits';

export function opaqueId(shape: IdShape = 'letters'): string {
  return shape === 'digits' ? `9${numericIdFrom(randomAlphanumeric(16), 10)}` : `6${randomAlphanumeric(15)}`;
}

function idFrom(seed: string): string {
  return `6${createHash('sha256').update(seed).digest('base64url').replace(/[-_]/g, 'x').slice(0, 15)}`;
}

export class TodoistStore {
  readonly users = new Map<string, UserRecord>();
  readonly projects = new UserRecords<ProjectRecord>();
  readonly tasks = new UserRecords<TaskRecord>();
  readonly labels = new UserRecords<LabelRecord>();
  /** The shape of the ids made from now on (`POST /_emulator/forms { idShape }`); a reset makes it `letters`. */
  idShape: IdShape = 'letters';
  #seq = 0;
  #syncTokens = new Map<string, { userId: string; seq: number; epoch: number }>();
  #commands = new Map<string, CommandResult>();
  #tempIds = new Map<string, string>();
  /** The zone of an account made by the consent page or a seed without one (Todoist's own default: UTC). */
  readonly #defaultTimeZone: string;

  constructor(defaultTimeZone = 'UTC') {
    this.#defaultTimeZone = defaultTimeZone;
  }

  /** Marks a record as changed now, so the next incremental sync returns it. */
  touch(record: { seq: number }): void {
    this.#seq += 1;
    record.seq = this.#seq;
  }

  upsertUser(email: string, fullName: string, stamp: string): UserRecord {
    const normalized = email.trim().toLowerCase();
    const id = numericIdFrom(`todoist:${normalized}`, 8);
    const existing = this.users.get(id);
    if (existing) {
      if (fullName && existing.fullName !== fullName) {
        existing.fullName = fullName;
        this.touch(existing);
      }
      return existing;
    }
    const inbox = this.addProject(id, 'Inbox', stamp, true);
    const user: UserRecord = {
      id,
      email: normalized,
      fullName: fullName || normalized.split('@')[0] || normalized,
      premiumStatus: 'not_premium',
      timeZone: this.#defaultTimeZone,
      inboxProjectId: inbox.id,
      joinedAt: stamp,
      seq: 0,
      syncEpoch: 0,
      invalidSyncTokenMode: 'full-sync',
    };
    this.touch(user);
    this.users.set(id, user);
    return user;
  }

  /** A root project (the Inbox, or a seeded one) at the end of the list; `project_add` sets the rest. */
  addProject(userId: string, name: string, stamp: string, isInbox = false): ProjectRecord {
    const project: ProjectRecord = {
      // The Inbox id is derived from the user, so the same e-mail always gets the same Inbox.
      id: isInbox ? idFrom(`inbox:${userId}`) : this.newId(),
      userId,
      name,
      color: 'charcoal',
      parentId: null,
      childOrder: this.userProjects(userId).length,
      description: '',
      viewStyle: 'list',
      isFavorite: false,
      isCollapsed: false,
      isInbox,
      isArchived: false,
      isDeleted: false,
      createdAt: stamp,
      updatedAt: stamp,
      seq: 0,
    };
    this.touch(project);
    this.projects.add(project);
    return project;
  }

  findUser(idOrEmail: string): UserRecord | undefined {
    if (!idOrEmail.includes('@')) return this.users.get(idOrEmail);
    return this.users.get(numericIdFrom(`todoist:${idOrEmail.trim().toLowerCase()}`, 8));
  }

  /** The user's tasks, in the order they were added. */
  userTasks(userId: string): TaskRecord[] {
    return this.tasks.of(userId);
  }

  userLabels(userId: string): LabelRecord[] {
    return this.labels.of(userId).sort((a, b) => a.order - b.order || a.seq - b.seq);
  }

  userProjects(userId: string): ProjectRecord[] {
    return this.projects.of(userId).sort((a, b) => a.childOrder - b.childOrder);
  }

  issueSyncToken(userId: string): string {
    const user = this.users.get(userId);
    const token = randomUrlSafe(45);
    this.#syncTokens.set(token, { userId, seq: this.#seq, epoch: user?.syncEpoch ?? 0 });
    return token;
  }

  /** The sequence number a token stands for; undefined when unknown, foreign or expired. */
  syncTokenSeq(token: string, userId: string): number | undefined {
    const entry = this.#syncTokens.get(token);
    const user = this.users.get(userId);
    if (!entry || !user || entry.userId !== userId || entry.epoch !== user.syncEpoch) return undefined;
    return entry.seq;
  }

  commandResult(userId: string, uuid: string): CommandResult | undefined {
    return this.#commands.get(`${userId}:${uuid}`);
  }

  rememberCommand(userId: string, uuid: string, result: CommandResult): void {
    this.#commands.set(`${userId}:${uuid}`, result);
    if (result.tempId && result.realId) this.#tempIds.set(`${userId}:${result.tempId}`, result.realId);
  }

  /** Resolves a temporary id from an earlier `item_add`/`label_add`/`project_add`; real ids pass through. */
  resolveId(userId: string, id: string): string {
    return this.#tempIds.get(`${userId}:${id}`) ?? id;
  }

  /** A new object's id, in the shape played now. */
  newId(): string {
    return opaqueId(this.idShape);
  }

  reset(): void {
    this.idShape = 'letters';
    this.users.clear();
    this.projects.clear();
    this.tasks.clear();
    this.labels.clear();
    this.#syncTokens.clear();
    this.#commands.clear();
    this.#tempIds.clear();
    this.#seq = 0;
  }

  snapshot() {
    return {
      users: [...this.users.values()],
      projects: this.projects.values(),
      tasks: this.tasks.values(),
      labels: this.labels.values(),
      syncTokens: [...this.#syncTokens].map(([token, entry]) => ({ token, ...entry })),
      commands: [...this.#commands].map(([key, result]) => ({ key, ...result })),
    };
  }
}
