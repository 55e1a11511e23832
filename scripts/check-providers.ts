import { startEmulators } from '../emulators/index.ts';
import { listenForPushes } from './provider-check/push-listener.ts';
import { createRecorder } from './provider-check/recorder.ts';
import {
  googleScenario,
  microsoftScenario,
  type ScenarioContext,
  todoistScenario,
} from './provider-check/scenarios.ts';
import { type Difference, differences, type Observation } from './provider-check/shape.ts';

/**
 * `npm run check:providers`: plays one scenario on each provider (Todoist: a project, a label, a task made,
 * moved, completed and deleted; Google Calendar and Microsoft 365: a throwaway calendar, an event made,
 * moved, read back as changes, deleted and read again; Google's push to a listener) against the
 * emulators, and against the real APIs where credentials are set, then prints every difference of status
 * and shape between the two. Without credentials it says what it needs and checks the emulators alone.
 *
 *   CHECK_TODOIST_TOKEN      a Todoist API token (Settings → Integrations → Developer)
 *   CHECK_GOOGLE_TOKEN       a Google OAuth access token with the calendar scope
 *   CHECK_MICROSOFT_TOKEN    a Microsoft Graph access token with Calendars.ReadWrite
 *   CHECK_PUSH_URL           optional: a public HTTPS URL forwarded to CHECK_PUSH_PORT, for Google's push
 *   CHECK_PUSH_PORT          the local port behind CHECK_PUSH_URL
 *
 * Exits 1 when the emulators' own run failed (a 5xx, or a step that should succeed did not) or a live
 * run differs from the emulators'; 0 otherwise.
 */
const LIVE = {
  todoist: { token: process.env.CHECK_TODOIST_TOKEN, base: 'https://api.todoist.com' },
  google: { token: process.env.CHECK_GOOGLE_TOKEN, base: 'https://www.googleapis.com' },
  microsoft: { token: process.env.CHECK_MICROSOFT_TOKEN, base: 'https://graph.microsoft.com' },
};
const PUSH_URL = process.env.CHECK_PUSH_URL || null;
const PUSH_PORT = Number(process.env.CHECK_PUSH_PORT || 0);

type Provider = keyof typeof LIVE;
type Run = { observations: Observation[]; push: Record<string, string> | null };
/** Steps that read what was just deleted: any status is the provider's answer, not a failure. */
const READS_OF_DELETED = / read the deleted /;

async function play(
  provider: Provider,
  token: string,
  base: string,
  push: { address: string | null; port: number; flush: () => Promise<void> } | null,
): Promise<Run> {
  const recorder = createRecorder(token);
  const context: ScenarioContext = {
    call: recorder.call,
    name: `Timeboxer check ${new Date().toISOString().slice(0, 19)}`,
    now: new Date(),
  };
  if (provider === 'todoist') await todoistScenario(context, base);
  if (provider === 'microsoft') await microsoftScenario(context, base);
  let pushed: Record<string, string> | null = null;
  if (provider === 'google') {
    const listener = push ? await listenForPushes(push.port, push.address, push.flush) : null;
    try {
      pushed = await googleScenario(context, base, listener?.watch ?? null);
    } finally {
      await listener?.close();
    }
  }
  return { observations: recorder.observations, push: pushed };
}

function failuresOf(run: Run): string[] {
  return run.observations
    .filter((seen) => seen.status >= 500 || (seen.status >= 400 && !READS_OF_DELETED.test(seen.step)))
    .map((seen) => `${seen.step}: ${seen.status}`);
}

const line = (difference: Difference) =>
  `  ${difference.step} ${difference.path}: emulator ${difference.emulator ?? '(absent)'}, live ${difference.live ?? '(absent)'}`;

async function main(): Promise<number> {
  const emulators = await startEmulators();
  let failed = false;
  try {
    const email = 'provider-check@example.com';
    const control = async (origin: string, path: string, body: unknown) =>
      (await (
        await fetch(`${origin}/_emulator/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as Record<string, unknown>;
    const seeded = (await control(emulators.todoist.origin, 'seed', {
      // The check deletes its project at the end: Todoist's project:delete scope besides the app's.
      users: [{ email, scopes: ['data:read_write', 'data:delete', 'project:delete'] }],
    })) as {
      users: { accessToken: string }[];
    };
    const tokens: Record<Provider, string> = {
      todoist: seeded.users[0]?.accessToken ?? '',
      google: String((await control(emulators.googleCalendar.origin, 'tokens', { email })).access_token),
      microsoft: String((await control(emulators.microsoft.origin, 'tokens', { email })).access_token),
    };
    const bases: Record<Provider, string> = {
      todoist: emulators.todoist.origin,
      google: emulators.googleCalendar.apiRootUrl,
      microsoft: emulators.microsoft.graphBaseUrl,
    };
    const flushGoogle = async () => {
      await fetch(`${emulators.googleCalendar.origin}/_emulator/notifications/flush`, { method: 'POST' });
    };
    for (const provider of Object.keys(LIVE) as Provider[]) {
      const ours = await play(
        provider,
        tokens[provider],
        bases[provider],
        provider === 'google' ? { address: null, port: 0, flush: flushGoogle } : null,
      );
      const broken = failuresOf(ours);
      if (provider === 'google' && !ours.push) broken.push('google: no push after making an event');
      console.log(
        `\n${provider}: the emulator answered ${ours.observations.length} steps${broken.length ? `, ${broken.length} failed` : ''}`,
      );
      for (const seen of ours.observations) console.log(`  ${seen.status}  ${seen.step}`);
      if (ours.push) console.log(`  push: ${JSON.stringify(ours.push)}`);
      for (const failure of broken) console.log(`  FAILED ${failure}`);
      failed ||= broken.length > 0;

      const live = LIVE[provider];
      if (!live.token) {
        console.log(
          `  live: not checked; set CHECK_${provider.toUpperCase()}_TOKEN to compare with the real API`,
        );
        continue;
      }
      const theirs = await play(
        provider,
        live.token,
        live.base,
        provider === 'google' && PUSH_URL
          ? { address: PUSH_URL, port: PUSH_PORT, flush: async () => {} }
          : null,
      );
      const found = differences(ours.observations, theirs.observations);
      if (provider === 'google' && PUSH_URL) {
        for (const name of new Set([...Object.keys(ours.push ?? {}), ...Object.keys(theirs.push ?? {})])) {
          const [a, b] = [ours.push?.[name] ?? null, theirs.push?.[name] ?? null];
          if (a !== b)
            found.push({ step: 'google: push after making an event', path: name, emulator: a, live: b });
        }
      }
      console.log(
        found.length === 0 ? '  live: the same statuses and shapes' : `  live: ${found.length} differences`,
      );
      for (const difference of found) console.log(line(difference));
      failed ||= found.length > 0;
    }
  } finally {
    await emulators.close();
  }
  return failed ? 1 : 0;
}

process.exitCode = await main();
