export const ROLES = ['admin', 'editor', 'readonly', 'responder'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

/** Roles allowed to change monitors, customers and other tenant data. */
export const canWrite = (role: Role): boolean => role === 'admin' || role === 'editor';
