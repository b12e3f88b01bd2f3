import { AppError } from '../../domain/shared/app-error';
import type { ErrorCode } from '../../domain/shared/error-codes';
import type { TargetToVet } from '../../domain/monitoring/monitor-plan';
import type { TargetPolicy, TargetRejection } from '../shared/target-policy';

const CODE_BY_FIELD: Record<TargetToVet['field'], ErrorCode> = {
  url: 'invalidUrl', hostname: 'invalidHostname', resolver: 'invalidHostname', connectHost: 'connectHostNotPublic',
};

const WHY: Record<TargetRejection, string> = {
  malformed: 'is not a valid host',
  reservedName: 'is localhost or a reserved or single-label name; use a public name, or the address itself',
  nonPublicAddress: 'is or resolves to a private, loopback, link-local or metadata address; the operator can allow its '
    + 'range with CHECK_PRIVATE_ALLOWLIST',
  unresolvable: 'does not resolve to an address',
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
    throw new AppError(CODE_BY_FIELD[target.field], { field: target.field, reason: vetting.reason, host: target.host },
      `${target.field} ${target.host} ${WHY[vetting.reason]}`);
  }
}
