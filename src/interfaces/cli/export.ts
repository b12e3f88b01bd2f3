import { yamlText } from './yaml-text';
import { entryOfCustomField, entryOfPage, entryOfWindow } from './linked-resources';
import { PlanError } from './plan';
import { commonFields, entryOfChannel, entryOfMonitor, referencesIn } from './resources';
import type { ServiceState } from './service-state';

/**
 * The file export writes: the tags, notification channels, custom fields (organization files),
 * monitors, maintenance windows and status pages the token sees (or one customer's), secrets as
 * references.
 */
export function exportFile(state: ServiceState, customerRef: string | null): { text: string; references: string[] } {
  const customer = customerRef === null ? null : customerOf(state, customerRef);
  const inScope = state.resources.filter((r) => customer === null || r.customer === customer);
  const tags = inScope
    .filter((r) => r.type === 'tag')
    .map((t) => ({
      name: t.key,
      color: t.fields.color,
      ...(t.customer !== null && t.customer !== customer ? { customer: t.customer } : {}),
    }));
  const notificationChannels = inScope.filter((r) => r.type === 'channel').map((c) => entryOfChannel(c, customer));
  const actualMonitors = inScope.filter((r) => r.type === 'monitor');
  const defaults = commonFields(actualMonitors);
  const monitors = actualMonitors.map((m) => entryOfMonitor(m, customer, defaults[m.kind]));
  const of = (type: string) => inScope.filter((r) => r.type === type);
  const statusPages = of('statusPage').map((p) => entryOfPage(p, customer));
  const content = {
    version: 1,
    ...(customer ? { customer } : {}),
    tags,
    notificationChannels,
    ...(customer ? {} : { customFields: of('customField').map(entryOfCustomField) }),
    ...(Object.keys(defaults).length > 0 ? { defaults } : {}),
    monitors,
    maintenanceWindows: of('maintenanceWindow').map(entryOfWindow),
    statusPages,
  };
  const text = yamlText(content, ['yaml-language-server: $schema=./wsm.schema.json (write it with: wsm schema > wsm.schema.json)']);
  return { text, references: [...referencesIn([notificationChannels, monitors, statusPages])].sort() };
}

/** A customer named by publicId or integer id, among those the token sees. */
function customerOf(state: ServiceState, ref: string): string {
  for (const [id, publicId] of state.customers) if (String(id) === ref || publicId === ref) return publicId;
  throw new PlanError(`--customer ${ref}: no such customer for this token`);
}
