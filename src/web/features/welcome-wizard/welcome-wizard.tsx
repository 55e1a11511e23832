import { Anchor, Button, Group, Modal, Progress, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { contract } from '#shared/api/contract.ts';
import { api } from '../../lib/api-client.ts';
import { paths } from '../../lib/paths.ts';
import { useUserChange } from '../../lib/user-change.ts';
import { WIZARD_STEPS } from './wizard-steps.tsx';

const markSeen = () => api(contract.user.setWizardSeen, { wizardSeen: true });

/**
 * Shown until the user has seen it (docs/product-rules.md §2): five steps, closable only by finishing. Should
 * saving that fail, it closes for now (with an error toast) and comes back on the next visit.
 */
export function WelcomeWizard({ seen }: { seen: boolean }) {
  const [step, setStep] = useState(0);
  const [closedForNow, setClosedForNow] = useState(false);
  const finish = useUserChange(markSeen, {
    errorTitle: 'We could not save that you have seen the welcome guide',
  });
  const current = WIZARD_STEPS[step];
  const last = step === WIZARD_STEPS.length - 1;
  if (!current) return null;

  return (
    <Modal
      opened={!seen && !closedForNow}
      onClose={() => {}}
      closeOnEscape={false}
      closeOnClickOutside={false}
      withCloseButton={false}
      title="Welcome to Timeboxer"
      centered
      size="lg"
    >
      <Stack>
        <Text size="sm" c="dimmed">
          Step {step + 1} of {WIZARD_STEPS.length}
        </Text>
        <Progress value={((step + 1) / WIZARD_STEPS.length) * 100} size="sm" aria-hidden />
        <Title order={3} size="h4">
          {current.title}
        </Title>
        <Stack gap="xs">{current.body}</Stack>
        <Group justify="space-between" mt="sm">
          {step > 0 ? (
            <Button variant="default" onClick={() => setStep(step - 1)} disabled={finish.isPending}>
              Back
            </Button>
          ) : (
            <span />
          )}
          {last ? (
            <Group gap="sm">
              <Anchor href={paths.documentation} target="_blank" rel="noopener" underline="always" fw={600}>
                <Group gap={4} component="span">
                  Open documentation
                  <IconExternalLink size={14} aria-hidden />
                  <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
                </Group>
              </Anchor>
              <Button
                loading={finish.isPending}
                onClick={() => finish.mutate(undefined, { onError: () => setClosedForNow(true) })}
              >
                Ok, let's go
              </Button>
            </Group>
          ) : (
            <Button onClick={() => setStep(step + 1)} data-autofocus>
              Next
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
