import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build step is CommonJS, run by `npm start` as it is
const { buildConsoleIfChanged } = require('../../scripts/build-console.cjs') as {
  buildConsoleIfChanged(root: string, log?: (line: string) => void): number;
};

/**
 * The console built as `npm start` builds it (only when its sources changed; `npm test` builds it
 * before mocha), for tests that serve it.
 */
export function ensureConsoleBuilt(): void {
  const status = buildConsoleIfChanged(path.resolve(__dirname, '../..'), () => undefined);
  if (status !== 0) throw new Error(`the console build failed (status ${status}); run npm run build:console to see why`);
}
