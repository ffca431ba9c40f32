// @ts-check
import { relative } from 'node:path';

/**
 * `file › test name` of each failed test in a vitest JSON report (`--reporter=json`), the file
 * relative to `dir`. A file that failed before any of its tests ran (an import error, a failed hook)
 * has no failed test of its own: it is named as a file that did not run.
 * @param {{ testResults?: { name?: string, status?: string, assertionResults?: { status: string, fullName?: string, title: string }[] }[] }} report
 * @param {string} dir
 * @returns {string[]}
 */
export function failedTestNames(report, dir) {
  return (report.testResults ?? []).flatMap((file) => {
    const where = relative(dir, file.name ?? '');
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (failed.length === 0 && file.status === 'failed') return [`${where} (the file did not run)`];
    return failed.map((test) => `${where} › ${test.fullName ?? test.title}`);
  });
}
