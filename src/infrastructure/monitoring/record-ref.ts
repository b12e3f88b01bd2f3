const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT = /^[1-9]\d{0,9}$/;

/** A path reference as a filter: public id (uuid) or legacy integer id; null when it is neither. */
export function refFilter(ref: string | number): { id: number } | { publicId: string } | null {
  const value = String(ref);
  if (INT.test(value) && Number(value) <= 2_147_483_647) return { id: Number(value) };
  if (UUID.test(value)) return { publicId: value.toLowerCase() };
  return null;
}
