import type { z } from 'zod';
import type { AccountReader } from '#server/domain/users/account.reader.ts';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';
import { signInRequired } from '../plugins/session.plugin.ts';

export type RouteSchema<E extends Endpoint> = {
  params: E['params'];
  querystring: E['query'];
  body: E['body'];
  response: E['response'] extends z.ZodType ? { 200: E['response'] } : undefined;
};

/**
 * Method, URL and schemas of a route, taken from its endpoint in the contract (src/shared/api/contract.ts):
 * `routes.route({ ...fromContract(contract.calendar.setReminder), handler })`. The zod type provider
 * types the handler's request and answer from them.
 */
export function fromContract<E extends Endpoint>(
  endpoint: E,
): { method: E['method']; url: E['path']; schema: RouteSchema<E> } {
  const schema: Record<string, unknown> = {};
  if (endpoint.params) schema.params = endpoint.params;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.body) schema.body = endpoint.body;
  if (endpoint.response) schema.response = { 200: endpoint.response };
  return { method: endpoint.method, url: endpoint.path, schema: schema as RouteSchema<E> };
}

/**
 * Re-reads the signed-in user's view after a change, which most calls answer with (docs/product-rules.md §7);
 * a user deleted meanwhile (another tab) is told to log in again.
 */
export function userViewReader(accounts: AccountReader): (userId: string) => Promise<CurrentUser> {
  return async (userId) => {
    const user = await accounts.currentUser(userId);
    if (!user) throw signInRequired();
    return user;
  };
}
