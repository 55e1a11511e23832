import { Loader, Switch } from '@mantine/core';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import type { SaveReporter } from '../../../lib/save-status.ts';
import { useUserChange } from '../../../lib/user-change.ts';

type Props = {
  label: string;
  description?: string;
  checked: boolean;
  disabled?: boolean;
  save: (value: boolean) => Promise<CurrentUser>;
  /** The card's confirmation, which says "Saved" once the server has it. */
  status: SaveReporter;
};

/** A switch saved on change: it shows the new position with a spinner and stays disabled until saved. */
export function SettingSwitch({ label, description, checked, disabled, save, status }: Props) {
  const change = useUserChange(save, { status });
  return (
    <Switch
      label={label}
      description={description}
      checked={change.isPending ? change.variables : checked}
      disabled={disabled || change.isPending}
      onChange={(event) => change.mutate(event.currentTarget.checked)}
      thumbIcon={change.isPending ? <Loader size={10} color="gray" aria-hidden /> : undefined}
      aria-busy={change.isPending}
    />
  );
}
