import type { Change, FieldChange } from './plan';

/**
 * The plan as text: one line per resource (+ create, ~ update, - delete) with where its entry is,
 * then one line per field (before -> after for updates). Secrets print as (secret).
 */

const SIGN = { create: '+', update: '~', delete: '-' } as const;

const NAMES = { customField: 'custom field', maintenanceWindow: 'maintenance window', statusPage: 'status page' } as const;

export const labelOf = (c: Pick<Change, 'type' | 'key' | 'kind' | 'customer'>) =>
  c.type === 'tag'
    ? `tag ${c.key}${c.customer === null ? ' (organization-wide)' : ''}`
    : c.type === 'customField' || c.type === 'maintenanceWindow' || c.type === 'statusPage'
      ? `${NAMES[c.type]} ${c.key}`
      : `${c.type} ${c.key} (${c.kind})`;

const show = (value: unknown, secret: boolean) => (secret ? '(secret)' : value === undefined ? '(unset)' : JSON.stringify(value));

function fieldLine(change: Change, f: FieldChange): string {
  if (change.action === 'create') return `    ${f.field}: ${show(f.after, f.secret)}`;
  return `    ${f.field}: ${show(f.before, f.secret && f.before !== null)} -> ${show(f.after, f.secret && f.after !== null)}`;
}

export function renderPlan(changes: readonly Change[], file: string): string {
  if (changes.length === 0) return `No changes: the service matches ${file}.\n`;
  const lines: string[] = [];
  for (const change of changes) {
    const where = change.desired ? `  (${change.desired.where()})` : '';
    lines.push(`${SIGN[change.action]} ${change.action} ${labelOf(change)}${where}`);
    for (const field of change.fields) lines.push(fieldLine(change, field));
  }
  const count = (action: Change['action']) => changes.filter((c) => c.action === action).length;
  lines.push('', `Plan: ${count('create')} to create, ${count('update')} to change, ${count('delete')} to delete.`);
  return `${lines.join('\n')}\n`;
}
