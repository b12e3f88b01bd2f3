/** The platform admin context's public surface: its use cases, their ports and the ports' tokens. */
export * from './change-user-activation';
export * from './get-admin-organization';
export * from './get-admin-user';
export * from './get-platform-usage';
export * from './list-admin-organizations';
export * from './list-admin-users';
export * from './platform-staff';
export * from './ports';
