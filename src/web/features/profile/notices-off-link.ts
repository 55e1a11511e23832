import { type NoticesOffQuery, noticesOffQuerySchema } from '#shared/api/notices.schema.ts';

/**
 * The user and signature a notice mail's "turn them off" link carries (`/notices/off?u=…&v=…&t=…`), or null
 * when the link lost them on the way (cut short, or mangled by a mail client).
 */
export function readNoticesOffLink(search: URLSearchParams): NoticesOffQuery | null {
  const parsed = noticesOffQuerySchema.safeParse({
    u: search.get('u') ?? undefined,
    v: search.get('v') ?? undefined,
    t: search.get('t') ?? undefined,
  });
  return parsed.success ? parsed.data : null;
}
