import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.ts';

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/**
 * The `expr` of every rule in a Prometheus rules file: plain one-line values, and `|` blocks (the
 * lines indented deeper than the key). Enough for our own file; promtool checks the whole of it in CI.
 */
function ruleExpressions(yaml: string): string[] {
  const lines = yaml.split('\n');
  const found: string[] = [];
  lines.forEach((line, index) => {
    const match = /^(\s*)expr:\s*(.*)$/.exec(line);
    if (!match) return;
    const [, indent = '', value = ''] = match;
    if (!/^[|>][-+]?$/.test(value.trim())) {
      found.push(value.replace(/^(['"])(.*)\1$/, '$2'));
      return;
    }
    const block: string[] = [];
    for (const next of lines.slice(index + 1)) {
      if (next.trim() !== '' && next.search(/\S/) <= indent.length) break;
      block.push(next.trim());
    }
    found.push(block.join(' '));
  });
  return found;
}

/** Every `expr` in a Grafana dashboard, nested rows included. */
function dashboardExpressions(dashboard: unknown): string[] {
  if (Array.isArray(dashboard)) return dashboard.flatMap(dashboardExpressions);
  if (dashboard === null || typeof dashboard !== 'object') return [];
  return Object.entries(dashboard).flatMap(([key, value]) =>
    key === 'expr' && typeof value === 'string' ? [value] : dashboardExpressions(value),
  );
}

const PROMQL_WORDS = new Set(
  [
    'sum avg min max count stddev stdvar topk bottomk quantile count_values group',
    'rate irate increase delta idelta deriv predict_linear histogram_quantile absent absent_over_time',
    'avg_over_time min_over_time max_over_time sum_over_time count_over_time last_over_time',
    'abs ceil floor round clamp clamp_min clamp_max vector scalar time timestamp label_replace',
    'by without on ignoring group_left group_right and or unless offset bool inf nan',
  ]
    .join(' ')
    .split(' '),
);

/** The metric names an expression reads (label matchers, grouping labels, strings and durations removed). */
function metricNames(expression: string): string[] {
  const bare = expression
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\boffset\s+\w+/g, ' ');
  const words = bare.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? [];
  return words.filter((word) => !PROMQL_WORDS.has(word) && !/^\d/.test(word));
}

/** What the app exposes: each metric's name, and a histogram's series names too. */
async function exportedNames(): Promise<Set<string>> {
  const metrics = createMetrics({
    operations: {
      queues: async () => [],
      usersWithProblems: async () => [],
      channelsExpiring: async () => [],
      activeUsers: async () => 0,
      lanes: () => ({ open: 0, busy: 0, loopLoad: 0 }),
    },
    log: pino({ level: 'silent' }),
  });
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram' || String(metric.type) === 'summary') {
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
    }
  }
  return names;
}

describe('the ops files', () => {
  const files = {
    'ops/prometheus/alerts.yml': ruleExpressions(read('ops/prometheus/alerts.yml')),
    'ops/grafana/timeboxer.json': dashboardExpressions(JSON.parse(read('ops/grafana/timeboxer.json'))),
    // The series promtool's unit tests feed the rules with.
    'ops/prometheus/alerts.test.yml': [
      ...read('ops/prometheus/alerts.test.yml').matchAll(/series:\s*'([^']*)'/g),
    ].map((match) => match[1] ?? ''),
  };

  it('finds the expressions and the names in them', () => {
    expect(files['ops/prometheus/alerts.yml'].length).toBeGreaterThanOrEqual(5);
    expect(files['ops/grafana/timeboxer.json'].length).toBeGreaterThanOrEqual(10);
    expect(
      metricNames('sum by (le, source) (rate(x_bucket{status=~"5.."}[5m] offset 1h)) > 2 * y and on() z'),
    ).toEqual(['x_bucket', 'y', 'z']);
  });

  for (const [file, expressions] of Object.entries(files)) {
    it(`${file} reads only metrics the app exports`, async () => {
      const exported = await exportedNames();
      const unknown = expressions.flatMap(metricNames).filter((name) => !exported.has(name));
      expect(unknown).toEqual([]);
    });
  }

  it('every alert has a runbook section in docs/operations.md', () => {
    const alerts = [...read('ops/prometheus/alerts.yml').matchAll(/-\s+alert:\s*(\w+)/g)].map((m) => m[1]);
    const operations = read('docs/operations.md');
    expect(alerts.length).toBeGreaterThanOrEqual(5);
    for (const alert of alerts) expect(operations, String(alert)).toContain(`### ${alert}`);
  });
});
