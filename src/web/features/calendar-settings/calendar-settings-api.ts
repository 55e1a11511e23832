import { contract } from '#shared/api/contract.ts';
import type { OnComplete } from '#shared/settings/constants.ts';
import { api, type BodyOf } from '../../lib/api-client.ts';

const { calendar, settings } = contract;

export const calendarCalls = {
  setCalendar: (calendarId: string) => api(calendar.setCalendar, { calendarId }),
  // Colours and reminders come from the fixed option lists of the selects; the server checks them again.
  setColor: (color: string) => api(calendar.setColor, { color } as BodyOf<typeof calendar.setColor>),
  setCategory: (category: string | null) => api(calendar.setCategory, { category }),
  setPrivate: (value: boolean) => api(calendar.setPrivate, { private: value }),
  setTodoistLink: (todoistLinkDescription: boolean) =>
    api(calendar.setTodoistLink, { todoistLinkDescription }),
  setReminder: (reminder: number | null) =>
    api(calendar.setReminder, { reminder } as BodyOf<typeof calendar.setReminder>),
  setOnComplete: (setting: OnComplete) => api(settings.setOnComplete, { setting }),
  setOnPreComplete: (setting: boolean) => api(settings.setOnPreComplete, { setting }),
};

/** Removes one calendar account (`calendarSettings.accounts[].id`). */
export const removeCalendarAccount = (accountId: string) =>
  api(contract.integrations.removeCalendarAccount, { params: { accountId } });

/** Makes an added calendar account the sync's (the sync's becomes an added one; sync off, no calendar chosen). */
export const syncWithCalendarAccount = (accountId: string) =>
  api(contract.integrations.syncWithCalendarAccount, { params: { accountId }, body: {} });
