import { notifications } from '@mantine/notifications';
import { IconCheck, IconInfoCircle, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { scheduleToast, TOAST_DURATION_MS } from './toast-schedule.ts';

type Toast = { id?: string; title: string; message: ReactNode };

const KINDS = {
  success: { color: 'teal.9', icon: <IconCheck size={18} aria-hidden /> },
  error: { color: 'red.9', icon: <IconX size={18} aria-hidden /> },
  info: { color: 'blue', icon: <IconInfoCircle size={18} aria-hidden /> },
} as const;

/** The app's one way to show a toast: after 500 ms, for 4000 ms (docs/product-rules.md §9). */
export function showToast(kind: keyof typeof KINDS, { id, title, message }: Toast): void {
  scheduleToast(() => {
    notifications.show({
      id,
      title,
      message,
      autoClose: TOAST_DURATION_MS,
      // Mantine greys a titled toast's message to gray.6, short of WCAG AA; the theme's dimmed meets it.
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
      ...KINDS[kind],
    });
  });
}

/** A change the server refused or never received: the person must not believe it was saved. */
export function showSaveError(message: string, title = 'Your change was not saved'): void {
  showToast('error', { title, message });
}
