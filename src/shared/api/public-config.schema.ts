import { z } from 'zod';

/** What the browser may know of the server's configuration (`GET /api/config`); nothing secret. */
export const publicConfigSchema = z.object({
  supportEmail: z.string(),
  sandbox: z.boolean(),
  /** A tracker script, loaded only with analytical consent; null when none is configured. */
  analyticsScriptUrl: z.string().nullable(),
  /** A support chat widget script, loaded only once the visitor has made a cookie choice. */
  chatWidgetScriptUrl: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
