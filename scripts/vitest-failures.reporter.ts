// A Vitest reporter that writes every error of a run to one JSON file, wherever it was thrown: in a
// test, in a suite's hook (beforeAll, afterAll) or a file's top level, or outside any test. Vitest's
// own JSON report keeps the tests' errors and a file's, but drops a suite hook's, so a failed afterAll
// showed in CI's summary as a failed file with no message. scripts/ci-summary.ts prints this file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { Reporter, SerializedError, TestModule, Vitest } from 'vitest/node';

export type RecordedFailure = { where: string; message: string };

const described = (error: SerializedError): string =>
  [error.name && !error.message.startsWith(error.name) ? `${error.name}: ` : '', error.message]
    .join('')
    .trim() ||
  (error.stack ?? 'an error without a message');

function moduleFailures(module: TestModule): RecordedFailure[] {
  const file = relative('.', module.moduleId);
  const failures = module.errors().map((error) => ({ where: file, message: described(error) }));
  for (const suite of module.children.allSuites()) {
    for (const error of suite.errors()) {
      failures.push({
        where: `${file} › ${suite.fullName} (a hook of the suite)`,
        message: described(error),
      });
    }
  }
  for (const test of module.children.allTests('failed')) {
    for (const error of test.result().errors ?? []) {
      failures.push({ where: `${file} › ${test.fullName}`, message: described(error) });
    }
  }
  return failures;
}

/**
 * Where the failures of a run whose JSON report is `reportPath` are written: beside it, `vitest.json` →
 * `vitest.failures.json` (CI runs Vitest twice, each with its own report).
 */
export const failuresFileOf = (reportPath: string) => reportPath.replace(/(\.json)?$/, '.failures.json');

export default class FailuresReporter implements Reporter {
  #outputFile = failuresFileOf('reports/vitest.json');

  onInit(vitest: Vitest) {
    const { outputFile } = vitest.config;
    const reportPath = typeof outputFile === 'string' ? outputFile : outputFile?.json;
    if (reportPath) this.#outputFile = failuresFileOf(reportPath);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    const failures = [
      ...modules.flatMap(moduleFailures),
      ...unhandledErrors.map((error) => ({ where: 'outside any test', message: described(error) })),
    ];
    mkdirSync(dirname(this.#outputFile), { recursive: true });
    writeFileSync(this.#outputFile, `${JSON.stringify(failures, null, 2)}\n`);
  }
}
