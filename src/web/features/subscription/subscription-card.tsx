import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { contract } from '#shared/api/contract.ts';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { profileSubscription } from '#shared/billing/subscription-status.ts';
import { SectionCard } from '../../components/section-card.tsx';
import { formatProfileDate } from '../../lib/format-date.ts';
import { postForm } from './post-form.ts';
import { UpgradeModal } from './upgrade-modal.tsx';

/**
 * The profile's subscription: plan, status badge, date line, and Manage or Upgrade (docs/product-rules.md §2,
 * §4).
 */
export function SubscriptionCard({ user }: { user: CurrentUser }) {
  const labels = profileSubscription(user.payment);
  const [upgradeOpened, upgrade] = useDisclosure(false);
  const [leaving, setLeaving] = useState(false);
  const [params] = useSearchParams();

  return (
    <SectionCard title="Subscription">
      {params.get('payment') === 'unavailable' && (
        <Alert color="red" title="The payment page could not be opened">
          Please try again in a moment. If it keeps failing, write to us from the contact page.
        </Alert>
      )}
      <Stack gap={4}>
        <Group gap="xs">
          <Text fw={600}>{labels.plan}</Text>
          {labels.badge && <Badge variant="light">{labels.badge}</Badge>}
        </Group>
        {labels.dateLabel && (
          <Text size="sm" c="dimmed">
            {labels.dateLabel} {formatProfileDate(user.payment.validUntil)}
          </Text>
        )}
      </Stack>
      <Group>
        {labels.action === 'Manage your Subscription' ? (
          <Button
            variant="default"
            loading={leaving}
            onClick={() => {
              setLeaving(true);
              postForm(contract.subscription.manage);
            }}
          >
            Manage your Subscription
          </Button>
        ) : (
          <Button onClick={upgrade.open}>Upgrade</Button>
        )}
      </Group>
      <UpgradeModal opened={upgradeOpened} onClose={upgrade.close} payment={user.payment} />
    </SectionCard>
  );
}
