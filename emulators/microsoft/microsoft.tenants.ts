import { guidFrom } from './microsoft.ids.ts';

/** The tenant of personal Microsoft accounts. */
export const CONSUMER_TENANT_ID = '9188040d-6c67-4c5b-b112-36a304b66dad';
export const SANDBOX_ORGANIZATION_TENANT_ID = guidFrom('timeboxer-sandbox-organization');

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** The tenant id a path segment (`common`, `consumers`, `organizations`, a GUID or a domain) stands for. */
export function resolveTenant(segment: string): string | undefined {
  const lowered = segment.toLowerCase();
  if (lowered === 'common' || lowered === 'consumers') return CONSUMER_TENANT_ID;
  if (lowered === 'organizations') return SANDBOX_ORGANIZATION_TENANT_ID;
  if (GUID.test(segment)) return lowered;
  if (DOMAIN.test(segment)) return guidFrom(`tenant:${lowered}`);
  return undefined;
}
