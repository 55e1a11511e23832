import { IconAlertTriangleFilled, IconCircleCheckFilled, IconCircleXFilled } from '@tabler/icons-react';
import type { ConnectionStatus } from '#shared/settings/rules.ts';

/**
 * The status icons of docs/product-rules.md §4; the words next to them carry the meaning, so the icons are
 * hidden from readers.
 */
export function StatusIcon({ status, size = 22 }: { status: ConnectionStatus; size?: number }) {
  // Never shrunk beside text that wraps (a long line in a narrow row).
  const props = { size, style: { flexShrink: 0 }, 'aria-hidden': true } as const;
  if (status === 'ok') return <IconCircleCheckFilled {...props} color="var(--mantine-color-green-8)" />;
  if (status === 'incomplete')
    return <IconAlertTriangleFilled {...props} color="var(--mantine-color-yellow-7)" />;
  return <IconCircleXFilled {...props} color="var(--mantine-color-red-8)" />;
}
