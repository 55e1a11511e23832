import { expect } from 'vitest';
import type { UserRepository } from './user.repository.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 9, minute));

/**
 * The version a notice mail's "turn them off" link is signed for, played on a store (the repository on
 * each database, and the in-memory one the services' tests use): only switching the mails on from off
 * moves it on; a link of the current version switches them off (again and again), an older one does not;
 * another user's is untouched. `ada` and `bob` are users with the mails on and version 0.
 */
export async function playNoticeLinkVersion(
  users: Pick<UserRepository, 'findById' | 'updateNoticeSwitches' | 'turnNoticeMailsOff'>,
  ids: { ada: string; bob: string },
) {
  const { ada, bob } = ids;
  const state = async (id: string) => {
    const row = await users.findById(id);
    return {
      mails: row?.noticeMails,
      resolvedMails: row?.noticeMailsResolved,
      version: row?.noticeOffLinkVersion,
    };
  };
  expect(await state(ada)).toEqual({ mails: true, resolvedMails: false, version: 0 });

  // Saving the switches while the mails are on keeps links already mailed working.
  await users.updateNoticeSwitches(ada, { mails: true, resolvedMails: true }, at(1));
  expect(await state(ada)).toEqual({ mails: true, resolvedMails: true, version: 0 });
  expect(await users.turnNoticeMailsOff(ada, 0, at(2))).toBe(true);
  expect(await state(ada)).toEqual({ mails: false, resolvedMails: true, version: 0 });
  // The same link once more: still the user's version, still off.
  expect(await users.turnNoticeMailsOff(ada, 0, at(3))).toBe(true);

  // Switched on again: the version moves on, and the old link no longer switches the mails off.
  await users.updateNoticeSwitches(ada, { mails: true, resolvedMails: true }, at(4));
  expect(await state(ada)).toEqual({ mails: true, resolvedMails: true, version: 1 });
  expect(await users.turnNoticeMailsOff(ada, 0, at(5))).toBe(false);
  expect(await state(ada)).toEqual({ mails: true, resolvedMails: true, version: 1 });
  expect((await users.findById(ada))?.updatedAt).toEqual(at(4));
  // Switched off in the profile and on again: one more step.
  await users.updateNoticeSwitches(ada, { mails: false, resolvedMails: false }, at(6));
  expect(await state(ada)).toEqual({ mails: false, resolvedMails: false, version: 1 });
  await users.updateNoticeSwitches(ada, { mails: true, resolvedMails: false }, at(7));
  expect(await users.turnNoticeMailsOff(ada, 1, at(8))).toBe(false);
  expect(await users.turnNoticeMailsOff(ada, 2, at(9))).toBe(true);
  expect(await state(ada)).toEqual({ mails: false, resolvedMails: false, version: 2 });

  expect(await state(bob)).toEqual({ mails: true, resolvedMails: false, version: 0 });
  expect(await users.turnNoticeMailsOff('00000000-0000-4000-8000-00000000dead', 0, at(10))).toBe(false);
}
