import { Anchor, Card, Skeleton, Text } from '@mantine/core';
import { PageContainer } from '../../components/page-container.tsx';
import { usePublicConfig } from '../../lib/public-config.ts';

export function ContactPage() {
  const config = usePublicConfig();
  const email = config.data?.supportEmail;
  return (
    <PageContainer title="Contact">
      <Card withBorder padding="lg" maw={640}>
        <Text mb="sm">Found a bug, or have a question about Timeboxer? We are glad to hear from you.</Text>
        {email ? (
          <Text>
            Write to us at{' '}
            <Anchor href={`mailto:${email}`} fw={600} underline="always">
              {email}
            </Anchor>{' '}
            and we will answer within two working days.
          </Text>
        ) : config.isError ? (
          <Text c="red">The support address could not be loaded. Please reload the page.</Text>
        ) : (
          <Skeleton height={20} role="status" aria-label="Loading the support address" />
        )}
      </Card>
    </PageContainer>
  );
}
