import { Alert, Container, Group, Loader, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { currentUserQueryKey } from '../auth/api/current-user.ts';

export const SUBSCRIPTION_SUCCESS_REDIRECT_MS = 3000;

export function SubscriptionSuccessPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
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
