import { AppError } from '../shared/app-error';
import type { PackageConfig } from './package-config';

/** How a request names a customer's package (customer rules 1 and 2). */
export interface PackageChoice {
  readonly packageId?: number;
  readonly packageType?: string;
}

export const choosesPackage = (choice: PackageChoice): boolean => choice.packageId !== undefined || choice.packageType !== undefined;

/**
 * Picks the organization's package a request names: packageId must be one of `packages`, packageType
 * must match a key (first) or else a display name. When both are sent they must name the same
 * package. Anything else is 400 invalidPackageType, so an unknown package is never stored.
 */
export function choosePackage(packages: readonly PackageConfig[], choice: PackageChoice): PackageConfig {
  const byId = choice.packageId !== undefined ? packages.find((p) => p.id === choice.packageId) : undefined;
  if (choice.packageId !== undefined && !byId) {
    throw new AppError('invalidPackageType', { packageId: choice.packageId }, 'Unknown package');
  }
  let byType: PackageConfig | undefined;
  if (choice.packageType !== undefined) {
    const type = choice.packageType;
    byType = packages.find((p) => p.hasKey(type)) ?? packages.find((p) => p.hasDisplayName(type));
    if (!byType) throw new AppError('invalidPackageType', { packageType: type }, 'Unknown package type');
  }
  if (byId && byType && byId !== byType) {
    throw new AppError(
      'invalidPackageType',
      { packageId: choice.packageId, packageType: choice.packageType },
      'packageId and packageType name different packages',
    );
  }
  const chosen = byId ?? byType;
  if (!chosen) throw new AppError('invalidPackageType', {}, 'Name a package by packageId or packageType');
  return chosen;
}

/** The organization's default package: the flagged one, else the oldest; null when it has none. */
export function defaultPackage(packages: readonly PackageConfig[]): PackageConfig | null {
  return packages.find((p) => p.isDefault) ?? [...packages].sort((a, b) => a.id - b.id)[0] ?? null;
}
