import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangleFilled, IconCircleXFilled } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CalendarAccount, CalendarSettings } from '#shared/api/current-user.schema.ts';
import type { SyncProblem } from '#shared/api/sync.schema.ts';
import { formatActivityTime, formatFullTime } from '../../../lib/sync-activity-format.ts';
import { useDisplayZone } from '../../../lib/time-zone.ts';
import { type ProblemAdvice, problemAdvice } from '../sync-problems.ts';

type Props = {
  problems: SyncProblem[];
  calendarProvider: CalendarSettings['provider'];
  /** The user's calendar accounts, to name the one a problem is about. */
  accounts: readonly CalendarAccount[];
};

/** What stops or slows the sync and only the user can solve, each with what to do. */
export function SyncProblemList({ problems, calendarProvider, accounts }: Props) {
  const { timeZone } = useDisplayZone();
  return (
    <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Problems">
      {problems.map((problem) => {
        const advice = problemAdvice(problem.code, calendarProvider, accounts);
        const error = advice.severity === 'error';
        return (
          <li key={problem.code}>
            <Alert
              variant="light"
              color={error ? 'red' : 'yellow'}
              title={advice.title}
              icon={error ? <IconCircleXFilled aria-hidden /> : <IconAlertTriangleFilled aria-hidden />}
              role="status"
              // A long address breaks where it must instead of widening a phone's screen.
              styles={{ title: { overflowWrap: 'anywhere' }, message: { overflowWrap: 'anywhere' } }}
            >
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{advice.message}</Text>
                <Text size="xs">
                  Since{' '}
                  <time dateTime={problem.since} title={formatFullTime(problem.since, timeZone)}>
                    {formatActivityTime(problem.since, timeZone)}
                  </time>
                </Text>
                {advice.action && <ProblemAction action={advice.action} />}
              </Stack>
            </Alert>
          </li>
        );
      })}
    </Stack>
  );
}

function ProblemAction({ action }: { action: NonNullable<ProblemAdvice['action']> }) {
  // Connect flows and in-page anchors are plain links; other pages of the app go through the router.
  if (action.external) {
    return (
      <Button component="a" href={action.href} size="xs">
        {action.label}
      </Button>
    );
  }
  return (
    <Button component={Link} to={action.href} size="xs">
      {action.label}
    </Button>
  );
}
