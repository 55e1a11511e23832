import { Loader, Stack, Switch } from '@mantine/core';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import type { NoticePrefs } from '#shared/api/notices.schema.ts';
import { SectionCard } from '../../../components/section-card.tsx';
import { useUserChange } from '../../../lib/user-change.ts';
import { profileCalls } from '../profile-api.ts';

/**
 * The profile's notice mails (docs/product-rules.md §11): saved on each toggle. Both switches send both
 * preferences, so they share one change and wait for each other.
 */
export function NoticeSettings({ user }: { user: CurrentUser }) {
  const change = useUserChange(profileCalls.setNotices);
  const prefs = change.isPending ? change.variables : user.notices;
  const save = (next: Partial<NoticePrefs>) => change.mutate({ ...prefs, ...next });
  const busy = change.isPending ? <Loader size={10} color="gray" aria-hidden /> : undefined;

  return (
    <SectionCard title="Notifications">
      <Stack gap="md" aria-busy={change.isPending}>
        <Switch
          label="E-mail me when my sync stops or needs me"
          description="Connect again, a quota problem, the trial's end, a payment problem, removals held back. At most one mail per problem a day; never the text of your tasks or events."
          checked={prefs.mails}
          disabled={change.isPending}
          onChange={(event) => save({ mails: event.currentTarget.checked })}
          thumbIcon={busy}
        />
        <Switch
          label="Also when it is solved"
          description={prefs.mails ? undefined : 'Turn on the mails above first.'}
          checked={prefs.resolvedMails}
          disabled={!prefs.mails || change.isPending}
          onChange={(event) => save({ resolvedMails: event.currentTarget.checked })}
          thumbIcon={busy}
        />
      </Stack>
    </SectionCard>
  );
}
