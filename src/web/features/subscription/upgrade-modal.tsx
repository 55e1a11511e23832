import { Badge, Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { contract } from '#shared/api/contract.ts';
import { LOOKUP_KEYS, PLANS } from '#shared/api/payment.schema.ts';
import type { PaymentState } from '#shared/billing/subscription-status.ts';
import { DialogActions } from '../../components/dialog-actions.tsx';
import { postForm } from './post-form.ts';
import { trialNote } from './trial-note.ts';

type Interval = keyof typeof PLANS;

/**
 * Chooses monthly (the default) or yearly, then goes to the checkout page. In the trial it says the trial
 * continues and when the first charge is.
 */
export function UpgradeModal({
  opened,
  onClose,
  payment,
  now = new Date(),
}: {
  opened: boolean;
  onClose: () => void;
  payment: PaymentState;
  now?: Date;
}) {
  const [interval, setInterval] = useState<Interval>('month');
  const [leaving, setLeaving] = useState(false);
  const note = trialNote(payment, interval, now);

  const checkout = () => {
    setLeaving(true);
    postForm(contract.subscription.checkout, { lookup_key: LOOKUP_KEYS[interval] });
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Upgrade your plan" centered>
      <Stack>
        <Radio.Group
          value={interval}
          onChange={(value) => setInterval(value as Interval)}
          label="Choose a plan"
        >
          <Stack gap="sm" mt="xs">
            {(Object.keys(PLANS) as Interval[]).map((key) => {
              const plan = PLANS[key];
              return (
                <Radio
                  key={key}
                  value={key}
                  label={
                    <Group gap="xs">
                      <Text fw={600}>{plan.label}</Text>
                      <Text>
                        {plan.price} {plan.period}
                      </Text>
                      {'note' in plan && <Badge color="teal.9">{plan.note}</Badge>}
                    </Group>
                  }
                />
              );
            })}
          </Stack>
        </Radio.Group>
        {note && <Text size="sm">{note}</Text>}
        <Text size="sm" c="dimmed">
          You pay securely with Stripe. You can cancel at any time, effective at the end of the paid period;
          refunds are not possible.
        </Text>
        <DialogActions onCancel={onClose} busy={leaving}>
          <Button onClick={checkout} loading={leaving}>
            Continue to payment
          </Button>
        </DialogActions>
      </Stack>
    </Modal>
  );
}
