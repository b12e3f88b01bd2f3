import { assertNoIssues, issue, type Issue } from './validation';

/** One step of a monitor quota: how many monitors, for what monthly price. */
export interface QuotaTier {
  readonly monitorLimit: number;
  readonly priceMonthly: number;
}

export interface PackageConfigFields {
  key: string;
  displayName: string;
  description: string | null;
  minCheckIntervalMinutes: number;
  quotaTiers: QuotaTier[];
  smsMonthlyAllowance: number;
  isDefault: boolean;
}

export const PACKAGE_KEY = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Tiers are ordered by strictly rising monitor limits and non-decreasing prices; tier 0 is the base quota. */
export function quotaTierIssues(tiers: readonly QuotaTier[]): Issue[] {
  const issues: Issue[] = [];
  if (tiers.length === 0) issues.push(issue(['quotaTiers'], 'At least one quota tier is required'));
  tiers.forEach((tier, index) => {
    const previous = tiers[index - 1];
    if (previous && tier.monitorLimit <= previous.monitorLimit) {
      issues.push(issue(['quotaTiers', String(index), 'monitorLimit'], 'Monitor limits must rise from tier to tier'));
    }
    if (previous && tier.priceMonthly < previous.priceMonthly) {
      issues.push(issue(['quotaTiers', String(index), 'priceMonthly'], 'A higher tier cannot cost less'));
    }
  });
  return issues;
}

/**
 * What an organization sells its customers: the shortest check interval, the monitor quota in
 * ordered tiers, and the monthly SMS allowance. Customers reference one; their limits come from it.
 */
export class PackageConfig implements PackageConfigFields {
  id!: number;
  publicId: string;
  organizationId: number;
  key: string;
  displayName: string;
  description: string | null;
  minCheckIntervalMinutes: number;
  quotaTiers: QuotaTier[];
  smsMonthlyAllowance: number;
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(props: PackageConfigFields & { publicId: string; organizationId: number; now: Date }) {
    assertNoIssues(quotaTierIssues(props.quotaTiers));
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.key = props.key;
    this.displayName = props.displayName;
    this.description = props.description;
    this.minCheckIntervalMinutes = props.minCheckIntervalMinutes;
    this.quotaTiers = props.quotaTiers.map((tier) => ({ ...tier }));
    this.smsMonthlyAllowance = props.smsMonthlyAllowance;
    this.isDefault = props.isDefault;
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  /** The package every organization gets when it has none and a customer is created without one. */
  static builtIn(props: { publicId: string; organizationId: number; now: Date }): PackageConfig {
    return new PackageConfig({
      ...props,
      key: 'standard',
      displayName: 'Standard',
      description: null,
      minCheckIntervalMinutes: 5,
      quotaTiers: [{ monitorLimit: 50, priceMonthly: 0 }],
      smsMonthlyAllowance: 0,
      isDefault: true,
    });
  }

  /** The base quota (tier 0). */
  get monitorLimit(): number {
    return this.quotaTiers[0]!.monitorLimit;
  }

  /** A stored tier index that outlived a shrink of the tiers counts as the top tier. */
  tierIndex(stored: number): number {
    return Math.max(0, Math.min(stored, this.quotaTiers.length - 1));
  }

  /** `packageType` names a package by key or display name, case-insensitively. */
  hasKey(packageType: string): boolean {
    return this.key.toLowerCase() === packageType.trim().toLowerCase();
  }

  hasDisplayName(packageType: string): boolean {
    return this.displayName.toLowerCase() === packageType.trim().toLowerCase();
  }

  change(change: Partial<PackageConfigFields>, now: Date): void {
    if (change.quotaTiers) assertNoIssues(quotaTierIssues(change.quotaTiers));
    if (change.key !== undefined) this.key = change.key;
    if (change.displayName !== undefined) this.displayName = change.displayName;
    if (change.description !== undefined) this.description = change.description;
    if (change.minCheckIntervalMinutes !== undefined) this.minCheckIntervalMinutes = change.minCheckIntervalMinutes;
    if (change.quotaTiers !== undefined) this.quotaTiers = change.quotaTiers.map((tier) => ({ ...tier }));
    if (change.smsMonthlyAllowance !== undefined) this.smsMonthlyAllowance = change.smsMonthlyAllowance;
    if (change.isDefault !== undefined) this.isDefault = change.isDefault;
    this.updatedAt = now;
  }
}
