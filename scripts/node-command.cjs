// Prints how to start a check process at SERVICE_SCALE (src/main/gc-tuning.ts; `auto`, the default,
// asks the database how many monitors it holds): its environment as NAME=value words, then `node`
// and its flags, for `npm start`: `exec env $(node scripts/node-command.cjs) dist/src/main/server.js`
// (one process: env replaces itself with node). Run after the build (prestart).
require('../dist/src/main/gc-tuning')
  .launchCommand()
  .then((command) => process.stdout.write(command.join(' ')));
