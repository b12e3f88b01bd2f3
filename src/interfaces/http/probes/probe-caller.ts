import type { Request } from 'express';
import { PROBE_KEY_PREFIX } from '../../../domain/locations/probe-key';
import { AppError } from '../../../domain/shared/app-error';
import type { CachedProbeCredentials } from '../../../application/probes/cached-probe-credentials';
import type { ProbeCaller } from '../../../application/probes/probe-identity';
import { PROBE_PROTOCOL_VERSION } from '../../../application/probes/wire';
import type { Clock } from '../../../application/shared/clock';
import { KeyedRateLimit } from './keyed-rate-limit';

/** Calls per key, in each service process. */
const PER_KEY = { perSecond: 50, burst: 200 };
/**
 * Lookups of keys that are not valid, per client address (as every failed credential is limited):
 * a burst of 20, then one a second. A key the process knows as valid is never held up by it.
 */
const FAILED_KEYS_PER_ADDRESS = { perSecond: 1, burst: 20 };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The limits one probe API counts in its process. */
export const probeCallLimits = () => ({
  perKey: new KeyedRateLimit(PER_KEY),
  failedPerAddress: new KeyedRateLimit(FAILED_KEYS_PER_ADDRESS),
});
export type ProbeCallLimits = ReturnType<typeof probeCallLimits>;

/**
 * Who calls: the key (Authorization: Bearer) looked up through the process's short cache, within
 * its rate, and the process it names (X-Probe-Instance). Whether that process is registered at
 * the key's location is each use case's first step.
 */
export async function callerOf(
  req: Request,
  use: { credentials: CachedProbeCredentials; clock: Clock },
  limits: ProbeCallLimits,
): Promise<ProbeCaller> {
  const header = req.headers.authorization ?? '';
  const secret = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  const now = use.clock.now();
  // Only what looks like a probe key is looked up (and so limited); anything else is refused without a lookup.
  const lookedUp = secret.startsWith(PROBE_KEY_PREFIX);
  const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  if (lookedUp && !use.credentials.knows(secret)) {
    const wait = limits.failedPerAddress.peek(address, now.getTime());
    if (wait > 0) throw new AppError('rateLimited', { retryAfter: wait });
  }
  const identity = lookedUp ? await use.credentials.authenticate(secret, now) : null;
  if (!identity) {
    if (lookedUp) limits.failedPerAddress.take(address, now.getTime());
    throw new AppError('unauthorized');
  }
  const retryAfter = limits.perKey.take(String(identity.keyId), now.getTime());
  if (retryAfter > 0) throw new AppError('rateLimited', { retryAfter });
  const protocol = req.headers['x-probe-protocol'];
  if (protocol !== undefined && protocol !== String(PROBE_PROTOCOL_VERSION)) {
    const message = `X-Probe-Protocol: this service speaks probe protocol ${PROBE_PROTOCOL_VERSION}`;
    throw new AppError('validationFailed', { header: 'X-Probe-Protocol', supported: [PROBE_PROTOCOL_VERSION] }, message);
  }
  const instanceId = String(req.headers['x-probe-instance'] ?? '').toLowerCase();
  if (!UUID.test(instanceId))
    throw new AppError('validationFailed', { header: 'X-Probe-Instance' }, 'X-Probe-Instance: a UUID is required');
  return { ...identity, instanceId };
}
