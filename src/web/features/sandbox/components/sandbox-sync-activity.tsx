import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { HeldRemovalsAlert } from '../../../components/held-removals-alert.tsx';
import { SyncActivityList } from '../../../components/sync-activity-list.tsx';
import { paths } from '../../../lib/paths.ts';
import { useActivityNames, useSyncActivity } from '../../../lib/sync-activity.ts';
import { lastSyncedText, latestEntries } from '../../../lib/sync-activity-format.ts';
import { useDisplayZone } from '../../../lib/time-zone.ts';
import { SANDBOX_REFRESH_MS } from '../sandbox-api.ts';

const SHOWN_ENTRIES = 15;

/** The signed-in visitor's sync activity beside the two sides, read as often as they are. */
export function SandboxSyncActivity({ user }: { user: CurrentUser | false }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label="Sync activity">
      <Title order={2} size="h3" mb="sm">
        Sync activity
      </Title>
      {user ? (
        <SignedInActivity syncActive={user.syncActive} />
      ) : (
        <Text size="sm" c="dimmed">
          <Anchor component={Link} to={paths.login} inherit underline="always">
            Log in
          </Anchor>
          , connect Todoist and a calendar, and switch sync on to watch what it does here.
        </Text>
      )}
    </Card>
  );
}

function SignedInActivity({ syncActive }: { syncActive: boolean }) {
  const activity = useSyncActivity({ refetchMs: SANDBOX_REFRESH_MS });
  const names = useActivityNames(activity.data);
  const zone = useDisplayZone();
  const problems =
    activity.data?.problems.filter(
      (problem) => problem.code !== 'removals-held' || !activity.data?.heldRemovals,
    ).length ?? 0;
  return (
    <Stack gap="xs">
      {!syncActive && (
        <Text size="sm">
          Sync is off. Switch it on in the{' '}
          <Anchor component={Link} to={paths.dashboard} inherit underline="always">
            Dashboard
          </Anchor>
          .
        </Text>
      )}
      {activity.isError && (
        <Text size="sm" c="dimmed">
          The sync activity is not available right now.
        </Text>
      )}
      {activity.data && (
        <>
          {activity.data.heldRemovals && (
            <HeldRemovalsAlert held={activity.data.heldRemovals} names={names.data} />
          )}
          {problems > 0 && (
            <Text size="sm" fw={600}>
              {problems === 1 ? 'One problem needs' : `${problems} problems need`} your attention: see the{' '}
              <Anchor component={Link} to={paths.dashboard} inherit underline="always">
                Dashboard
              </Anchor>
              .
            </Text>
          )}
          <Group>
            <Text size="xs" c="dimmed">
              {lastSyncedText(activity.data.lastRunAt, zone.timeZone)}
            </Text>
          </Group>
          {activity.data.entries.length === 0 ? (
            <Text size="sm" c="dimmed">
              No sync activity yet.
            </Text>
          ) : (
            <SyncActivityList
              entries={latestEntries(activity.data.entries, SHOWN_ENTRIES)}
              names={names.data}
              compact
            />
          )}
        </>
      )}
    </Stack>
  );
}
