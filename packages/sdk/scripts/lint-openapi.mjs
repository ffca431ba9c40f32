// `redocly lint` (recommended rules, redocly.yaml) over openapi.json: prints its figures and fails on
// any error or warning, so that a warning cannot pile up unseen.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
const binary = join(dir, 'node_modules', '.bin', 'redocly');
let output;
try {
  output = execFileSync(binary, ['lint', 'openapi.json', '--config', 'redocly.yaml', '--format=json'], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
} catch (error) {
  // redocly exits non-zero on errors; its report is on stdout all the same.
  output = error.stdout ?? '';
}
const report = JSON.parse(output.slice(output.indexOf('{')));
for (const problem of report.problems) {
  const where = problem.location?.[0]?.pointer ?? '';
  console.log(`${problem.severity} ${problem.ruleId} ${where}: ${problem.message}`);
}
const { errors, warnings } = report.totals;
console.log(`redocly lint ${report.version} of openapi.json: ${errors} errors, ${warnings} warnings`);
process.exit(errors + warnings === 0 ? 0 : 1);
