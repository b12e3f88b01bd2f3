// Prints the node flags of a check process at SERVICE_SCALE (src/main/gc-tuning.ts), for `npm start`:
// `exec node $(node scripts/node-flags.cjs) dist/src/main/server.js`. Run after the build (prestart).
process.stdout.write(require('../dist/src/main/gc-tuning').nodeFlagsForChecks().join(' '));
