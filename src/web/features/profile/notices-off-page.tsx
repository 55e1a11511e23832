import { Alert, Anchor, Button, Card, Container, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconMailOff } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/api-client.ts';
import { currentUserQueryKey } from '../../lib/current-user.ts';
import { paths } from '../../lib/paths.ts';
import { readNoticesOffLink } from './notices-off-link.ts';
import { profileCalls } from './profile-api.ts';

const BROKEN_LINK =
  'This link is incomplete: the mail client may have cut it short. Open the whole link from the mail, or turn notice e-mails off in your profile.';

/**
 * Where a notice mail's "turn them off" link leads (docs/product-rules.md §11), signed in or not. Only the
 * button turns the mails off: mail scanners open every link in a mail, and must not do it for the person.
 */
export function NoticesOffPage() {
  const [search] = useSearchParams();
  const link = readNoticesOffLink(search);
  const queryClient = useQueryClient();
  const turnOff = useMutation({
    mutationFn: profileCalls.turnNoticesOff,
    // A signed-in visitor's profile must show the switch off.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
  });

  return (
    <Container size={520} py={64}>
      <Card withBorder shadow="sm" padding="xl">
        {turnOff.isSuccess ? (
          <Stack gap="md" role="status">
            <IconCircleCheck size={32} color="var(--mantine-color-teal-7)" aria-hidden />
            <Title order={1} size="h2">
              Notice <span style={{ whiteSpace: 'nowrap' }}>e-mails</span> are off
            </Title>
            <Text>
              You can turn them on again in your{' '}
              <Anchor component={Link} to={paths.profile} inherit underline="always">
                profile
              </Anchor>
              .
            </Text>
          </Stack>
        ) : (
          <Stack gap="md">
            <IconMailOff size={32} color="var(--mantine-color-dimmed)" aria-hidden />
            <Title order={1} size="h2">
              Turn off notice <span style={{ whiteSpace: 'nowrap' }}>e-mails?</span>
            </Title>
            <Text c="dimmed">
              Timeboxer will no longer e-mail you when your sync stops or needs you. The dashboard still shows
              every problem.
            </Text>
            {!link && (
              <Alert color="red" title="This link does not work">
                {BROKEN_LINK}
              </Alert>
            )}
            {turnOff.isError && (
              <Alert color="red" title="Notice e-mails are still on">
                {errorMessage(turnOff.error)}
              </Alert>
            )}
            <div>
              <Button
                leftSection={<IconMailOff size={16} aria-hidden />}
                onClick={() => link && turnOff.mutate(link)}
                loading={turnOff.isPending}
                disabled={!link}
              >
                Turn them off
              </Button>
            </div>
          </Stack>
        )}
      </Card>
    </Container>
  );
}
