import { z } from 'zod';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import { type SandboxInbox, sandboxMailSchema } from '#shared/api/notices.schema.ts';
import type {
  SandboxCalendar,
  SandboxCalendarProvider,
  SandboxCalendarQuery,
  SandboxEventInput,
  SandboxEventRef,
} from '#shared/api/sandbox.schema.ts';
import { createSandboxAccounts } from './sandbox-accounts.ts';
import type { SandboxCalendarService } from './sandbox-emulator-access.ts';
import { createSandboxGoogleCalendar } from './sandbox-google-calendar.ts';
import { createSandboxMicrosoftCalendar, type MicrosoftEndpoints } from './sandbox-microsoft-calendar.ts';
import { createSandboxTodoist } from './sandbox-todoist.ts';

export type SandboxEndpoints = {
  todoistOrigin: string;
  googleCalendarOrigin: string;
  microsoft: MicrosoftEndpoints;
  /** The mail server's inbox (notice mails). */
  mailOrigin: string;
};

export type SandboxConsole = ReturnType<typeof createSandboxConsole>;

const inboxAnswer = z.object({ messages: z.array(sandboxMailSchema) });

/**
 * Acts as a person using Todoist and their calendar (Google Calendar or Microsoft 365) directly, on
 * the emulators: the sandbox page uses it so that a visitor can change either side and watch the
 * sync react. It obtains tokens through the emulators' control routes, then uses the same official
 * SDKs as the product.
 */
export function createSandboxConsole(endpoints: SandboxEndpoints, clock: Clock) {
  const calendars: Record<SandboxCalendarProvider, SandboxCalendarService> = {
    google: createSandboxGoogleCalendar(endpoints.googleCalendarOrigin, clock),
    microsoft: createSandboxMicrosoftCalendar(endpoints.microsoft, clock),
  };

  return {
    ...createSandboxTodoist(endpoints.todoistOrigin, clock),
    ...createSandboxAccounts({
      todoist: endpoints.todoistOrigin,
      google: endpoints.googleCalendarOrigin,
      microsoft: endpoints.microsoft.origin,
    }),

    readCalendar({ email, calendarId, provider }: SandboxCalendarQuery): Promise<SandboxCalendar> {
      return calendars[provider].read(email, calendarId);
    },

    addEvent(input: SandboxEventInput): Promise<void> {
      return calendars[input.provider].add(input);
    },

    updateEvent(id: string, input: SandboxEventInput): Promise<void> {
      return calendars[input.provider].update(id, input);
    },

    deleteEvent(ref: SandboxEventRef): Promise<void> {
      return calendars[ref.provider].remove(ref);
    },

    /** The notice mails the sandbox's mail server received for `email`, newest first. */
    async inbox(email: string): Promise<SandboxInbox> {
      const response = await fetch(
        `${endpoints.mailOrigin}/_emulator/messages?${new URLSearchParams({ to: email })}`,
      );
      if (!response.ok) throw new Error(`the mail server answered ${response.status}`);
      const { messages } = inboxAnswer.parse(await response.json());
      return { messages };
    },
  };
}
