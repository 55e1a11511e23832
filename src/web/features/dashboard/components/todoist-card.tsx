import { VisuallyHidden } from '@mantine/core';
import { IconChecklist } from '@tabler/icons-react';
import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import { ConnectButton } from '../../../components/connect-button.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { IntegrationCard, type IntegrationState } from './integration-card.tsx';
import { RemoveIntegrationButton } from './remove-integration-button.tsx';

export function TodoistCard({ todo }: { todo: TodoSettings }) {
  const state: IntegrationState = !todo.connected
    ? 'disconnected'
    : todo.needsReconnect
      ? 'reconnect'
      : 'connected';

  const description = {
    connected: 'Timeboxer reads your labels and turns tasks with a timebox label into calendar events.',
    reconnect:
      'Todoist no longer accepts Timeboxer’s access, perhaps because it was removed in Todoist. Connect again to keep syncing.',
    disconnected: 'Connect your Todoist account so that Timeboxer can timebox your tasks into your calendar.',
  }[state];

  return (
    <IntegrationCard
      title="Todoist"
      icon={<IconChecklist size={22} aria-hidden />}
      state={state}
      extraBadge={
        state === 'connected' && todo.accountType ? (
          <StatusBadge tone="neutral">
            <VisuallyHidden>Account type: </VisuallyHidden>
            {todo.accountType}
          </StatusBadge>
        ) : null
      }
      description={description}
      actions={
        <>
          {state !== 'connected' && <ConnectButton provider="Todoist" again={state === 'reconnect'} />}
          {state !== 'disconnected' && <RemoveIntegrationButton provider="Todoist" />}
        </>
      }
    />
  );
}
