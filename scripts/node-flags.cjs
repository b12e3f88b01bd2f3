// Prints the node flags of a check process at SERVICE_SCALE (src/main/gc-tuning.ts; `auto`, the
// default, asks the database how many monitors it holds), for `npm start`:
// `exec node $(node scripts/node-flags.cjs) dist/src/main/server.js`. Run after the build (prestart).
require('../dist/src/main/gc-tuning')
  .launchFlags()
  .then((flags) => process.stdout.write(flags.join(' ')));
