export const ROLES = ['admin', 'editor', 'readonly', 'responder'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);
