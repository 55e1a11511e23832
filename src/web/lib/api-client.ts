import { z } from 'zod';
import { type Endpoint, urlOf } from '#shared/api/endpoint.ts';

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

/** A document that is not an API call (the markdown pages under /content). */
export async function getText(path: string): Promise<string> {
  const response = await fetch(path, { credentials: 'same-origin' });
  if (!response.ok) throw new ApiError(response.status, `${path} answered ${response.status}`);
  return response.text();
}

/** An answer the contract does not allow: a server and web app out of step, or a bug on either side. */
export class UnexpectedResponseError extends Error {
  override name = 'UnexpectedResponseError';
}

type Schema = z.ZodType | undefined;
type In<S extends Schema> = S extends z.ZodType ? z.input<S> : never;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : never;

/** The body a call sends, as the web app writes it. */
export type BodyOf<E extends Endpoint> = In<E['body']>;

/** What a call takes: its body alone, or `{ params, query, body }` when its URL has parts to fill in. */
type Request<E extends Endpoint> = (E['params'] extends z.ZodType ? { params: In<E['params']> } : unknown) &
  (E['query'] extends z.ZodType ? { query: In<E['query']> } : unknown) &
  (E['body'] extends z.ZodType ? { body: In<E['body']> } : unknown);
export type ApiArgs<E extends Endpoint> = E['params'] extends z.ZodType
  ? [request: Request<E>]
  : E['query'] extends z.ZodType
    ? [request: Request<E>]
    : E['body'] extends z.ZodType
      ? undefined extends In<E['body']>
        ? [body?: In<E['body']>]
        : [body: In<E['body']>]
      : [];

/** An endpoint the web app calls with fetch (one that answers with JSON rather than a redirect). */
export type ApiEndpoint = Endpoint & { readonly response: z.ZodType };

function requestOf<E extends ApiEndpoint>(endpoint: E, args: unknown[]) {
  const takesRequest = endpoint.params !== undefined || endpoint.query !== undefined;
  const request = (takesRequest ? (args[0] ?? {}) : { body: args[0] }) as {
    params?: Record<string, string>;
    query?: Record<string, string | undefined>;
    body?: unknown;
  };
  return { url: urlOf(endpoint, request.params, request.query), body: request.body };
}

/**
 * Calls one endpoint of the contract (src/shared/api/contract.ts) and returns its answer, checked
 * against the contract's response schema. A refusal becomes an ApiError carrying the server's message
 * and field issues; an answer the schema rejects becomes an UnexpectedResponseError naming the call.
 * An empty body is read as null (the signed-out current user).
 */
export async function api<E extends ApiEndpoint>(
  endpoint: E,
  ...args: ApiArgs<E>
): Promise<Out<E['response']>> {
  const { url, body } = requestOf(endpoint, args);
  const response = await fetch(url, {
    method: endpoint.method,
    credentials: 'same-origin',
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  const text = await response.text();
  let json: unknown;
  try {
    json = text.trim() === '' ? null : JSON.parse(text);
  } catch {
    throw new UnexpectedResponseError(
      `${endpoint.method} ${endpoint.path} answered with something other than JSON`,
    );
  }
  const parsed = endpoint.response.safeParse(json);
  if (!parsed.success) {
    throw new UnexpectedResponseError(
      `${endpoint.method} ${endpoint.path} answered unexpectedly:\n${z.prettifyError(parsed.error)}`,
      { cause: parsed.error },
    );
  }
  return parsed.data as Out<E['response']>;
}

/** The message to show a person for any failure. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'The server could not be reached or answered unexpectedly. Please try again.';
}
