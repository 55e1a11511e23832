import type { UserRow } from '#server/db/schema/users.table.ts';
import { type CurrentUser, currentUserSchema } from '#shared/api/current-user.schema.ts';

/** The user as the web app sees it: spec §3 shape, no secrets. */
export function toCurrentUser(row: UserRow): CurrentUser {
  return currentUserSchema.parse({
    id: row.id,
    name: { firstName: row.firstName, displayName: row.displayName },
    email: row.email,
    googleId: row.googleId,
    facebookId: row.facebookId,
    syncActive: row.syncActive,
    welcomeWizardSeen: row.welcomeWizardSeen,
    payment: {
      validUntil: row.validUntil.toISOString(),
      subscriptionStatus: row.subscriptionStatus,
      plan: { interval: row.planInterval },
      canceled: row.canceled,
    },
  });
}
