/**
 * `npm run lint:openapi`: writes the document the host serves at /openapi.json (built from the route
 * declarations, no server or database) and lints it with `redocly lint --extends recommended` and
 * the rules of redocly.yaml. Redocly exits 0 on warnings; this fails on any warning as well.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describeApi } from '../src/main/api-description';

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: Array<{ pointer?: string }>;
}
interface Report {
  totals: { errors: number; warnings: number };
  problems: Problem[];
}

const root = path.resolve(__dirname, '..');

/** Exit status: 0 when redocly reports no error and no warning. */
function lint(file: string): number {
  const run = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/@redocly/cli/bin/cli.js'),
      'lint',
      '--extends',
      'recommended',
      '--config',
      path.join(root, 'redocly.yaml'),
      '--lint-config',
      'error',
      '--format',
      'json',
      '--max-problems',
      '1000',
      file,
    ],
    {
      cwd: root,
      encoding: 'utf8',
      // Offline: no usage reports, no check for a newer version.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  const json = run.stdout?.slice(run.stdout.indexOf('{'), run.stdout.lastIndexOf('}') + 1);
  if (run.error || !json) {
    process.stderr.write(`redocly lint did not report (exit ${run.status}):\n${run.error?.message ?? ''}${run.stdout}${run.stderr}\n`);
    return 1;
  }
  const report = JSON.parse(json) as Report;
  for (const problem of report.problems) {
    const where = problem.location
      .map((l) => l.pointer)
      .filter(Boolean)
      .join(', ');
    process.stderr.write(`${problem.severity} ${problem.ruleId}: ${problem.message} at ${where}\n`);
  }
  const { errors, warnings } = report.totals;
  if (errors + warnings > 0 || run.status !== 0) {
    // Redocly's own output only matters when it failed for another reason (a redocly.yaml problem, say).
    process.stderr.write(`OpenAPI lint: ${errors} error(s), ${warnings} warning(s)\n${run.status === 0 ? '' : run.stderr}`);
    return 1;
  }
  process.stdout.write('OpenAPI lint: 0 errors, 0 warnings\n');
  return 0;
}

// A fixed path under dist/ (ignored by git), so .redocly.lint-ignore.yaml can name its problems.
const file = path.join(root, 'dist', 'openapi.json');
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(describeApi(), null, 2)}\n`);
process.exit(lint(file));
