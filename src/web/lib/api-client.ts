import type { z } from 'zod';

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** GETs a same-origin JSON resource and checks it against its schema. */
export async function getJson<T extends z.ZodType>(path: string, schema: T): Promise<z.infer<T>> {
  const response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!response.ok) throw new ApiError(response.status, `${path} answered ${response.status}`);
  return schema.parse(await response.json());
}

export async function getText(path: string): Promise<string> {
  const response = await fetch(path, { credentials: 'same-origin' });
  if (!response.ok) throw new ApiError(response.status, `${path} answered ${response.status}`);
  return response.text();
}

/** Sends a JSON change to our API; a refusal becomes an ApiError carrying the server's message. */
export async function sendJson(
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<void> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const problem: unknown = await response.json().catch(() => null);
    const message =
      typeof problem === 'object' &&
      problem !== null &&
      'message' in problem &&
      typeof problem.message === 'string'
        ? problem.message
        : `The request failed (${response.status}).`;
    throw new ApiError(response.status, message);
  }
}
