import { ProviderRequestError } from '#server/domain/integrations/integration-providers.port.ts';
import { type CalendarEvent, CalendarGoneError } from '#server/sync/calendar-target.port.ts';

/** Outlook serves at most 4 concurrent requests per mailbox and app. */
const PARALLEL_VIEWS = 4;

/**
 * The busy times of several calendars of a mailbox, from each one's calendar view (`view`), at most four
 * at a time: Graph has no free/busy over a mailbox's other calendars (`getSchedule` answers from the
 * default one only, docs/provider-facts.md §5). Busy, timed events count; free and all-day ones do not.
 * A calendar gone or no longer readable is left out so the others still count.
 */
export async function busyAcross(
  calendarIds: readonly string[],
  view: (calendarId: string) => Promise<CalendarEvent[]>,
): Promise<{ start: Date; end: Date }[]> {
  const views = await inParallel([...new Set(calendarIds)], PARALLEL_VIEWS, (calendarId) =>
    view(calendarId).catch((error: unknown) => {
      if (unreadable(error)) return [];
      throw error;
    }),
  );
  return views
    .flat()
    .flatMap((event) =>
      event.busy && !event.allDay && event.start && event.end ? [{ start: event.start, end: event.end }] : [],
    );
}

/**
 * The calendar is gone (404), or the account may no longer read it (403: a share withdrawn, or reduced
 * to free/busy). Throttling, 5xx, a refused token and network failures are not this: they still fail
 * the read, and the run with it, as any other provider failure does.
 */
function unreadable(error: unknown): boolean {
  return (
    error instanceof CalendarGoneError || (error instanceof ProviderRequestError && error.status === 403)
  );
}

/** `work` over every item, at most `limit` at a time; the answers in the items' order. */
async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>) {
  const answers: R[] = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        answers[index] = await work(items[index] as T);
      } catch (error) {
        // One failure fails them all: start no more.
        next = items.length;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return answers;
}
