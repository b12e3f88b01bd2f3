#!/usr/bin/env node
'use strict';
// wsm, monitoring as code: the compiled CLI (npm run build, or npm start's build step, makes it).
try {
  require('../dist/src/interfaces/cli/main.js').main();
} catch (error) {
  if (error && error.code === 'MODULE_NOT_FOUND' && /interfaces[\\/]cli[\\/]main/.test(String(error.message))) {
    process.stderr.write('wsm: not built yet: run `npm run build` (or `npm start`) first\n');
    process.exit(1);
  }
  throw error;
}
