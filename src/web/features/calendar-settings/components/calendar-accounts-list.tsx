import { Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconArrowsExchange,
  IconBrandGoogle,
  IconBrandWindows,
  IconPlugConnected,
  IconTrash,
} from '@tabler/icons-react';
import { connectAnotherPath } from '#shared/api/auth.schema.ts';
import type { CalendarAccount } from '#shared/api/current-user.schema.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { useAuth } from '../../../lib/current-user.ts';
import { showToast } from '../../../lib/toast.tsx';
import { useUserChange } from '../../../lib/user-change.ts';
import {
  accountName,
  calendarList,
  providerName,
  removalConsequence,
  syncSwitchConsequence,
} from '../calendar-accounts.ts';
import { removeCalendarAccount, syncWithCalendarAccount } from '../calendar-settings-api.ts';

const ICONS = { google: IconBrandGoogle, microsoft: IconBrandWindows } as const;

/**
 * The connected calendar accounts (decision 028): the sync's, then the ones added beside it, whose
 * calendars "Plan my day" counts as busy. Each has its own Remove, confirmed first by name, and an added
 * one "Sync with this account", confirmed first with what it does; two links connect another account.
 */
export function CalendarAccountsList({ accounts }: { accounts: CalendarAccount[] }) {
  return (
    <Stack gap="xs" mt="md" component="section" aria-labelledby="calendar-accounts-title">
      <Text id="calendar-accounts-title" fw={600} size="sm">
        Calendar accounts
      </Text>
      {accounts.length > 1 && (
        <Text size="sm" c="dimmed">
          Timeboxer syncs with the first account. Plan my day also counts the meetings in your other accounts
          as busy.
        </Text>
      )}
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {accounts.map((account) => (
          <AccountRow key={account.id} account={account} accounts={accounts} />
        ))}
      </Stack>
      <Group gap="xs">
        {(['google', 'microsoft'] as const).map((provider) => (
          <Button
            key={provider}
            component="a"
            href={connectAnotherPath(provider)}
            variant="default"
            size="sm"
            leftSection={<IconPlugConnected size={16} aria-hidden />}
          >
            Add {providerName(provider)}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

function AccountRow({ account, accounts }: { account: CalendarAccount; accounts: CalendarAccount[] }) {
  const [opened, modal] = useDisclosure(false);
  const [switchOpened, switchModal] = useDisclosure(false);
  const Icon = ICONS[account.provider];
  const name = accountName(account);
  return (
    <Paper component="li" withBorder p="xs" aria-label={`${providerName(account.provider)}: ${name}`}>
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Icon size={18} aria-hidden style={{ flexShrink: 0 }} />
            <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Text>
          </Group>
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconTrash size={14} color="var(--mantine-color-red-light-color)" aria-hidden />}
            onClick={modal.open}
            aria-label={`Remove ${name}`}
            style={{ flexShrink: 0 }}
          >
            Remove
          </Button>
        </Group>
        <Group gap={6}>
          {account.sync ? (
            <StatusBadge tone="ok">Syncs with Timeboxer</StatusBadge>
          ) : (
            <StatusBadge tone="neutral">Busy times for Plan my day</StatusBadge>
          )}
          {account.needsReconnect && <StatusBadge tone="warning">Connect again</StatusBadge>}
        </Group>
        <Text size="xs" c="dimmed">
          {providerName(account.provider)} · {calendarList(account)}
        </Text>
        {!account.sync && !account.needsReconnect && (
          <Group gap="xs">
            <Button
              variant="light"
              size="compact-sm"
              leftSection={<IconArrowsExchange size={14} aria-hidden />}
              onClick={switchModal.open}
              aria-label={`Sync with this account: ${name}`}
            >
              Sync with this account
            </Button>
          </Group>
        )}
        {account.needsReconnect && !account.sync && (
          <Group gap="xs" align="center">
            <Text size="sm" style={{ flex: 1, minWidth: 200 }}>
              {providerName(account.provider)} no longer accepts Timeboxer’s access to this account. Plan my
              day leaves its meetings out until you connect it again.
            </Text>
            <Button
              component="a"
              href={connectAnotherPath(account.provider)}
              size="compact-sm"
              variant="light"
            >
              Connect again
            </Button>
          </Group>
        )}
      </Stack>
      <RemoveAccountModal account={account} accounts={accounts} opened={opened} onClose={modal.close} />
      {!account.sync && (
        <SyncWithAccountModal
          account={account}
          accounts={accounts}
          opened={switchOpened}
          onClose={switchModal.close}
        />
      )}
    </Paper>
  );
}

type ModalProps = {
  account: CalendarAccount;
  accounts: CalendarAccount[];
  opened: boolean;
  onClose: () => void;
};

function RemoveAccountModal({ account, accounts, opened, onClose }: ModalProps) {
  const remove = useUserChange(removeCalendarAccount, { errorTitle: 'The account was not removed' });
  const name = accountName(account);
  // The row holding this dialog goes once the account is gone: the promise announces the removal.
  const confirm = () =>
    remove.mutateAsync(account.id).then(
      () => {
        onClose();
        showToast('success', { title: 'Calendar account removed', message: `You removed ${name}.` });
      },
      () => {
        // Already shown as an error toast; the dialog stays open to try again.
      },
    );
  return (
    <Modal opened={opened} onClose={() => !remove.isPending && onClose()} title={`Remove ${name}?`} centered>
      <Stack>
        <Text>{removalConsequence(account, accounts)}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={remove.isPending} data-autofocus>
            No, cancel
          </Button>
          <Button color="red.9" onClick={confirm} loading={remove.isPending}>
            Yes, remove
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Before an added account becomes the sync's: what that does, then "Yes, sync with it". */
function SyncWithAccountModal({ account, accounts, opened, onClose }: ModalProps) {
  const auth = useAuth();
  const change = useUserChange(syncWithCalendarAccount, { errorTitle: 'The sync kept its account' });
  const name = accountName(account);
  const confirm = () =>
    change.mutateAsync(account.id).then(
      () => {
        onClose();
        showToast('success', {
          title: 'Calendar account changed',
          message: `Timeboxer syncs with ${name} now. Choose one of its calendars above.`,
        });
      },
      () => {
        // Already shown as an error toast; the dialog stays open to try again.
      },
    );
  return (
    <Modal
      opened={opened}
      onClose={() => !change.isPending && onClose()}
      title={`Sync with ${name}?`}
      centered
    >
      <Stack>
        {syncSwitchConsequence(account, accounts, !!auth && auth.syncActive).map((line) => (
          <Text key={line}>{line}</Text>
        ))}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={change.isPending} data-autofocus>
            No, cancel
          </Button>
          <Button onClick={confirm} loading={change.isPending}>
            Yes, sync with it
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
