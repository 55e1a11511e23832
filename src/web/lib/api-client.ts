import type { z } from 'zod';

export type FieldIssue = { field: string; message: string };

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  /** The fields a 400 names, each with the message to show next to it. */
  readonly issues: FieldIssue[];
  constructor(status: number, message: string, issues: FieldIssue[] = []) {
    super(message);
    this.status = status;
    this.issues = issues;
  }
}

function isFieldIssue(value: unknown): value is FieldIssue {
  return (
    typeof value === 'object' &&
    value !== null &&
    'field' in value &&
    typeof value.field === 'string' &&
    'message' in value &&
    typeof value.message === 'string'
  );
}

/** Turns a refusal into an ApiError carrying the server's message and field issues, when it sent them. */
async function failure(response: Response): Promise<ApiError> {
  const problem: unknown = await response.json().catch(() => null);
  const message =
    typeof problem === 'object' &&
    problem !== null &&
    'message' in problem &&
    typeof problem.message === 'string'
      ? problem.message
      : `The request failed (${response.status}).`;
  const issues =
    typeof problem === 'object' && problem !== null && 'issues' in problem && Array.isArray(problem.issues)
      ? problem.issues.filter(isFieldIssue)
      : [];
  return new ApiError(response.status, message, issues);
}

/** GETs a same-origin JSON resource and checks it against its schema. */
export async function getJson<T extends z.ZodType>(path: string, schema: T): Promise<z.infer<T>> {
  const response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!response.ok) throw await failure(response);
  return schema.parse(await response.json());
}

export async function getText(path: string): Promise<string> {
  const response = await fetch(path, { credentials: 'same-origin' });
  if (!response.ok) throw new ApiError(response.status, `${path} answered ${response.status}`);
  return response.text();
}

async function send(method: 'POST' | 'PATCH' | 'DELETE', path: string, body: unknown): Promise<Response> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return response;
}

/** Sends a JSON change to our API; a refusal becomes an ApiError carrying the server's message. */
export async function sendJson(
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<void> {
  await send(method, path, body);
}

/** Sends a JSON change and checks the answer against its schema. */
export async function sendJsonFor<T extends z.ZodType>(
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown,
  schema: T,
): Promise<z.infer<T>> {
  const response = await send(method, path, body);
  return schema.parse(await response.json());
}

/** The message to show a person for any failure. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'The server could not be reached or answered unexpectedly. Please try again.';
}
