import { AsyncLocalStorage } from 'node:async_hooks';
import dc from 'node:diagnostics_channel';
import { EventEmitter } from 'node:events';
import type { SyncOutcome } from '#server/sync/run/sync-outcome.ts';
import { now } from './stats.ts';

/**
 * Watches the app process from the inside without changing it: every outgoing HTTP request (the
 * diagnostics channels of undici, behind fetch and the Todoist SDK, and of Node's http client, behind
 * the Google client; the Graph client uses fetch), and every sync run
 * (the engine's `run`, wrapped). A request made inside a run is attributed to that run and its user.
 */

/** `calendar`: the users' calendar provider (Google Calendar or Microsoft Graph). */
export type Target = 'todoist' | 'calendar' | 'app' | 'other';
/** read: incremental or full read; write: a change on the provider; channel: push channel upkeep. */
export type RequestKind = 'read' | 'write' | 'channel' | 'token' | 'webhook' | 'other';

export type RequestRecord = {
  target: Target;
  kind: RequestKind;
  method: string;
  path: string;
  start: number;
  end: number | null;
  status: number | 'error' | null;
  userId: string | null;
  runId: number | null;
  /** A notification to the app: its delivery's identity, as the app's server sees it too. */
  deliveryKey: string | null;
  /** When the request's headers were written to the socket (`start` is when the caller asked). */
  wireStart: number | null;
};

/** A request the app's server answered: when it was read and when answered. */
export type ServedRecord = {
  path: string;
  start: number;
  end: number;
  deliveryKey: string | null;
  /** The request was the first its connection carried (the app had just accepted it). */
  newConnection: boolean;
};

export type RunRecord = {
  id: number;
  userId: string;
  spaced: boolean;
  start: number;
  end: number | null;
  outcome: SyncOutcome['status'] | 'error' | null;
};

type Engine = {
  run: (userId: string, options?: { spaced?: boolean }) => Promise<SyncOutcome>;
};

type UndiciRequest = {
  origin?: string | URL;
  method?: string;
  path?: string;
  headers?: string | string[];
};

/**
 * A notification's identity, the same to its sender and to the app: Todoist's delivery id, or a
 * Google channel's id with its message number.
 */
export function deliveryKey(header: (name: string) => string | undefined): string | null {
  const todoist = header('x-todoist-delivery-id');
  if (todoist) return todoist;
  const channel = header('x-goog-channel-id');
  const message = header('x-goog-message-number');
  return channel && message ? `${channel}#${message}` : null;
}

/** Reads one header of an undici request (headers as a raw string or as a name, value, … list). */
function undiciHeader(headers: UndiciRequest['headers'], name: string): string | undefined {
  if (Array.isArray(headers)) {
    for (let index = 0; index + 1 < headers.length; index += 2) {
      if (String(headers[index]).toLowerCase() === name) return String(headers[index + 1]);
    }
    return undefined;
  }
  const line = (headers ?? '').split('\r\n').find((entry) => entry.toLowerCase().startsWith(`${name}:`));
  return line?.slice(name.length + 1).trim();
}

type HttpClientRequest = {
  protocol: string;
  host: string;
  method: string;
  path: string;
  getHeader(name: string): number | string | string[] | undefined;
};

export type Observer = ReturnType<typeof createObserver>;

