import { z } from 'zod';

/** The profile's notice switches: e-mail when sync stops or needs me, and when that is solved. */
export const noticePrefsSchema = z.object({ mails: z.boolean(), resolvedMails: z.boolean() });
export type NoticePrefs = z.infer<typeof noticePrefsSchema>;

/**
 * A notice mail's "turn them off" link: the user, the link's version and its signature (no sign-in
 * needed). Switching the mails on again moves the version on, so older links stop working; links mailed
 * before there were versions carry none, which is version 0.
 */
export const noticesOffQuerySchema = z.object({
  u: z.uuid(),
  v: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,8})$/)
    .optional(),
  t: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/),
});
export type NoticesOffQuery = z.infer<typeof noticesOffQuerySchema>;

/** A mail the sandbox's mail server received for the signed-in user (sandbox mode only). */
export const sandboxMailSchema = z.object({
  id: z.number().int(),
  receivedAt: z.string(),
  subject: z.string(),
  text: z.string(),
});
export const sandboxInboxSchema = z.object({ messages: z.array(sandboxMailSchema) });
export type SandboxInbox = z.infer<typeof sandboxInboxSchema>;
