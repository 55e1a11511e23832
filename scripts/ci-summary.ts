// Sums the Vitest and Playwright JSON reports into one closing line: "N passed, M failed".
import { existsSync, readFileSync } from 'node:fs';

type Counts = { passed: number; failed: number; skipped: number };

function vitestCounts(path: string): Counts {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  return {
    passed: report.numPassedTests ?? 0,
    // A suite that fails to load has no failed tests of its own, so count it as one.
    failed: Math.max(report.numFailedTests ?? 0, report.numFailedTestSuites ?? 0),
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

function playwrightCounts(path: string): Counts {
  const { stats } = JSON.parse(readFileSync(path, 'utf8'));
  return {
    passed: stats.expected ?? 0,
    failed: (stats.unexpected ?? 0) + (stats.flaky ?? 0),
    skipped: stats.skipped ?? 0,
  };
}

const [vitestPath, playwrightPath] = process.argv.slice(2);
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const missing: string[] = [];
for (const [path, read] of [
  [vitestPath, vitestCounts],
  [playwrightPath, playwrightCounts],
] as const) {
  if (!path || !existsSync(path)) {
    missing.push(path ?? '(none)');
    continue;
  }
  const counts = read(path);
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
