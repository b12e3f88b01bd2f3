import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { CheckerRegistry } from '../application/checks/checker-registry';
import { RunCheck } from '../application/checks/run-check';
import { CheckDispatcher } from '../application/scheduling/check-dispatcher';
import type { WireProbeStatus } from '../application/probes/wire';
import { checkUserAgent } from '../domain/checks/user-agent';
import { DEFAULT_DNSBL_ZONES } from '../infrastructure/protocols/dnsbl/default-zones';
import { ChromiumBrowser } from '../infrastructure/protocols/browser/chromium-browser';
import { protocolCheckers } from '../infrastructure/protocols/checker-set';
import { NodeDnsResolver } from '../infrastructure/network/node-dns-resolver';
import { ResolvingTargetPolicy } from '../infrastructure/network/resolving-target-policy';
import { ProbeApiClient, ProbeApiError, ServerClock } from '../infrastructure/probes/client/probe-api-client';
import { RemoteCheckPlanner, RemoteCheckSchedule } from '../infrastructure/probes/client/remote-check-schedule';
import { DiskResultBuffer } from '../infrastructure/probes/client/disk-result-buffer';
import { BufferedOutcomeRecorder } from '../infrastructure/probes/client/buffered-outcome-recorder';
import { ResultSender } from '../infrastructure/probes/client/result-sender';
import { UploadedScreenshots } from '../infrastructure/probes/client/uploaded-screenshots';
import { startCheckWorker } from '../interfaces/jobs/check-worker';
import { RemoteScheduleWakeups } from '../infrastructure/probes/client/remote-schedule-wakeups';
import type { ProbeConfig } from './probe-config';
import { PRODUCT } from './product';

export interface RunningProbe {
  readonly instanceId: string;
  readonly location: string;
  readonly logger: Logger;
  stop(): Promise<void>;
}

interface Hello {
  location: string;
  leaseMs: number;
  lastSeq: number;
  serverTime: number;
}

/** The probe's identity, kept in its data directory: the same process after a restart, another with a new directory. */
function instanceIdIn(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'instance-id');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const id = randomUUID();
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}

/** Says hello until the server answers (a refusal of the key itself ends the start). */
async function hello(api: ProbeApiClient, clock: ServerClock, name: string, logger: Logger): Promise<Hello> {
  let waitMs = 500;
  for (let attempt = 1; ; attempt++) {
    const sentAt = Date.now();
    try {
      const answer = await api.call<Hello>('/hello', { name, version: PRODUCT.version });
      clock.observe(answer.serverTime, sentAt, Date.now());
      return answer;
    } catch (error) {
      if (error instanceof ProbeApiError && error.refused) throw error;
      if (attempt === 1) logger.warn({ err: error }, 'probe server unreachable: waiting for it');
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      waitMs = Math.min(15_000, waitMs * 2);
    }
  }
}

/**
 * A probe: the engine's dispatcher and checkers, with the check schedule, plans and recording
 * over the probe API (src/infrastructure/probes/client). It needs no database and opens no port:
 * it asks the server for its share of its location's monitors, checks them on the server's clock,
 * writes results to a disk buffer and sends them in batches, which keep piling up (bounded) while
 * the server cannot be reached. Its own CHECK_PRIVATE_ALLOWLIST decides which private addresses it
 * may reach, whatever the server asks.
 */
export async function startProbe(
  config: ProbeConfig,
  logger: Logger = pino({ level: config.logLevel, base: { service: 'probe' } }),
): Promise<RunningProbe> {
  const instanceId = instanceIdIn(config.dataDir);
  const api = new ProbeApiClient({ serverUrl: config.serverUrl, key: config.key, instanceId });
  const clock = new ServerClock();
  const greeting = await hello(api, clock, config.name, logger);
  const buffer = new DiskResultBuffer({ dir: path.join(config.dataDir, 'results'), maxBytes: config.bufferMaxBytes });
  await buffer.acknowledge(greeting.lastSeq);

  // Names of the probe's own network are resolved; its owner's allowlist decides which of their addresses it may reach.
  const policy = new ResolvingTargetPolicy(new NodeDnsResolver(config.dnsServers), config.checkPrivateAllowlist, { privateNames: true });
  const userAgent = checkUserAgent(PRODUCT.name, PRODUCT.version, config.serverUrl);
  const browserSettings = { executablePath: config.browserExecutablePath, maxConcurrent: 2, stepWaitMs: 10_000 };
  const browser = new ChromiumBrowser(browserSettings, policy, userAgent);
  const checkers = protocolCheckers(
    {
      dnsServers: config.dnsServers,
      dnsblZones: DEFAULT_DNSBL_ZONES,
      rdapBootstrapUrl: config.rdapBootstrapUrl,
      whoisServer: config.whoisServer,
      heloName: config.name,
      extraCa: [],
      browser: browserSettings,
      userAgent,
    },
    policy,
    browser,
    new UploadedScreenshots(api),
  );
  const runCheck = new RunCheck(new CheckerRegistry(checkers), clock);
  const schedule = new RemoteCheckSchedule(api, clock, greeting.location);
  const recorder = new BufferedOutcomeRecorder(buffer, () => sender.poke());
  const dispatcher = new CheckDispatcher(
    schedule,
    new RemoteCheckPlanner(schedule),
    (request) => runCheck.execute(request),
    recorder,
    clock,
    {
      workerId: `probe:${instanceId}`,
      locations: [greeting.location],
      batchSize: 1_000,
      maxInFlight: config.checkConcurrency,
      leaseMs: greeting.leaseMs,
    },
  );
  const rate = checksPerSecond(() => dispatcher.stats.started);
  const status = (): WireProbeStatus => ({
    monitorsHeld: dispatcher.stats.held,
    checksPerSecond: rate(),
    lagMs: buffer.lagMs(Date.now()),
    buffered: buffer.pending,
    dropped: buffer.dropped,
  });
  const sender = new ResultSender(api, buffer, { fenced: (workers) => recorder.fence(workers), status }, logger);
  sender.start();
  const worker = startCheckWorker(dispatcher, logger, {
    // Finished checks reach the buffer every 500 ms; the sender gathers them into a batch a second.
    flushEveryMs: 500,
    // Woken by the server when the schedule changes: claims and changes at once then, else every 5 s.
    wakeups: new RemoteScheduleWakeups(api, logger),
    // While the server cannot be reached, schedule calls fail every round: the sender says so once.
    around: (work) => work().catch((error: unknown) => (sender.connected ? Promise.reject(error) : undefined)) as never,
  });
  const progress = setInterval(() => logger.info({ ...status(), ...sender.totals, clockOffsetMs: clock.offset }, 'probe progress'), 60_000);
  progress.unref();
  logger.info({ instanceId, location: greeting.location, server: config.serverUrl, buffered: buffer.pending }, 'probe started');
  return {
    instanceId,
    location: greeting.location,
    logger,
    async stop() {
      clearInterval(progress);
      await worker.stop().catch((error: unknown) => logger.warn({ err: error }, 'probe could not hand its monitors back'));
      await sender.stop();
      await buffer.flushed();
      await browser.close();
    },
  };
}

/** Checks started per second, over the time since the previous reading. */
function checksPerSecond(started: () => number): () => number {
  let last = { at: Date.now(), started: started() };
  let rate = 0;
  return () => {
    const now = { at: Date.now(), started: started() };
    if (now.at - last.at >= 1_000) {
      rate = Math.round(((now.started - last.started) * 1000) / (now.at - last.at));
      last = now;
    }
    return rate;
  };
}
