import { z } from 'zod';
import type { SandboxAccounts, SandboxCalendarProvider } from '#shared/api/sandbox.schema.ts';

/** What the signed-in user connected, in the providers' own ids. */
export type SandboxConnections = {
  todoistUserId: string | null;
  calendar: {
    provider: SandboxCalendarProvider;
    /** The account's calendars as the product stored them; any one of them names the account. */
    calendarIds: string[];
    chosenCalendarId: string | null;
  } | null;
  /** The calendar accounts added beside the sync's, by their calendars (any one names the account). */
  others: { provider: SandboxCalendarProvider; calendarIds: string[] }[];
};

/** The side of the console an e-mail address names an account on. */
export type SandboxSide = 'todoist' | SandboxCalendarProvider;

/** The signed-in user, as far as the console's access goes: their sign-in address and connections. */
export type SandboxVisitor = { email: string; connections: SandboxConnections };

type Origins = { todoist: string; google: string; microsoft: string };

const sameAddress = (a: string | null | undefined, b: string) =>
  !!a && a.trim().toLowerCase() === b.trim().toLowerCase();

// Each emulator's `/_emulator/state` holds much more; only the account ↔ e-mail part is read.
const todoistState = z.object({ users: z.array(z.object({ id: z.string(), email: z.string() })) });
const calendarAccount = z.object({ email: z.string(), calendars: z.array(z.object({ id: z.string() })) });
const googleState = z.object({ accounts: z.array(calendarAccount) });
const microsoftState = z.object({ users: z.array(calendarAccount) });

async function readState<T extends z.ZodType>(origin: string, schema: T): Promise<z.infer<T>> {
  const response = await fetch(`${origin}/_emulator/state`);
  if (!response.ok) throw new Error(`/_emulator/state answered ${response.status}`);
  return schema.parse(await response.json());
}

/**
 * Finds the e-mail address of each connected account on the emulators, where every e-mail address is
 * an account: the product stores provider ids (the Todoist user id, the calendars), the console works
 * by e-mail.
 */
export function createSandboxAccounts(origins: Origins) {
  async function todoistEmail(userId: string): Promise<string | null> {
    const { users } = await readState(origins.todoist, todoistState);
    return users.find((user) => user.id === userId)?.email ?? null;
  }

  async function calendarEmail(provider: SandboxCalendarProvider, calendarIds: string[]) {
    const accounts =
      provider === 'google'
        ? (await readState(origins.google, googleState)).accounts
        : (await readState(origins.microsoft, microsoftState)).users;
    const owner = accounts.find((account) =>
      account.calendars.some((calendar) => calendarIds.includes(calendar.id)),
    );
    return owner?.email ?? null;
  }

  return {
    /**
     * Whether `email` names one of the visitor's own accounts on `side`: their sign-in address (on any
     * side), or the account they connected there. The emulators are read only for the latter.
     */
    async owns(visitor: SandboxVisitor, side: SandboxSide, email: string): Promise<boolean> {
      if (sameAddress(visitor.email, email)) return true;
      const { todoistUserId, calendar, others } = visitor.connections;
      if (side === 'todoist') return !!todoistUserId && sameAddress(await todoistEmail(todoistUserId), email);
      for (const account of [...(calendar ? [calendar] : []), ...others]) {
        if (account.provider !== side) continue;
        if (sameAddress(await calendarEmail(side, account.calendarIds), email)) return true;
      }
      return false;
    },

    async accountsOf({ todoistUserId, calendar, others }: SandboxConnections): Promise<SandboxAccounts> {
      const [todoist, calendarOwner, ...otherOwners] = await Promise.all([
        todoistUserId ? todoistEmail(todoistUserId) : null,
        calendar ? calendarEmail(calendar.provider, calendar.calendarIds) : null,
        ...others.map((account) => calendarEmail(account.provider, account.calendarIds)),
      ]);
      return {
        todoist: todoistUserId ? { email: todoist } : null,
        calendar: calendar
          ? { provider: calendar.provider, email: calendarOwner, calendarId: calendar.chosenCalendarId }
          : null,
        others: others.map((account, index) => ({
          provider: account.provider,
          email: otherOwners[index] ?? null,
        })),
      };
    },
  };
}
