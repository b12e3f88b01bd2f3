import { api, ok, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { Link } from '../../components/link';
import { StateBadge } from '../../components/state-badge';
import { byUrgency } from '../../monitors/monitor-rows';
import type { User } from '../../session';
import { may } from '../../permissions';
import { CustomFieldsPanel } from './custom-fields-panel';
import { DomainsPanel } from './domains-panel';
import { IpsPanel } from './ips-panel';
import './customers.css';
import { Loading } from '../../components/loading';
import { useResource } from '../../components/use-resource';

type CustomerFull = Schemas['CustomerFull'];
type PackageConfig = Schemas['PackageConfig'];
type CustomField = Schemas['CustomField'];
type OverviewRow = Schemas['MonitorOverviewItem'];

interface Loaded {
  customer: CustomerFull;
  monitors: OverviewRow[];
  monitorCount: number;
  /** The package's record (tiers, description); null when it cannot be read. */
  pack: PackageConfig | null;
  /** The organization's custom field definitions; null for callers who may not read them (customer-scoped). */
  fields: CustomField[] | null;
}

async function load(id: string, orgWide: boolean): Promise<Loaded> {
  const customer = await ok(api.GET('/api/customers/{id}', { params: { path: { id } } }));
  const [overview, packages, fields] = await Promise.all([
    ok(api.GET('/api/monitor-overview', { params: { query: { customerId: customer.publicId, perPage: 1000 } } })),
    ok(api.GET('/api/package-configs', { params: { query: { perPage: 200 } } })).catch(() => null),
    // Customer-bound users may not read the definitions (they would be refused): not asked.
    orgWide ? ok(api.GET('/api/custom-fields', { params: { query: { perPage: 200 } } })).catch(() => null) : null,
  ]);
  return {
    customer,
    monitors: [...overview.items].sort(byUrgency),
    monitorCount: overview.total,
    pack: (packages?.items ?? []).find((p) => p.id === customer.packageId) ?? null,
    fields: fields ? fields.items : null,
  };
}

/** A figure of a limit: "3 of 10 (30 %)"; "none included" when the package gives none. */
const usage = (used: number, limit: number) =>
  limit > 0 ? `${used} of ${limit} (${Math.round((used / limit) * 100)} %)` : `${used} (none included)`;

function PackagePanel({ customer, pack, monitorCount }: Pick<Loaded, 'customer' | 'pack' | 'monitorCount'>) {
  const { packageConfig: terms } = customer;
  const over = monitorCount >= terms.monitorLimit;
  const tiers = pack?.quotaTiers ?? [];
  return (
    <section class="panel wide" aria-labelledby="package-title">
      <h2 id="package-title">Package and quota</h2>
      <dl class="facts">
        <div>
          <dt>Package</dt>
          <dd>{terms.displayName ?? terms.key}</dd>
        </div>
        <div>
          <dt>Monitors</dt>
          <dd class={over ? 'at-limit' : undefined}>
            {usage(monitorCount, terms.monitorLimit)}
            {over ? ' — at the limit' : ''}
          </dd>
        </div>
        <div>
          <dt>SMS this month</dt>
          <dd>{usage(customer.smsUsageCurrentMonth, terms.smsMonthlyAllowance)}</dd>
        </div>
        <div>
          <dt>Shortest check interval</dt>
          <dd>{terms.minCheckIntervalMinutes} min</dd>
        </div>
        <div>
          <dt>Quota tier</dt>
          <dd>
            {tiers.length > 1
              ? `${customer.quotaTierIndex + 1} of ${tiers.length} (up to ${tiers.map((t) => t.monitorLimit).join(', ')} monitors)`
              : 'One tier'}
          </dd>
        </div>
      </dl>
      {pack?.description ? <p class="muted">{pack.description}</p> : null}
    </section>
  );
}

function MonitorsPanel({ monitors, total }: { monitors: OverviewRow[]; total: number }) {
  return (
    <section class="panel wide" aria-labelledby="monitors-title">
      <h2 id="monitors-title">Monitors</h2>
      {monitors.length === 0 ? <p>No monitors yet.</p> : null}
      <ul class="plain-list" aria-label="Monitors of this customer">
        {monitors.map((m) => (
          <li key={m.publicId} class="customer-monitor">
            <Link to={`/monitors/${m.kind}/${m.publicId}`}>{m.name}</Link>
            <StateBadge state={m.state} />
            <span class="muted">{m.target ?? m.monitoringType}</span>
          </li>
        ))}
      </ul>
      {total > monitors.length ? (
        <p class="muted">
          The first {monitors.length} of {total} are listed.
        </p>
      ) : null}
    </section>
  );
}

/** One customer: its package and quota use, custom fields, watched domains and IPs, and monitors. */
export function CustomerPage({ id, user }: { id: string; user: User }) {
  const { value: loaded, error, set: setLoaded } = useResource((key) => load(key, user.customerId === null), id);
  if (!loaded) return <Loading error={error} what="the customer" />;
  const { customer } = loaded;
  return (
    <article aria-labelledby="customer-title" class="customer-page">
      <p>
        <Link to="/customers">All customers</Link>
      </p>
      <h1 id="customer-title">{customer.name}</h1>
      <p class="muted">
        {customer.email} · {customer.status}
      </p>
      <ErrorText message={error} />
      <PackagePanel customer={customer} pack={loaded.pack} monitorCount={loaded.monitorCount} />
      <CustomFieldsPanel
        customer={customer}
        fields={loaded.fields}
        canWrite={may(user, 'customer.setTerms')}
        onSaved={(next) => setLoaded({ ...loaded, customer: next })}
      />
      <DomainsPanel customerId={customer.publicId} canWrite={may(user, 'customer.update')} />
      <IpsPanel customerId={customer.publicId} canWrite={may(user, 'customer.update')} />
      <MonitorsPanel monitors={loaded.monitors} total={loaded.monitorCount} />
    </article>
  );
}
