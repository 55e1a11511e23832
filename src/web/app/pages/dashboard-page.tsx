import { Text } from '@mantine/core';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { NotLoggedIn } from '../../components/not-logged-in.tsx';
import { PageContainer } from '../../components/page-container.tsx';
import { AdvancedSettingsSection } from '../../features/calendar-settings/components/advanced-settings-section.tsx';
import { CalendarSettingsSection } from '../../features/calendar-settings/components/calendar-settings-section.tsx';
import { IntegrationsRow } from '../../features/dashboard/components/integrations-row.tsx';
import { NextStepCard } from '../../features/dashboard/components/next-step-card.tsx';
import { StatusRow } from '../../features/dashboard/components/status-row.tsx';
import { useConnectToast } from '../../features/dashboard/use-connect-toast.ts';
import { useProviderRefresh } from '../../features/dashboard/use-provider-refresh.ts';
import { PlanMyDaySection } from '../../features/plan-my-day/plan-my-day-section.tsx';
import { SubscriptionBanner } from '../../features/subscription/subscription-banner.tsx';
import { HeldRemovalsStatus } from '../../features/sync-activity/components/held-removals-status.tsx';
import { SyncActivitySection } from '../../features/sync-activity/sync-activity-section.tsx';
import { TimeboxSettingsSection } from '../../features/timeboxes/timebox-settings-section.tsx';
import { WelcomeWizard } from '../../features/welcome-wizard/welcome-wizard.tsx';
import { MissingProjectsAlert } from '../../features/what-syncs/components/missing-projects-alert.tsx';
import { WhatSyncsSection } from '../../features/what-syncs/what-syncs-section.tsx';
import { useAuth } from '../../lib/current-user.ts';

/**
 * The signed-in home (docs/product-rules.md §2), composed here from the features, which do not know each
 * other.
 */
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
      <NextStepCard user={user} />
      <StatusRow
        user={user}
        banner={
          <>
            <HeldRemovalsStatus syncActive={user.syncActive} />
            <SubscriptionBanner user={user} />
            <MissingProjectsAlert todo={user.todoSettings} where="status" />
          </>
        }
      />
      <SyncActivitySection user={user} />
      <IntegrationsRow user={user} />
      <TimeboxSettingsSection todo={user.todoSettings} />
      <CalendarSettingsSection calendar={user.calendarSettings} />
      <PlanMyDaySection todo={user.todoSettings} calendar={user.calendarSettings} />
      <WhatSyncsSection todo={user.todoSettings} />
      <AdvancedSettingsSection user={user} />
      <WelcomeWizard user={user} />
    </PageContainer>
  );
}
