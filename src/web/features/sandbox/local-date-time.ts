import { format, isValid, parse } from 'date-fns';

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

/** A calendar day as `<input type="date">` and Todoist's date-only due both speak it: 'YYYY-MM-DD'. */
function dayOf(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const day = parse(value, 'yyyy-MM-dd', new Date());
  return isValid(day) ? day : null;
}

/** The day a date input sends, or undefined when it is empty or no real day. */
export function fromDateInput(value: string): string | undefined {
  return dayOf(value) ? value : undefined;
}

/** A date input's value from a task's due: its day when it has a date but no time, else ''. */
export function toDateInput(due: { date: string; datetime: string | null } | null | undefined): string {
  return due && !due.datetime && dayOf(due.date) ? due.date : '';
}

/** The day of a `datetime-local` value ('' when there is none), as a date input takes it. */
export function dayOfLocalInput(value: string): string {
  return dayOf(value.slice(0, 10)) ? value.slice(0, 10) : '';
}

/** A day for the lists, such as 'Fri 27 Nov'; any other text is shown as it is. */
export function formatDay(date: string): string {
  const day = dayOf(date);
  return day ? format(day, 'EEE d MMM') : date;
}
