import { IconAlertTriangleFilled, IconCircleCheckFilled, IconCircleXFilled } from '@tabler/icons-react';
import type { ConnectionStatus } from '#shared/settings/rules.ts';

/**
 * The status icons of docs/product-rules.md §4; the words next to them carry the meaning, so the icons are
 * hidden from readers.
 */
export function StatusIcon({ status, size = 22 }: { status: ConnectionStatus; size?: number }) {
  if (status === 'ok') {
    return <IconCircleCheckFilled size={size} color="var(--mantine-color-green-8)" aria-hidden />;
  }
  if (status === 'incomplete') {
    return <IconAlertTriangleFilled size={size} color="var(--mantine-color-yellow-7)" aria-hidden />;
  }
  return <IconCircleXFilled size={size} color="var(--mantine-color-red-8)" aria-hidden />;
}
