// Sums the Vitest and Playwright JSON reports into one closing line: "N passed, M failed", after naming
// every failed test with the first line of its error (the end of a long CI log is what gets read).
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { failuresFileOf, type RecordedFailure } from './vitest-failures.reporter.ts';

type Counts = { passed: number; failed: number; skipped: number; failures: string[] };

type VitestAssertion = { fullName: string; status: string; failureMessages?: string[] };
type VitestFile = { name: string; status: string; message?: string; assertionResults: VitestAssertion[] };

/**
 * The error's first line; for a failed property (fast-check), also the line that says what failed in
 * it ("Got …"), since its first line only says that it failed.
 */
function firstLine(text: string | undefined): string {
  const lines = (text ?? '').split('\n');
  const first = lines[0]?.slice(0, 300) ?? '';
  const got = first.startsWith('Property failed') ? lines.find((line) => line.startsWith('Got ')) : undefined;
  return got ? `${first}: ${got.slice(0, 500)}` : first;
}

/**
 * Every error of the run, wherever thrown, from the failures reporter's file beside the report
 * (vitest-failures.reporter.ts); null when it is missing.
 */
function recordedVitestFailures(reportPath: string): string[] | null {
  const path = failuresFileOf(reportPath);
  if (!existsSync(path)) return null;
  const recorded = JSON.parse(readFileSync(path, 'utf8')) as RecordedFailure[];
  return recorded.map((failure) => `${failure.where}: ${firstLine(failure.message)}`);
}

function vitestCounts(path: string): Counts {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const failures: string[] = [];
  for (const file of (report.testResults ?? []) as VitestFile[]) {
    const failedTests = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failedTests) {
      failures.push(
        `${relative('.', file.name)} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`,
      );
    }
    if (file.status === 'failed' && failedTests.length === 0) {
      failures.push(`${relative('.', file.name)}: ${firstLine(file.message)}`);
    }
  }
  const recorded = recordedVitestFailures(path);
  return {
    passed: report.numPassedTests ?? 0,
    // A suite that fails to load has no failed tests of its own, so count it as one.
    failed: Math.max(report.numFailedTests ?? 0, report.numFailedTestSuites ?? 0),
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    // The reporter's list when there is one: a suite hook's error is only there.
    failures: recorded && (recorded.length > 0 || failures.length === 0) ? recorded : failures,
  };
}

/** The slowest test files, so that CI's log says where the suite's time goes (wall clock, per file). */
function slowestVitestFiles(path: string, count = 10): string[] {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const files = ((report.testResults ?? []) as (VitestFile & { startTime?: number; endTime?: number })[])
    .map((file) => ({ name: relative('.', file.name), ms: (file.endTime ?? 0) - (file.startTime ?? 0) }))
    .sort((a, b) => b.ms - a.ms);
  return files.slice(0, count).map((file) => `${(file.ms / 1000).toFixed(1).padStart(7)} s  ${file.name}`);
}

type PlaywrightResult = { status: string; duration?: number; error?: { message?: string } };
type PlaywrightSpec = { title: string; file: string; tests: { results: PlaywrightResult[] }[] };
type PlaywrightSuite = { suites?: PlaywrightSuite[]; specs?: PlaywrightSpec[] };

function playwrightFailures(suite: PlaywrightSuite): string[] {
  const own = (suite.specs ?? []).flatMap((spec) =>
    spec.tests.flatMap((test) =>
      test.results
        .filter((result) => result.status === 'failed' || result.status === 'timedOut')
        .map(
          (result) => `${spec.file} › ${spec.title} (${result.status}): ${firstLine(result.error?.message)}`,
        ),
    ),
  );
  return [...own, ...(suite.suites ?? []).flatMap(playwrightFailures)];
}

/** The browser test files by the time their tests took together, slowest first. */
function slowestPlaywrightFiles(path: string, count = 10): string[] {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const msByFile = new Map<string, number>();
  const visit = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      const ms = spec.tests
        .flatMap((test) => test.results)
        .reduce((sum, result) => sum + (result.duration ?? 0), 0);
      msByFile.set(spec.file, (msByFile.get(spec.file) ?? 0) + ms);
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  return [...msByFile]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([file, ms]) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
}

function playwrightCounts(path: string): Counts {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const { stats } = report;
  return {
    passed: stats.expected ?? 0,
    failed: (stats.unexpected ?? 0) + (stats.flaky ?? 0),
    skipped: stats.skipped ?? 0,
    failures: (report.suites ?? []).flatMap(playwrightFailures),
  };
}

/** A Playwright report has `suites` and `stats`; a Vitest one `testResults`. */
const isPlaywrightReport = (path: string) => 'stats' in JSON.parse(readFileSync(path, 'utf8'));

const total = { passed: 0, failed: 0, skipped: 0 };
const missing: string[] = [];
// Every report named, Vitest's and Playwright's, in any order.
for (const path of process.argv.slice(2)) {
  if (!existsSync(path)) {
    missing.push(path);
    continue;
  }
  const playwright = isPlaywrightReport(path);
  console.log(`slowest test files (${path}):`);
  for (const line of playwright ? slowestPlaywrightFiles(path) : slowestVitestFiles(path)) console.log(line);
  const counts = playwright ? playwrightCounts(path) : vitestCounts(path);
  for (const failure of counts.failures) console.log(`failed: ${failure}`);
  console.log(`${path}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
if (missing.length > 0) {
  console.log(`missing reports (counted as one failure each): ${missing.join(', ')}`);
  total.failed += missing.length;
}
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
