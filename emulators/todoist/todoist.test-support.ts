/** Test support: an emulator on an ephemeral port, seeding, and an SDK client pointed at it. */
import type { AddressInfo } from 'node:net';
import { TodoistApi } from '@doist/todoist-sdk';
import type { FastifyInstance } from 'fastify';
import { beforeEach } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { createTodoistEmulator, type TodoistEmulatorOptions } from './todoist.emulator.ts';

export const TEST_APP = {
  clientId: 'test-todoist-client',
  clientSecret: 'test-todoist-secret',
  redirectUri: 'http://localhost:3000/auth/todoist/callback',
  name: 'Timeboxer',
};

export type RunningTodoist = { app: FastifyInstance; origin: string; close(): Promise<void> };

export async function startTodoist(options: Partial<TodoistEmulatorOptions> = {}): Promise<RunningTodoist> {
  let origin = '';
  const app = await createTodoistEmulator({ app: TEST_APP, getOrigin: () => origin, ...options });
  await app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { app, origin, close: () => app.close() };
}

export type SeededUser = {
  id: string;
  email: string;
  inboxProjectId: string;
  projects: { id: string; name: string }[];
  accessToken: string | null;
  personalToken: string;
  labels: { id: string; name: string }[];
  tasks: { id: string; content: string; updated_at: string }[];
};

export async function control(origin: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${origin}/_emulator/${path}`, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export async function seedUser(origin: string, user: Record<string, unknown>): Promise<SeededUser> {
  const response = await control(origin, 'seed', { users: [user] });
  if (!response.ok) throw new Error(`seed failed: ${response.status} ${await response.text()}`);
  const { users } = (await response.json()) as { users: SeededUser[] };
  const [seeded] = users;
  if (!seeded) throw new Error('seed returned no user');
  return seeded;
}

export function sdk(origin: string, token: string): TodoistApi {
  return new TodoistApi(token, { baseUrl: origin });
}

/** The emulator of a file's tests and the user seeded in it for the current test, with their SDK client. */
export type SeededTodoist = {
  readonly app: FastifyInstance;
  readonly origin: string;
  readonly user: SeededUser;
  readonly api: TodoistApi;
};

/**
 * The emulator for a file's tests (`setUpEmulator`: started with `options`, reset before each test,
 * closed), with `user` seeded anew after each reset. The answer reads the running emulator, the seeded
 * user and an SDK client signed in as them; they exist from the first `beforeEach` on.
 */
export function setUpSeededTodoist(
  user: Record<string, unknown>,
  options: Partial<TodoistEmulatorOptions> = {},
): SeededTodoist {
  let todoist: RunningTodoist | undefined;
  let seeded: { user: SeededUser; api: TodoistApi } | undefined;
  setUpEmulator(
    () => startTodoist(options),
    (started) => {
      todoist = started;
    },
  );
  beforeEach(async () => {
    const origin = setUp(todoist).origin;
    const seededUser = await seedUser(origin, user);
    seeded = { user: seededUser, api: sdk(origin, seededUser.accessToken ?? '') };
  });
  return {
    get app() {
      return setUp(todoist).app;
    },
    get origin() {
      return setUp(todoist).origin;
    },
    get user() {
      return setUp(seeded).user;
    },
    get api() {
      return setUp(seeded).api;
    },
  };
}

function setUp<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('set up in beforeAll and beforeEach: read it inside a test');
  return value;
}

/** The error a promise rejects with (fails the test if it resolves). */
export type ApiFailure = {
  httpStatusCode?: number;
  responseData?: {
    error?: string;
    error_tag?: string;
    error_code?: number;
    error_extra?: Record<string, unknown>;
  };
};

export async function rejection(promise: Promise<unknown>): Promise<ApiFailure> {
  try {
    await promise;
  } catch (error) {
    return error as ApiFailure;
  }
  throw new Error('expected the call to fail');
}
