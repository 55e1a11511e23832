import { Text } from '@mantine/core';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { PageContainer } from '../../components/page-container.tsx';
import { useAuth } from '../auth/api/current-user.ts';
import { NotLoggedIn } from '../auth/components/not-logged-in.tsx';
import { AdvancedSettingsSection } from '../calendar-settings/components/advanced-settings-section.tsx';
import { CalendarSettingsSection } from '../calendar-settings/components/calendar-settings-section.tsx';
import { SyncActivitySection } from '../sync-activity/sync-activity-section.tsx';
import { TimeBoxSettingsSection } from '../timeboxes/time-box-settings-section.tsx';
import { WelcomeWizard } from '../welcome-wizard/welcome-wizard.tsx';
import { IntegrationsRow } from './components/integrations-row.tsx';
import { StatusRow } from './components/status-row.tsx';
import { useConnectToast } from './use-connect-toast.ts';
import { useProviderRefresh } from './use-provider-refresh.ts';

/** The signed-in home (spec §2): the page composes the settings features, which do not know each other. */
export function DashboardPage() {
  const user = useAuth();
  if (!user) return <NotLoggedIn />;
  return <Dashboard user={user} />;
}

function Dashboard({ user }: { user: CurrentUser }) {
  useProviderRefresh(user);
  useConnectToast();
  return (
    <PageContainer title="Dashboard">
      <Text>Welcome, {user.name.firstName}.</Text>
      <StatusRow user={user} />
      <SyncActivitySection user={user} />
      <IntegrationsRow user={user} />
      <TimeBoxSettingsSection todo={user.todoSettings} />
      <CalendarSettingsSection calendar={user.calendarSettings} />
      <AdvancedSettingsSection user={user} />
      <WelcomeWizard seen={user.welcomeWizardSeen} />
    </PageContainer>
  );
}
