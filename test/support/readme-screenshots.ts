import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Where the console tests that take the README's pictures (console-phone, console-wall) write them:
 * `docs/screenshots/` when asked to refresh them (`UPDATE_SCREENSHOTS=1`, as `npm run screenshots`
 * runs them), else `.test-data/screenshots/` (ignored by git), so an ordinary run never rewrites
 * the checkout's pictures. The folder is made if missing.
 */
export function readmeScreenshotsDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = path.join(ROOT, env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : '.test-data/screenshots');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
