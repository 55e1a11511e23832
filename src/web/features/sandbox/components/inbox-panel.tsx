import { Accordion, Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import type { SandboxInbox } from '#shared/api/notices.schema.ts';
import { formatInstant } from '../../../lib/date-time-format.ts';
import { paths } from '../../../lib/paths.ts';
import { useDisplayZone } from '../../../lib/time-zone.ts';
import { mailTextParts } from '../mail-text.ts';
import { useSandboxInbox } from '../sandbox-api.ts';
import { ReadStatus } from './panel-status.tsx';

type Mail = SandboxInbox['messages'][number];

/** The notice mails the sandbox's mail server received for the signed-in visitor, read as often as the sides. */
export function InboxPanel({ user }: { user: CurrentUser | false }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label="Inbox">
      <Title order={2} size="h3" mb="sm">
        Inbox
      </Title>
      {user ? (
        <SignedInInbox user={user} />
      ) : (
        <Text size="sm" c="dimmed">
          <Anchor component={Link} to={paths.login} inherit underline="always">
            Log in
          </Anchor>{' '}
          to read the notice mails Timeboxer sends you.
        </Text>
      )}
    </Card>
  );
}

function SignedInInbox({ user }: { user: CurrentUser }) {
  const inbox = useSandboxInbox(user.id);
  return (
    <Stack gap="xs">
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        Mail to {user.email}
      </Text>
      <ReadStatus query={inbox} loadingLabel="Loading the inbox" failedText="The inbox could not be read" />
      {inbox.data?.messages.length === 0 && (
        <Text size="sm" c="dimmed">
          No mail yet. Notice mails land here, for example when the sync holds back many removals (delete a
          timebox label that several synced tasks carry) or stops.
        </Text>
      )}
      {inbox.data && inbox.data.messages.length > 0 && (
        <Accordion variant="separated" chevronPosition="right">
          {inbox.data.messages.map((mail) => (
            <MailItem key={mail.id} mail={mail} />
          ))}
        </Accordion>
      )}
    </Stack>
  );
}

function MailItem({ mail }: { mail: Mail }) {
  const { timeZone } = useDisplayZone();
  return (
    <Accordion.Item value={String(mail.id)}>
      <Accordion.Control icon={<IconMail size={16} aria-hidden />}>
        <Text size="sm" fw={500}>
          {mail.subject || '(no subject)'}
        </Text>
        <Text size="xs" c="dimmed" component="time" dateTime={mail.receivedAt}>
          {formatInstant(mail.receivedAt, timeZone)}
        </Text>
      </Accordion.Control>
      <Accordion.Panel>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {mailTextParts(mail.text.trimEnd()).map((part, index) =>
            part.href ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never move
              <Anchor key={index} href={part.href} inherit underline="always">
                {part.text}
              </Anchor>
            ) : (
              part.text
            ),
          )}
        </Text>
      </Accordion.Panel>
    </Accordion.Item>
  );
}
