import { Alert, Container, Group, Loader, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { contract } from '#shared/api/contract.ts';
import { api } from '../../lib/api-client.ts';
import { currentUserQueryKey } from '../../lib/current-user.ts';
import { paths } from '../../lib/paths.ts';

export const SUBSCRIPTION_SUCCESS_REDIRECT_MS = 3000;

export function SubscriptionSuccessPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sessionId = useSearchParams()[0].get('session_id');

  // Apply the checkout's outcome right away; the provider's webhook would bring the same a little later.
  useEffect(() => {
    if (!sessionId) return;
    api(contract.subscription.completeCheckout, { sessionId })
      .then((user) => queryClient.setQueryData(currentUserQueryKey, user))
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
