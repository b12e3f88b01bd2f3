/** The billing context's public surface: its use cases, their ports and the ports' tokens. */
export * from './apply-discount';
export * from './billing-access';
export * from './change-quota-tier';
export * from './charging-tier-upgrades';
export * from './custom-pricing';
export * from './get-quota-tiers';
export * from './ports';
export * from './settle-mandate';
export * from './start-mandate';
export * from './tier-charges';
