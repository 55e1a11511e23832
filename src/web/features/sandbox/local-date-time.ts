import { format } from 'date-fns';

/** `<input type="datetime-local">` speaks local 'YYYY-MM-DDTHH:mm'; the API speaks ISO instants. */
export function toLocalInput(iso: string | null | undefined): string {
  return iso ? format(new Date(iso), "yyyy-MM-dd'T'HH:mm") : '';
}

export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function formatWhen(iso: string): string {
  return format(new Date(iso), 'EEE d MMM, HH:mm');
}
