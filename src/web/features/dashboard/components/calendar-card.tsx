import { IconBrandGoogle, IconBrandWindows, IconCalendar } from '@tabler/icons-react';
import type { CalendarSettings } from '#shared/api/current-user.schema.ts';
import { ConnectButton } from '../../../components/connect-button.tsx';
import { IntegrationCard, type IntegrationState } from './integration-card.tsx';
import { RemoveIntegrationButton } from './remove-integration-button.tsx';

const ICONS = {
  'Google Calendar': IconBrandGoogle,
  Microsoft: IconBrandWindows,
} as const;

/** Google Calendar or Microsoft 365: one calendar account at a time. */
export function CalendarCard({ calendar }: { calendar: CalendarSettings }) {
  const provider = calendar.connected ? calendar.provider : null;
  const state: IntegrationState = !provider
    ? 'disconnected'
    : calendar.needsReconnect
      ? 'reconnect'
      : 'connected';
  const Icon = provider ? ICONS[provider] : IconCalendar;

  const description = {
    connected: `Timeboxer creates events for your timeboxed tasks in your ${provider} calendar and turns new events into tasks.`,
    reconnect: `${provider} no longer accepts Timeboxer’s access, perhaps because it was removed there. Connect again to keep syncing.`,
    disconnected: 'Connect Google Calendar or Microsoft 365 (Outlook) to see your timeboxed tasks as events.',
  }[state];

  return (
    <IntegrationCard
      title={provider ?? 'Calendar'}
      icon={<Icon size={22} aria-hidden />}
      state={state}
      description={description}
      actions={
        provider ? (
          <>
            {state === 'reconnect' && <ConnectButton provider={provider} again />}
            <RemoveIntegrationButton provider={provider} />
          </>
        ) : (
          <>
            <ConnectButton provider="Google Calendar" />
            <ConnectButton provider="Microsoft" />
          </>
        )
      }
    />
  );
}
