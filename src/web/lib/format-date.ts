import { format } from 'date-fns';

/** Dates on the profile read like 'November 5th 2026' (spec: 'MMMM Do YYYY'). */
export function formatProfileDate(iso: string): string {
  return format(new Date(iso), 'MMMM do yyyy');
}
