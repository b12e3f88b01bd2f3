import { AppError } from '../../domain/shared/app-error';
import type { ErrorCode } from '../../domain/shared/error-codes';
import type { TargetToVet } from '../../domain/monitoring/monitor-plan';
import type { TargetPolicy } from '../shared/target-policy';
import { refusalDetails, targetRefusal } from '../../domain/shared/network/refusal-text';
import { parseHost } from '../../domain/shared/network/host';

/** What a refused host answers by its field; any other (hostname, a kind's address field) answers invalidHostname. */
const CODE_BY_FIELD: Readonly<Record<string, ErrorCode>> = {
  url: 'invalidUrl',
  connectHost: 'connectHostNotPublic',
};

/**
 * Every host a create or update newly points a check at must be a public target (or allowlisted):
 * url -> invalidUrl, hostname (a DNS monitor's name included) and DNS resolver -> invalidHostname,
 * connectHost -> connectHostNotPublic. A name that does not resolve cannot be shown public and is
 * refused the same way, except a DNS monitor's name (it may hold no address records at all).
 */
export async function vetTargets(policy: TargetPolicy, targets: readonly TargetToVet[]): Promise<void> {
  const verdicts = await Promise.all(targets.map(async (target) => ({ target, vetting: await policy.vet(target.host) })));
  for (const { target, vetting } of verdicts) {
    if (vetting.ok || (vetting.reason === 'unresolvable' && target.mayBeUnresolvable)) continue;
    throw new AppError(
      CODE_BY_FIELD[target.field] ?? 'invalidHostname',
      refusalDetails(target.label ?? target.field, vetting.reason, target.host),
      targetRefusal(target.label ?? target.field, vetting.reason, target.host),
    );
  }
}

/**
 * The vetting of targets the service itself never connects to (a monitor checked only by probes of
 * private locations): the spelling alone, as the probe will parse it. Addresses, and names only a
 * private network knows (`db.internal`, `intranet.corp`), are the probe's call under its owner's
 * allowlist.
 */
export const SPELLING_ONLY: TargetPolicy = {
  async vet(host: string) {
    const parsed = parseHost(host, { reservedNames: true });
    return parsed.ok ? { ok: true, hostname: parsed.host.kind === 'name' ? parsed.host.name : host, addresses: [] } : parsed;
  },
  isAllowedAddress: () => true,
};
