const OFFSET = /([+-]\d\d)(?::?(\d\d))?$/;

/**
 * A timestamptz from raw SQL: the ORM's pg type parser leaves them as PostgreSQL text
 * (`2026-11-22 07:07:34.776+00`), which this turns into a Date (null stays null).
 */
export function sqlDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  const text = String(value)
    .replace(' ', 'T')
    .replace(OFFSET, (_m, hours: string, minutes?: string) => `${hours}:${minutes ?? '00'}`);
  return new Date(text);
}

/** The same for NOT NULL columns. */
export const sqlDateRequired = (value: unknown): Date => sqlDate(value)!;
