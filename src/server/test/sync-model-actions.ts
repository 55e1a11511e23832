import fc from 'fast-check';
import type { SyncRunReport } from '#server/sync/worker.ts';
import type { RefusedWrite } from '#shared/sync/refused-writes.ts';
import { berlinAt } from './sync-fixtures.ts';
import {
  actionable,
  eventExpected,
  inScope,
  type Length,
  type Model,
  type ModelItem,
  type Project,
  type Side,
  touch,
} from './sync-model.ts';
import type { ModelClock } from './sync-model-app.ts';
import type { ModelCalendar, SeenCalendar, SeenEvent } from './sync-model-calendars.ts';
import type { ModelUser } from './sync-model-user.ts';

/**
 * What the model-based sync test's commands are made of: the real world they act on (`Real`), the
 * command itself (`Action`, `onItem`) and the arbitraries and conditions the commands share.
 */

export type Real = {
  /** The user, with their own Todoist client and their calendar (Google or Microsoft 365). */
  user: ModelUser;
  /** The day every item is planned on (tomorrow when the sequence began). */
  day: string;
  taskIds: Map<number, string>;
  eventIds: Map<number, string>;
  /** The Todoist ids of the user's Inbox and of Work (made when the sequence began). */
  projects: Record<Project, string>;
  /** The access token the app (not the user's own client) uses with a provider for this user. */
  appToken(provider: Provider): Promise<string>;
  /** Lets the sync finish, checks both sides against the model, and learns the ids of new items. */
  settle(model: Model): Promise<void>;
  /** Waits until a run of the user asked for now has ended (and so any run in flight before it). */
  idle(): Promise<void>;
  /**
   * The first run of the user that started at or after `since` (a notification's, asked for by no one
   * here), once it ended; waited for as long as a settle waits for its run, then an error.
   */
  runAfter(since: number): Promise<SyncRunReport>;
  /**
   * Calendar accounts connected before the one connected now, with every event they held when the
   * user connected another one: nothing may be written there since.
   */
  retired: { calendar: ModelCalendar; calendars: SeenCalendar[] }[];
  /**
   * The calendar the account can only read now, with the events it held when the access dropped: all
   * of them stay there (the sync can no longer write there), ours too.
   */
  frozen: { calendarId: string; events: SeenEvent[] } | null;
  /**
   * The subscription the provider sent a lifecycle event for since the last settle (its push channel
   * needs the app), or null.
   */
  pushTold: string | null;
  /** The app's clock, which a lifted refusal moves past its back-off (`sync-model-app.ts`). */
  clock: ModelClock;
  /** The provider's refusal of the app's writes now (`model.refusal`), as the emulators hold it. */
  refusal: RealRefusal | null;
  /** The user's pairs whose write a provider refused for good, as the app keeps them. */
  refusedLinks(): Promise<RefusedLink[]>;
  /** How many of the user's sync runs threw so far (each retried by the queue, or given up). */
  failedAttempts(): Promise<number>;
};

/**
 * A refusal as played: the emulators' rules (`/_emulator/faults` of the calendar, `/_emulator/command-
 * faults` of Todoist), each item as the last settle before its write was refused showed it, every item
 * found refused since, and the clock's jumps and the app's time when it began.
 */
export type RealRefusal = {
  rules: { origin: string; route: 'faults' | 'command-faults'; id: number }[];
  before: Map<number, ModelItem>;
  ever: Set<number>;
  jumpsAtStart: number;
  since: number;
  /** The refusals the emulators counted when last read (a rule cleared by someone else keeps its count). */
  hits: Map<number, number>;
  /** At the last settle: the writes refused, the user's changes, the items, the clock's jumps, failed runs. */
  last: { hits: number; changes: number; items: number; jumps: number; failed: number } | null;
};

export type RefusedLink = {
  taskId: string | null;
  eventId: string | null;
  refusedWrite: RefusedWrite;
  refusedAt: Date | null;
  refusedCount: number;
};

/** One command of a sequence: what a user or the world does to one account. */
export type Step = fc.AsyncCommand<Model, Real>;
export type Provider = 'todoist' | 'calendar';

/** A command with its label, when it may run (`can`) and what it does (`act`). */
export class Action implements Step {
  readonly #label: string;
  readonly #can: (model: Readonly<Model>) => boolean;
  readonly #act: (model: Model, real: Real) => Promise<void>;
  constructor(
    label: string,
    can: (model: Readonly<Model>) => boolean,
    act: (model: Model, real: Real) => Promise<void>,
  ) {
    this.#label = label;
    this.#can = can;
    this.#act = act;
  }
  check(model: Readonly<Model>): boolean {
    return this.#can(model);
  }
  run(model: Model, real: Real): Promise<void> {
    return this.#act(model, real);
  }
  toString(): string {
    return this.#label;
  }
}

/** An action on one of the items `eligible` selects; `pick` chooses among them when it runs. */
export function onItem(
  label: string,
  pick: number,
  side: Side,
  eligible: (model: Readonly<Model>, item: ModelItem) => boolean,
  act: (model: Model, real: Real, item: ModelItem) => Promise<void>,
): Step {
  const candidates = (model: Readonly<Model>) =>
    model.items.filter((item) => actionable(model, item, side) && eligible(model, item));
  return new Action(
    `${label}#${pick}`,
    (model) => candidates(model).length > 0,
    async (model, real) => {
      const list = candidates(model);
      const item = list[pick % list.length] as ModelItem;
      await act(model, real, item);
      touch(model, item, side);
    },
  );
}

export const idOf = (ids: Map<number, string>, item: ModelItem) => {
  const id = ids.get(item.id);
  if (!id) throw new Error(`the model's item ${item.id} (${item.title}) has no known id`);
  return id;
};

export const hour = fc.integer({ min: 7, max: 20 });
export const length = fc.constantFrom<Length>(30, 60);
export const pick = fc.nat(20);

export const startOn = (real: Real, at: number) => berlinAt(real.day, at).instant;

export const openTimeboxed = (model: Readonly<Model>, item: ModelItem) =>
  inScope(model, item) && !item.completed;
/** A label the user may put on a task: not deleted in Todoist. */
export const usableLabel = (model: Readonly<Model>, minutes: Length) => !model.labelDeleted[minutes];
/** A length the sync takes an event of as it is (a timebox setting has it). */
export const timeboxLength = (model: Readonly<Model>, minutes: Length) => model.settings[minutes];
export const otherLength = (minutes: Length): Length => (minutes === 30 ? 60 : 30);
export const ourOpenEvent = (model: Readonly<Model>, item: ModelItem) =>
  item.outOfScope === null && !item.completed && eventExpected(model as Model, item);
