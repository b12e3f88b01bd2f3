import { z } from 'zod';
import { PROBE_WAIT_MAX_MS } from '../../../application/probes/probe-wakeups';
import { PROBE_CLAIM_LIMIT } from '../../../application/probes/probe-schedule-gateway';
import { PROBE_SCREENSHOT_MAX_BYTES } from '../../../application/probes/receive-probe-screenshot';
import { WIRE_LIMITS } from '../../../application/probes/wire';
import { epochMs } from './probe-results.body';

const generation = z
  .number()
  .int()
  .min(0)
  .max(999_999_999)
  .meta({ description: "The probe's worker generation (a fenced worker returns as the next)" });
const row = z
  .tuple([
    z.number().int().positive(),
    epochMs,
    z.number().int().positive().max(WIRE_LIMITS.maxIntervalMs),
    z.number().int().min(0).max(WIRE_LIMITS.maxIntervalMs),
  ])
  .meta({ description: '[monitorId, slot (epoch ms), intervalMs, phaseMs]' });
const rows = z.array(row).max(100_000);

export const HelloBody = z.object({
  name: z.string().max(100).default('').meta({ description: 'A name for this probe process (its host name by default)' }),
  version: z.string().max(40).default('').meta({ description: "The probe's package version" }),
});
export const HelloAnswer = z.object({
  protocol: z.number().int().meta({ description: 'Probe protocol version (1)' }),
  location: z.string().meta({ description: "The code of the key's location: every check this probe runs is reported from it" }),
  leaseMs: z
    .number()
    .int()
    .meta({ description: 'How long the server waits for a silent probe before its monitors go to the other probes of the location' }),
  lastSeq: z.number().int().meta({ description: 'The highest result sequence stored from this instance' }),
  serverTime: z.number().int().meta({ description: "The server's clock (epoch ms): the probe runs its schedule on it" }),
});

export const GenerationBody = z.object({ generation });
export const RegisterAnswer = z.object({ changesFrom: z.number().int(), serverTime: z.number().int() });
export const RenewAnswer = z.object({ alive: z.boolean(), serverTime: z.number().int() });
export const ClaimBody = z.object({
  generation,
  limit: z.number().int().min(0).max(PROBE_CLAIM_LIMIT),
  adoptLimit: z.number().int().min(0).max(PROBE_CLAIM_LIMIT).default(PROBE_CLAIM_LIMIT),
});
export const HeldBody = z.object({ generation, monitorIds: z.array(z.number().int().positive()).max(100_000) });
export const RowsBody = z.object({ generation, rows });
export const RowsAnswer = z.object({
  rows,
  plans: z
    .array(z.object({ monitorId: z.number().int(), request: z.looseObject({ kind: z.string() }) }))
    .meta({ description: 'What each row runs (the check request, credentials included); rows without a plan run nothing now' }),
});
export const LoadAnswer = z.object({
  locations: z.array(
    z.object({
      location: z.string(),
      rows: z.number().int(),
      workers: z.number().int().meta({ description: 'Live workers serving the location' }),
      registered: z
        .number()
        .int()
        .meta({ description: 'Workers registered for the location in any state, the caller included: 1 when it serves it alone' }),
    }),
  ),
});
export const WaitBody = z.object({
  timeoutMs: z
    .number()
    .int()
    .min(0)
    .max(PROBE_WAIT_MAX_MS)
    .default(20_000)
    .meta({ description: 'How long to hold the call at most (at most 25 s)' }),
});
export const WaitAnswer = z.object({
  woken: z.boolean().meta({ description: 'The schedule changed: claim and read the changes now (false: the wait ran out)' }),
  serverTime: z.number().int(),
});
export const ChangesBody = z.object({ after: z.number().int().min(0) });
export const ChangesAnswer = z.object({
  changes: z.array(
    z.object({
      seq: z.number().int(),
      monitorId: z.number().int(),
      triggered: z.boolean(),
      at: z.number().int(),
      gone: z
        .literal(true)
        .optional()
        .meta({ description: 'The monitor is no longer scheduled at the location (paused, deleted, location removed): stop checking it' }),
    }),
  ),
  readThrough: z.number().int().meta({ description: 'How far the change log was read: ask after it next' }),
  more: z.boolean(),
});

export { ResultsBody } from './probe-results.body';
export const ResultsAnswer = z.object({
  lastSeq: z.number().int().meta({ description: 'Everything up to here is stored: it may leave the probe buffer' }),
  recorded: z.number().int().meta({ description: 'Judged by the alert rules' }),
  late: z.number().int().meta({ description: 'Stored as history only (the worker had lapsed, or older than the timely window)' }),
  duplicates: z.number().int().meta({ description: 'Already stored (a batch sent again)' }),
  refused: z
    .number()
    .int()
    .meta({ description: 'About monitors not scheduled at the location now (paused, deleted, location removed): dropped' }),
  tooOld: z.number().int().meta({ description: 'Older than the raw results window: dropped' }),
  tooNew: z.number().int().meta({ description: "Dated more than 60 s ahead of the service's clock: dropped" }),
  fenced: z.array(z.string()).meta({ description: 'Worker names no longer alive: forget their rows and register again' }),
});

export const ScreenshotBody = z.object({
  id: z.uuid(),
  monitorId: z.number().int().positive(),
  takenAt: epochMs,
  png: z
    .base64()
    .max(Math.ceil(PROBE_SCREENSHOT_MAX_BYTES / 3) * 4)
    .meta({ description: 'The PNG, base64' }),
});
