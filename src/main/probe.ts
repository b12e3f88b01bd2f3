import { ConfigError } from './config';
import { loadProbeConfig } from './probe-config';
import { startProbe } from './probe-host';

/** `npm run probe`: checks from where it runs and reports to PROBE_SERVER_URL with PROBE_KEY; stops cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadProbeConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const probe = await startProbe(config);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    probe.logger.info({ signal }, 'probe stopping');
    probe.stop().then(
      () => {
        probe.logger.info({ signal }, 'probe stopped');
        probe.logger.flush();
        process.exit(0);
      },
      (error: unknown) => {
        probe.logger.error({ err: error }, 'probe stop failed');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => shutdown(signal));
}

main().catch((error: unknown) => {
  process.stderr.write(`Probe failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
