import { Anchor, Button, Group, Modal, Progress, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { contract } from '#shared/api/contract.ts';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { api } from '../../lib/api-client.ts';
import { goToSection } from '../../lib/go-to-section.ts';
import { paths } from '../../lib/paths.ts';
import { setupProgress } from '../../lib/setup-steps.ts';
import { useUserChange } from '../../lib/user-change.ts';
import { wizardActions } from './wizard-actions.ts';
import { forgetStep, rememberStep, resumedStep } from './wizard-resume.ts';
import { WizardStepActions } from './wizard-step-actions.tsx';
import { WIZARD_STEPS } from './wizard-steps.tsx';

const markSeen = () => api(contract.user.setWizardSeen, { wizardSeen: true });

/**
 * Shown until the user has seen it (docs/product-rules.md §2): five steps, each with its setup action where
 * it has one. Finishing ("Ok, let's go"), the close button, or a step's button to a dashboard section mark it
 * seen; Escape and a click outside do not close it. Should saving that fail, it closes for now (with an error
 * toast) and comes back on the next visit. Connecting an account leaves the page and comes back to the step.
 */
export function WelcomeWizard({ user }: { user: CurrentUser }) {
  const [step, setStep] = useState(() => resumedStep(WIZARD_STEPS.length));
  const [closed, setClosed] = useState(false);
  // The section to go to once the closing transition is over (so that focus lands there, not on the body).
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const finish = useUserChange(markSeen, {
    errorTitle: 'We could not save that you have seen the welcome guide',
  });
  const opened = !user.welcomeWizardSeen && !closed;
  useEffect(() => {
    if (opened) rememberStep(step);
  }, [opened, step]);

  const current = WIZARD_STEPS[step];
  const last = step === WIZARD_STEPS.length - 1;
  if (!current) return null;

  const close = (sectionId: string | null) => {
    forgetStep();
    setLeaveTo(sectionId);
    setClosed(true);
    finish.mutate(undefined);
  };

  return (
    <Modal
      opened={opened}
      onClose={() => close(null)}
      closeOnEscape={false}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close the welcome guide' }}
      returnFocus={leaveTo === null}
      onExitTransitionEnd={() => leaveTo && goToSection(leaveTo)}
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
        {current.action && (
          <WizardStepActions items={wizardActions(current.action, setupProgress(user))} onGo={close} />
        )}
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
                onClick={() => {
                  forgetStep();
                  finish.mutate(undefined, { onError: () => setClosed(true) });
                }}
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
