/**
 * Submits a real HTML form post, so that the server can answer with a redirect to the payment
 * provider's page (spec §7: the payment calls are form posts).
 */
export function postForm(action: string, fields: Record<string, string> = {}): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = action;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}
