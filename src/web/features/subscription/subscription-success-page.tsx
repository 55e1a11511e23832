import { Alert, Container, Group, Loader, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { currentUserSchema } from '#shared/api/current-user.schema.ts';
import { paths } from '../../lib/paths.ts';
import { currentUserQueryKey } from '../auth/api/current-user.ts';

export const SUBSCRIPTION_SUCCESS_REDIRECT_MS = 3000;

export function SubscriptionSuccessPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sessionId = useSearchParams()[0].get('session_id');

  // Apply the checkout's outcome right away; the provider's webhook would bring the same a little later.
  useEffect(() => {
    if (!sessionId) return;
    fetch('/api/payment/checkout/complete', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId }),
    })
      .then(async (response) => {
        if (response.ok)
          queryClient.setQueryData(currentUserQueryKey, currentUserSchema.parse(await response.json()));
      })
      .catch((error: unknown) => console.warn('checkout could not be confirmed yet', error));
  }, [sessionId, queryClient]);

  useEffect(() => {
    const timer = setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
      navigate(paths.profile);
    }, SUBSCRIPTION_SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate, queryClient]);

  return (
    <Container size="sm" py={64}>
      <Alert color="green" title="Congratulations!" variant="light">
        <Text>Thank you for subscribing. Your subscription is now active.</Text>
        <Group gap="xs" mt="sm">
          <Loader size="xs" aria-hidden />
          <Text size="sm" c="dimmed">
            Taking you to your profile…
          </Text>
        </Group>
      </Alert>
    </Container>
  );
}
