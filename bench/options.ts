/** The benchmark's command line: `npm run bench -- [flags]` (see docs/performance.md). */

/** Which calendar every benchmark user syncs with. */
export type CalendarKind = 'google' | 'microsoft';

export type Options = {
  db: 'pglite' | 'postgres';
  users: number;
  latencyMs: number;
  quick: boolean;
  profile: boolean;
  sqlProfile: boolean;
  changesPerUser: number;
  editsPerUser: number;
  /** Minutes of the quota phase (0: skipped). */
  quotaMinutes: number;
  burstPerUser: number;
  queueRounds: number;
  apiSeconds: number;
  initialTasks: number;
  initialEvents: number;
  /** The most sync runs the app's worker keeps in flight (null: the app's default). */
  maxRuns: number | null;
  calendar: CalendarKind;
  /** `--scale`: the scale run (docs/performance.md) instead of the phases; PostgreSQL only. */
  scale: boolean;
  /** Seconds the scale run's reconcile wave spreads its users over (0: all queued at once). */
  spreadSeconds: number;
};

const KNOWN = [
  'db',
  'users',
  'latency',
  'quick',
  'profile',
  'sql-profile',
  'changes',
  'edits',
  'quota-minutes',
  'burst',
  'rounds',
  'api-seconds',
  'initial-tasks',
  'initial-events',
  'max-runs',
  'calendar',
  'scale',
  'spread',
];

export function parseOptions(args: string[]): Options {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
  const flag = (name: string) => args.includes(`--${name}`);
  const number = (name: string, fallback: number) => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name} must be a whole number`);
    return parsed;
  };
  for (const arg of args) {
    const name = arg.replace(/^--/, '').split('=')[0] ?? '';
    if (!arg.startsWith('--') || !KNOWN.includes(name)) throw new Error(`unknown option ${arg}`);
  }
  const db = value('db') ?? 'pglite';
  if (db !== 'pglite' && db !== 'postgres') throw new Error('--db must be pglite or postgres');
  const calendar = value('calendar') ?? 'google';
  if (calendar !== 'google' && calendar !== 'microsoft')
    throw new Error('--calendar must be google or microsoft');
  const quick = flag('quick');
  const scale = flag('scale');
  if (scale && value('db') === 'pglite') throw new Error('--scale runs on PostgreSQL only');
  return {
    db: scale ? 'postgres' : db,
    users: Math.max(1, number('users', scale ? 10_000 : 50)),
    latencyMs: number('latency', scale ? 100 : 20),
    scale,
    spreadSeconds: number('spread', 0),
    quick,
    profile: flag('profile'),
    sqlProfile: flag('sql-profile'),
    changesPerUser: Math.max(1, number('changes', quick ? 2 : 10)),
    editsPerUser: Math.max(1, number('edits', quick ? 4 : 8)),
    quotaMinutes: number('quota-minutes', 0),
    burstPerUser: Math.max(1, number('burst', quick ? 4 : 10)),
    queueRounds: Math.max(1, number('rounds', quick ? 1 : 5)),
    apiSeconds: Math.max(1, number('api-seconds', quick ? 4 : 20)),
    initialTasks: number('initial-tasks', 1000),
    initialEvents: number('initial-events', 2500),
    maxRuns: value('max-runs') === undefined ? null : Math.max(4, number('max-runs', 4)),
    calendar,
  };
}
