import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import { useAction } from '../../components/use-action';
import { amount, money, useLoad } from './use-load';
import './org-admin.css';

type Account = Schemas['BillingAccount'];
type Quota = Schemas['CustomerQuota'];

const MANDATE: Record<string, string> = {
  active: 'Active: charges are collected through it',
  pending: 'Pending: the payment provider has not decided yet',
  failed: 'Failed: the payment provider refused it',
};

function Mandate({ account, onChanged }: { account: Account; onChanged: () => void }) {
  const { busy, error, act } = useAction();
  return (
    <div class="panel">
      <h2>Payment mandate</h2>
      <p>{account.mandateStatus ? MANDATE[account.mandateStatus] : 'No payment mandate yet.'}</p>
      {account.mandateId ? <p class="muted">Mandate {account.mandateId}</p> : null}
      {account.mandateId ? (
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => act(async () => (await ok(api.POST('/api/billing/mandate/reconcile')), onChanged()))}
        >
          Read the mandate again from the provider
        </button>
      ) : null}
      <ErrorText message={error} />
    </div>
  );
}

function Discount({ account, onChanged }: { account: Account; onChanged: () => void }) {
  const [code, setCode] = useState('');
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    await ok(api.POST('/api/billing/discount', { body: { code } }));
    setCode('');
    onChanged();
  });
  const discount = account.discount;
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="discount-title">
      <h2 id="discount-title">Discount</h2>
      <p>
        {discount
          ? `${discount.percent} % off every future charge${discount.code ? ` (code ${discount.code})` : ''}, since ${dateTime(discount.appliedAt)}.`
          : 'No discount.'}
      </p>
      <Field label="Discount code" id="discount-code" error={fieldError('code')}>
        <input id="discount-code" value={code} onInput={(e) => setCode(e.currentTarget.value)} />
      </Field>
      <ErrorText message={message} />
      <button type="submit" disabled={busy}>
        Apply code
      </button>
    </form>
  );
}

function QuotaLine({ quota, currency }: { quota: Quota; currency: string }) {
  const tier = quota.tiers.find((t) => t.index === quota.currentTierIndex);
  return (
    <tr>
      <th scope="row">{quota.name}</th>
      <td>{quota.packageDisplayName}</td>
      <td>
        {quota.monitorsUsed} of {quota.monitorLimit}
      </td>
      <td>{tier ? amount(tier.priceMonthly, currency) : '—'}</td>
    </tr>
  );
}

/** What the organization is billed: mandate, discount, each customer's package and use, the charges recorded. */
export function Billing() {
  const account = useLoad(() => ok(api.GET('/api/billing')));
  const tiers = useLoad(() => ok(api.GET('/api/organization/quota-tier')));
  const charges = useLoad(() => ok(api.GET('/api/billing/charges', { params: { query: { perPage: 100 } } })));
  return (
    <section aria-labelledby="billing-title">
      <h1 id="billing-title">Billing</h1>
      <ErrorText message={account.error} />
      {account.data === null && !account.error ? <p role="status">Loading billing…</p> : null}
      {account.data ? (
        <div class="org-columns">
          <Mandate account={account.data} onChanged={() => void account.reload()} />
          <Discount account={account.data} onChanged={() => void account.reload()} />
        </div>
      ) : null}
      <h2>Packages and use</h2>
      <ErrorText message={tiers.error} />
      {tiers.data ? (
        <>
          <p>
            {tiers.data.autoQuotaUpgrade
              ? 'A customer whose quota is used up moves one tier up when a monitor is added (and the charge is recorded).'
              : 'A customer whose quota is used up cannot add monitors until its tier is raised.'}
          </p>
          {tiers.data.customers.length === 0 ? (
            <p>No customers yet.</p>
          ) : (
            <div class="table-wrap" role="region" aria-label="Customers and packages" tabIndex={0}>
              <table>
                <caption class="visually-hidden">Each customer's package and monitors used</caption>
                <thead>
                  <tr>
                    <th scope="col">Customer</th>
                    <th scope="col">Package</th>
                    <th scope="col">Monitors</th>
                    <th scope="col">Monthly price</th>
                  </tr>
                </thead>
                <tbody>
                  {tiers.data.customers.map((quota) => (
                    <QuotaLine key={quota.customerId} quota={quota} currency={tiers.data!.currency} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ) : null}
      <h2>Charges</h2>
      <ErrorText message={charges.error} />
      {charges.data?.total === 0 ? <p>No charges recorded.</p> : null}
      <ul class="plain-list" aria-label="Charges">
        {charges.data?.items.map((charge) => (
          <li key={charge.id} class="charge">
            <strong>{money(charge.amountCents, charge.currency)}</strong> <span>{charge.description}</span>{' '}
            <time class="muted" dateTime={charge.createdAt}>
              {dateTime(charge.createdAt)}
            </time>
          </li>
        ))}
      </ul>
    </section>
  );
}
