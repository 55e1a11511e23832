import { Alert, Text } from '@mantine/core';
import { IconWorld } from '@tabler/icons-react';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { formatInstant } from '../../../lib/date-time-format.ts';
import { displayZone, offsetMinutes, zoneLabel, zonesDiffer } from '../../../lib/time-zone.ts';

/** 9:00 tomorrow in the Todoist zone, as the calendar's zone shows it: the shift a floating task makes. */
function floatingExample(todoist: string, calendar: string, now: Date) {
  const day = new Date(now.getTime() + 86_400_000);
  const nineUtc = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 9);
  const nine = nineUtc - offsetMinutes(todoist, nineUtc) * 60_000;
  return formatInstant(new Date(nine), calendar, 'time');
}

/**
 * The page's one zone, named once; and when Todoist's zone is not the calendar's, what that means for
 * floating tasks (a time without a zone is read in Todoist's) and where to change it.
 */
export function TimeZoneNote({ user }: { user: CurrentUser }) {
  const differ = zonesDiffer(user);
  const zone = displayZone(user);
  if (!differ) {
    return (
      <Text size="sm" c="dimmed">
        {zoneLabel(zone)}
      </Text>
    );
  }
  const shown = floatingExample(differ.todoist, differ.calendar, new Date());
  return (
    <Alert
      variant="light"
      color="blue"
      icon={<IconWorld aria-hidden />}
      title="Todoist and your calendar are in different time zones"
    >
      <Text size="sm">
        Todoist uses {differ.todoist}, your calendar {differ.calendar}. Timeboxer reads due times and Plan my
        day’s hours in Todoist’s: a task due “at 9:00” is 9:00 in {differ.todoist}, so your calendar app shows
        its event at {shown}. If that is not what you mean, change the time zone in Todoist: Settings →
        General → Time zone.
      </Text>
      <Text size="sm" mt={4}>
        {zoneLabel(zone)}
      </Text>
    </Alert>
  );
}
