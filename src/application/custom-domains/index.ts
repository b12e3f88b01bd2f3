/** The custom domains context's public surface: its use cases, their ports and the ports' tokens. */
export * from './activate-custom-domain';
export * from './active-hosts';
export * from './add-custom-domain';
export * from './custom-domain-access';
export * from './domain-ownership';
export * from './get-custom-domain';
export * from './list-custom-domains';
export * from './ports';
export * from './purge-expired-custom-domains';
export * from './remove-custom-domain';
export * from './verify-custom-domain';
export * from './host-branding';
