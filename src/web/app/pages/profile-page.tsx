import { Button, Group } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { NotLoggedIn } from '../../components/not-logged-in.tsx';
import { PageContainer } from '../../components/page-container.tsx';
import { DangerZone } from '../../features/profile/components/danger-zone.tsx';
import { NoticeSettings } from '../../features/profile/components/notice-settings.tsx';
import { PersonalData } from '../../features/profile/components/personal-data.tsx';
import { SubscriptionCard } from '../../features/subscription/subscription-card.tsx';
import { useAuth } from '../../lib/current-user.ts';
import { paths } from '../../lib/paths.ts';

/** The profile (docs/product-rules.md §2), composed here from the profile and subscription features. */
export function ProfilePage() {
  const user = useAuth();
  if (!user) return <NotLoggedIn />;
  return (
    <PageContainer title="Your Profile">
      <Group>
        <Button
          component={Link}
          to={paths.dashboard}
          variant="default"
          leftSection={<IconArrowLeft size={16} />}
        >
          Back to dashboard
        </Button>
      </Group>
      <PersonalData user={user} />
      <SubscriptionCard user={user} />
      <NoticeSettings user={user} />
      <DangerZone />
    </PageContainer>
  );
}
