import { AppError } from '../../domain/shared/app-error';
import type { PackageConfig } from '../../domain/tenancy/package-config';
import type { Actor } from '../shared/actor';
import type { PackageConfigRepository } from './ports';

export class GetPackageConfig {
  constructor(private readonly packages: PackageConfigRepository) {}

  async execute(actor: Actor, input: { id: string }): Promise<PackageConfig> {
    const config = await this.packages.findByRef(actor.scope, input.id);
    if (!config) throw new AppError('packageConfigNotFound');
    return config;
  }
}
