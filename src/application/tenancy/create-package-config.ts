import { PackageConfig, type PackageConfigFields } from '../../domain/tenancy/package-config';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import { requireOrganizationCaller } from './customer-access';
import type { PackageConfigRepository } from './ports';

/** Organization admins define packages; a new default package takes the flag from the old one. */
export class CreatePackageConfig {
  constructor(
    private readonly packages: PackageConfigRepository,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: PackageConfigFields): Promise<PackageConfig> {
    requireOrganizationCaller(actor);
    requireAction(actor, 'packageConfig.manage');
    const config = new PackageConfig({
      ...input,
      publicId: this.ids.uuid(),
      organizationId: actor.scope.organizationId,
      now: this.clock.now(),
    });
    return this.tx.run((tx) => this.packages.add(config, tx));
  }
}
