import { createHmac } from 'node:crypto';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { InvalidSignatureError, StateConflictError } from '../shared/domain-errors.ts';
import { fakeClock } from '../testing/fake-clock.ts';
import { inMemoryUsers, userRow } from '../testing/in-memory-users.ts';
import { playNoticeLinkVersion } from '../users/notice-link-version.fixture.ts';
import type { OutgoingMail } from './mailer.port.ts';
import type { NoticeRepository } from './notice.repository.ts';
import { createNoticeService, NOTICES_OFF_LINK_OUTDATED } from './notice.service.ts';
import { unsubscribeToken } from './unsubscribe-token.ts';

const USER = '0b6a5f0e-7d3c-4c1e-9f5a-2a1b3c4d5e6f';
const SECRET = 'a-session-secret-of-at-least-32-characters';

function setup() {
  const users = inMemoryUsers(userRow({ id: USER }));
  const sent: OutgoingMail[] = [];
  const notices = {
    async subject(userId: string) {
      const row = users.rows.get(userId);
      return (
        row && {
          email: row.email,
          firstName: row.firstName,
          prefs: { mails: row.noticeMails, resolvedMails: row.noticeMailsResolved },
          offLinkVersion: row.noticeOffLinkVersion,
          payment: { subscriptionStatus: 'trial' as const, validUntil: row.validUntil },
          problems: [],
          mailed: [],
        }
      );
    },
  } as Pick<NoticeRepository, 'subject'> as NoticeRepository;
  const service = createNoticeService({
    notices,
    users,
    queue: { requestNoticeMail: async () => {} },
    mailer: { send: async (mail) => void sent.push(mail), close: () => {} },
    appUrl: 'https://app.example',
    secret: SECRET,
    clock: fakeClock(),
    log: pino({ level: 'silent' }),
  });
  /** The query of the "turn them off" link in the mail sent now. */
  const mailedLink = async () => {
    await service.send({ userId: USER, kind: 'reconnect-todoist', occurrence: '', resolved: false });
    const page = new URL(/Turn them off: (\S+)/.exec(sent.at(-1)?.text ?? '')?.[1] ?? '');
    const oneClick = new URL(/^<(.+)>$/.exec(sent.at(-1)?.headers['List-Unsubscribe'] ?? '')?.[1] ?? '');
    expect(oneClick.search).toBe(page.search);
    const query = page.searchParams;
    return { u: query.get('u') ?? '', v: Number(query.get('v')), t: query.get('t') ?? '' };
  };
  const mails = () => users.rows.get(USER)?.noticeMails;
  return { service, users, mailedLink, mails };
}

describe('the notices-off link', () => {
  it('switches the mails off, and again, until they are switched on again', async () => {
    const { service, users, mailedLink, mails } = setup();
    const link = await mailedLink();
    expect(link).toMatchObject({ u: USER, v: 0 });
    await service.turnOff(link.u, link.v, link.t);
    expect(mails()).toBe(false);
    await service.turnOff(link.u, link.v, link.t);
    expect(mails()).toBe(false);

    await users.updateNoticeSwitches(USER, { mails: true, resolvedMails: false }, new Date());
    const outdated = service.turnOff(link.u, link.v, link.t);
    await expect(outdated).rejects.toBeInstanceOf(StateConflictError);
    await expect(outdated).rejects.toThrow(NOTICES_OFF_LINK_OUTDATED);
    expect(mails()).toBe(true);

    // A mail sent since carries the new version, and its link works.
    const fresh = await mailedLink();
    expect(fresh.v).toBe(1);
    await service.turnOff(fresh.u, fresh.v, fresh.t);
    expect(mails()).toBe(false);
  });

  it('refuses a link whose version was changed: the signature covers it', async () => {
    const { service, users, mailedLink, mails } = setup();
    const link = await mailedLink();
    await users.updateNoticeSwitches(USER, { mails: false, resolvedMails: false }, new Date());
    await users.updateNoticeSwitches(USER, { mails: true, resolvedMails: false }, new Date());
    await expect(service.turnOff(link.u, 1, link.t)).rejects.toBeInstanceOf(InvalidSignatureError);
    expect(mails()).toBe(true);
  });

  it('still takes a link mailed before links carried a version, as version 0', async () => {
    const { service, mails } = setup();
    const legacy = createHmac('sha256', SECRET).update(`notices-off:${USER}`).digest('base64url');
    expect(unsubscribeToken(SECRET, USER, 0)).toBe(legacy);
    expect(unsubscribeToken(SECRET, USER, 1)).not.toBe(legacy);
    await service.turnOff(USER, 0, legacy);
    expect(mails()).toBe(false);
  });

  it('answers a valid link of a user deleted since without an error', async () => {
    const { service, users, mailedLink } = setup();
    const link = await mailedLink();
    await users.delete(USER);
    await expect(service.turnOff(link.u, link.v, link.t)).resolves.toBeUndefined();
  });

  it('keeps the same version rule in the in-memory users as in the repository', async () => {
    const ada = '00000000-0000-4000-8000-0000000000ad';
    const bob = '00000000-0000-4000-8000-0000000000bb';
    await playNoticeLinkVersion(inMemoryUsers(userRow({ id: ada }), userRow({ id: bob })), { ada, bob });
  });
});
