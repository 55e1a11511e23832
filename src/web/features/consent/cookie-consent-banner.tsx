import { Anchor, Button, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { saveConsent, useConsent } from '../../lib/consent-store.ts';
import { paths } from '../../lib/paths.ts';

/** Shown at the bottom of every page until the visitor makes a choice. */
export function CookieConsentBanner() {
  const consent = useConsent();
  const [preferences, setPreferences] = useState(false);
  const [analytical, setAnalytical] = useState(consent.analytical);
  if (consent.isSet) return null;

  return (
    <Paper
      component="section"
      aria-label="Cookie consent"
      shadow="xl"
      withBorder
      p="md"
      radius={0}
      style={{ position: 'fixed', insetInline: 0, bottom: 0, zIndex: 300 }}
    >
      <Stack gap="sm" maw={960} mx="auto">
        <Text size="sm">
          We use functional cookies to keep you signed in, and, if you allow it, analytical cookies to learn
          how Timeboxer is used. Details are in our{' '}
          <Anchor component={Link} to={paths.privacy} inherit underline="always">
            Privacy Policy
          </Anchor>
          .
        </Text>
        {preferences && (
          <Stack gap="xs" role="group" aria-label="Cookie preferences">
            <Switch
              label="Functional"
              description="Always on: sign-in and your cookie choice."
              checked
              disabled
              readOnly
            />
            <Switch
              label="Analytical"
              description="Anonymous usage statistics that help us improve the product."
              checked={analytical}
              onChange={(event) => setAnalytical(event.currentTarget.checked)}
            />
          </Stack>
        )}
        <Group gap="sm" justify="flex-end">
          {preferences ? (
            <Button onClick={() => saveConsent({ analytical })}>Save preferences</Button>
          ) : (
            <>
              <Button variant="default" onClick={() => setPreferences(true)}>
                Change preferences
              </Button>
              <Button onClick={() => saveConsent({ analytical })}>Accept</Button>
            </>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
