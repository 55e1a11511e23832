import { contract } from '#shared/api/contract.ts';
import type { NoticePrefs, NoticesOffQuery } from '#shared/api/notices.schema.ts';
import { api } from '../../lib/api-client.ts';

export const profileCalls = {
  setNotices: (prefs: NoticePrefs) => api(contract.user.setNotices, prefs),
  /** From a notice mail's link: signed by the link, so no sign-in is needed. */
  turnNoticesOff: (query: NoticesOffQuery) => api(contract.notices.off, { query }),
};
