/** The shared context's public surface: its use cases, their ports and the ports' tokens, and the domain types they speak. */
export * from './actor';
export * from './clock';
export * from './group-committer';
export * from './id-generator';
export * from './rate-limiter';
export * from './target-policy';
export * from './token';
export * from './transaction';
export * from './domain-events';
export { AppError, isAppError } from '../../domain/shared/app-error';
export { ERROR_CODES, type ErrorCode } from '../../domain/shared/error-codes';
export type { TenantScope } from '../../domain/shared/tenant-scope';
