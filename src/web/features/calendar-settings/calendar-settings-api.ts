import type { OnComplete } from '#shared/settings/constants.ts';
import { sendUserChange } from '../auth/api/user-change.ts';

export const calendarCalls = {
  setCalendar: (calendarId: string) => sendUserChange('PATCH', '/api/calendar/id', { calendarId }),
  setColor: (color: string) => sendUserChange('PATCH', '/api/calendar/color', { color }),
  setCategory: (category: string | null) => sendUserChange('PATCH', '/api/calendar/category', { category }),
  setPrivate: (value: boolean) => sendUserChange('PATCH', '/api/calendar/private', { private: value }),
  setTodoistLink: (todoistLinkDescription: boolean) =>
    sendUserChange('PATCH', '/api/calendar/todoistlinkdescription', { todoistLinkDescription }),
  setReminder: (reminder: number | null) => sendUserChange('PATCH', '/api/calendar/reminder', { reminder }),
  setOnComplete: (setting: OnComplete) => sendUserChange('PATCH', '/api/settings/oncomplete', { setting }),
  setOnPreComplete: (setting: boolean) => sendUserChange('PATCH', '/api/settings/onprecomplete', { setting }),
};
