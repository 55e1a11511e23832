import type { Endpoint } from '#shared/api/endpoint.ts';
import type { BodyOf } from '../../lib/api-client.ts';

/**
 * Submits a real HTML form post to one of the contract's form endpoints, so that the server can answer
 * with a redirect to the payment provider's page (docs/product-rules.md §7: the payment calls are form
 * posts).
 */
export function postForm<E extends Endpoint<'POST'>>(
  endpoint: E,
  ...[fields]: E['body'] extends undefined ? [] : [fields: BodyOf<E> & Record<string, string>]
): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = endpoint.path;
  for (const [name, value] of Object.entries(fields ?? {})) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}