export function createObserver(origins: { todoist: string; calendar: string; app: () => string }) {
  const context = new AsyncLocalStorage<{ runId: number; userId: string }>();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const requests: RequestRecord[] = [];
  const runs: RunRecord[] = [];
  const active = new Map<string, number>();
  const pending = new WeakMap<object, { record: RequestRecord; body: string }>();
  let nextRunId = 1;
  let deliveriesInFlight = 0;

  const targetOf = (origin: string): Target => {
    if (origin === origins.todoist) return 'todoist';
    if (origin === origins.calendar) return 'calendar';
    if (origin === origins.app()) return 'app';
    return 'other';
  };

  const onCreate = (message: unknown) => {
    const { request, key } = message as { request: UndiciRequest; key?: object };
    const origin = String(request.origin ?? '').replace(/\/$/, '');
    const method = request.method ?? 'GET';
    const path = (request.path ?? '/').split('?')[0] ?? '/';
    const target = targetOf(origin);
    const run = context.getStore();
    const record: RequestRecord = {
      target,
      kind: classify(target, method, path, ''),
      method,
      path,
      start: now(),
      end: null,
      status: null,
      userId: run?.userId ?? null,
      runId: run?.runId ?? null,
      deliveryKey: target === 'app' ? deliveryKey((name) => undiciHeader(request.headers, name)) : null,
      wireStart: null,
    };
    if (target === 'app') deliveriesInFlight += 1;
    requests.push(record);
    pending.set(key ?? request, { record, body: '' });
  };
  const onSendHeaders = (message: unknown) => {
    const entry = pending.get((message as { request: object }).request);
    if (entry && entry.record.wireStart === null) entry.record.wireStart = now();
  };
  const onBodyChunk = (message: unknown) => {
    const { request, chunk } = message as { request: object; chunk: Uint8Array | string };
    const entry = pending.get(request);
    if (entry && entry.body.length < 64) entry.body += Buffer.from(chunk).subarray(0, 64).toString();
  };
  const finish = (request: object, status: number | 'error') => {
    const entry = pending.get(request);
    if (!entry) return;
    pending.delete(request);
    const { record } = entry;
    if (record.end !== null) return;
    record.end = now();
    record.status = status;
    record.kind = classify(record.target, record.method, record.path, entry.body);
    if (record.target === 'app') deliveriesInFlight -= 1;
    events.emit('request', record);
  };
  const onHeaders = (message: unknown) => {
    const { request, response } = message as { request: object; response: { statusCode: number } };
    finish(request, response.statusCode);
  };
  const onError = (message: unknown) => finish((message as { request: object }).request, 'error');

  // The Google client (gaxios over node-fetch) uses Node's http module, which has channels of its own.
  const onHttpStart = (message: unknown) => {
    const request = (message as { request: HttpClientRequest }).request;
    const host = request.getHeader('host');
    onCreate({
      request: {
        origin: `${request.protocol}//${Array.isArray(host) ? host[0] : String(host ?? request.host)}`,
        method: request.method,
        path: request.path,
      },
      key: request,
    });
  };
  const onHttpResponse = (message: unknown) => {
    const { request, response } = message as { request: object; response: { statusCode?: number } };
    finish(request, response.statusCode ?? 0);
  };
  const onHttpError = (message: unknown) => finish((message as { request: object }).request, 'error');

  // Notifications as the app's server sees them: from the parsed request to the answer sent.
  const served: ServedRecord[] = [];
  const serving = new WeakMap<object, { start: number; newConnection: boolean }>();
  /** Connections the app's server accepted that have carried no request yet. */
  const unused = new WeakSet<object>();
  const onServerSocket = (message: unknown) => {
    unused.add((message as { socket: object }).socket);
  };
  const onServerStart = (message: unknown) => {
    const { request, socket } = message as { request: object; socket: object };
    serving.set(request, { start: now(), newConnection: unused.delete(socket) });
  };
  const onServerFinish = (message: unknown) => {
    const { request } = message as {
      request: { url?: string; headers: Record<string, string | string[] | undefined> };
    };
    const read = serving.get(request);
    if (read === undefined) return;
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    served.push({
      path: (request.url ?? '').split('?')[0] ?? '',
      start: read.start,
      end: now(),
      deliveryKey: deliveryKey(header),
      newConnection: read.newConnection,
    });
  };
  const channels: [string, (message: unknown) => void][] = [
    ['net.server.socket', onServerSocket],
    ['http.server.request.start', onServerStart],
    ['http.server.response.finish', onServerFinish],
    ['http.client.request.start', onHttpStart],
    ['http.client.response.finish', onHttpResponse],
    ['http.client.request.error', onHttpError],
    ['undici:request:create', onCreate],
    ['undici:client:sendHeaders', onSendHeaders],
    ['undici:request:bodyChunkSent', onBodyChunk],
    ['undici:request:headers', onHeaders],
    ['undici:request:error', onError],
  ];
  for (const [name, listener] of channels) dc.subscribe(name, listener);

  return {
    requests,
    runs,
    /** Requests the app's server answered, with when they were read and answered. */
    served,
    events,
    /** Deliveries from the emulators to the app's webhook routes not yet answered. */
    deliveriesInFlight: () => deliveriesInFlight,
    isRunning: (userId: string) => (active.get(userId) ?? 0) > 0,

    /** Wraps the engine's `run` (the worker calls it through this object) to time and attribute runs. */
    watchEngine(engine: Engine) {
      const original = engine.run;
      engine.run = async (userId, options) => {
        const run: RunRecord = {
          id: nextRunId++,
          userId,
          spaced: options?.spaced === true,
          start: now(),
          end: null,
          outcome: null,
        };
        runs.push(run);
        active.set(userId, (active.get(userId) ?? 0) + 1);
        try {
          const outcome = await context.run({ runId: run.id, userId }, () => original(userId, options));
          run.outcome = outcome.status;
          return outcome;
        } catch (error) {
          run.outcome = 'error';
          throw error;
        } finally {
          run.end = now();
          active.set(userId, (active.get(userId) ?? 1) - 1);
          events.emit('run', run);
        }
      };
    },

    close() {
      for (const [name, listener] of channels) dc.unsubscribe(name, listener);
    },
  };
}

/**
 * What a provider call does. Todoist reads and writes share `POST /api/v1/sync`: a write carries
 * `commands`, a read a sync token (the body's first bytes tell which). A Graph GET is a read (delta,
 * an event, or the search for an earlier create), any other Graph call on events a write.
 */
export function classify(target: Target, method: string, path: string, body: string): RequestKind {
  if (target === 'app') return 'webhook';
  if (target === 'todoist') {
    if (path === '/api/v1/sync') return body.includes('"commands"') ? 'write' : 'read';
    if (path.startsWith('/oauth') || path.includes('access_token')) return 'token';
    if (method === 'GET') return 'read';
    return path.startsWith('/api/') ? 'write' : 'other';
  }
  if (target === 'calendar' && (path.startsWith('/v1.0/') || path.includes('/oauth2/'))) {
    // Microsoft: Graph under /v1.0 (subscriptions are the push channels), identity under /{tenant}/oauth2.
    if (path.includes('/oauth2/')) return 'token';
    if (path.startsWith('/v1.0/subscriptions')) return 'channel';
    return method === 'GET' ? 'read' : 'write';
  }
  if (target === 'calendar') {
    if (path === '/token' || path === '/revoke') return 'token';
    if (path.endsWith('/events/watch') || path.endsWith('/channels/stop')) return 'channel';
    if (path.startsWith('/calendar/v3/')) return method === 'GET' ? 'read' : 'write';
    return 'other';
  }
  return 'other';
}
