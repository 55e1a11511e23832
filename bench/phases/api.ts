import autocannon from 'autocannon';
import type { BenchUser } from '../bench-users.ts';
import { type Bench, waitQuiet } from '../processes.ts';
import { log, phase } from '../report.ts';

/** The headers of a JSON PATCH from the app's own pages, signed in with the session `sid`. */
export const jsonPatchHeaders = (sid: string) => ({
  cookie: `sid=${sid}`,
  'content-type': 'application/json',
  'sec-fetch-site': 'same-origin',
});

/** `url` at 200 requests a second over 10 connections for `seconds`, after a short warm-up. */
async function apiLoad(
  url: string,
  request: { method: 'GET' | 'PATCH'; headers: Record<string, string>; body?: string },
  seconds: number,
) {
  const run = (duration: number) =>
    autocannon({
      url,
      method: request.method,
      headers: request.headers,
      ...(request.body ? { body: request.body } : {}),
      connections: 10,
      overallRate: 200,
      duration,
    });
  await run(Math.min(2, Math.ceil(seconds / 4))); // warm-up, not counted
  const result = await run(seconds);
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    rate: result.requests.average,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** The JSON API under load: one read (the current user) and one write (a setting), for `apiUser`. */
export async function apiPhase(bench: Bench, apiUser: BenchUser) {
  const { origins, options } = bench;
  phase(`JSON API at 200 requests/s for ${options.apiSeconds} s each`);
  const currentUser = await apiLoad(
    `${origins.app}/api/current_user`,
    { method: 'GET', headers: { cookie: `sid=${apiUser.sid}` } },
    options.apiSeconds,
  );
  const settingsPatch = await apiLoad(
    `${origins.app}/api/settings/oncomplete`,
    {
      method: 'PATCH',
      headers: jsonPatchHeaders(apiUser.sid),
      body: JSON.stringify({ setting: 'checkmark' }),
    },
    options.apiSeconds,
  );
  for (const [name, result] of [
    ['GET /api/current_user', currentUser],
    ['PATCH /api/settings/oncomplete', settingsPatch],
  ] as const) {
    log(
      `${name.padEnd(31)} p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms; ` +
        `${result.requests} requests (${result.rate}/s), ${result.non2xx} not 2xx, ${result.errors} errors`,
    );
  }
  await waitQuiet(bench, [apiUser.userId], 60_000);
  return { currentUserP99Ms: currentUser.p99, settingsPatchP99Ms: settingsPatch.p99 };
}
