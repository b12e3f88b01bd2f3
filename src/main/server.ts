import 'reflect-metadata';
import { ConfigError, loadConfig, runsChecks, type AppConfig } from './config';
import { startApplication } from './application';
import { missingEnvironment, missingNodeFlags, serviceScale, tuneGarbageCollection } from './gc-tuning';
import { describeStartFailure } from './start-failure';
import { readyMessage, serviceLogger } from './logging';

let config: AppConfig | undefined;

/** `npm start`: read the configuration once, start everything, stop cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  // Sized for a process that runs checks (src/main/gc-tuning.ts); an API-only process keeps V8's defaults.
  const checks = runsChecks(config);
  const scale = serviceScale(config.serviceScale);
  if (checks) tuneGarbageCollection(scale);
  const app = await startApplication(config, { logger: serviceLogger(config.logLevel) });
  const missing = checks ? [...missingNodeFlags(process.execArgv, process.env.NODE_OPTIONS, scale), ...missingEnvironment(scale)] : [];
  if (missing.length > 0) {
    app.logger.warn(
      { missing },
      'node was started without the flags or environment of a check process (npm start gives them): checks cost more CPU or memory',
    );
  }
  if (checks) app.logger.info({ scale, setting: config.serviceScale }, 'garbage-collector settings of a check process');
  app.logger.info({ url: app.url }, readyMessage(config.publicBaseUrl));
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.logger.info({ signal }, 'shutting down');
    const started = Date.now();
    app.stop().then(
      () => {
        app.logger.info({ signal, ms: Date.now() - started }, 'shutdown complete');
        app.logger.flush();
        process.exit(0);
      },
      (error) => {
        app.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // A library hooking these signals to stop its own part at once would pull it from under the
  // graceful stop (the check worker records what ran and hands its rows back first). This process
  // owns the order: app.stop() stops the embedded server last (it runs in a session of its own, so
  // a terminal's Ctrl-C does not reach it directly).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => shutdown(signal));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${describeStartFailure(error, config)}\n`);
  process.exit(1);
});
