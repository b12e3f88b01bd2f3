import { poolTx } from '../../../support/pool-transaction';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { anOrganization } from '../../../support/builders';
import { inJobContext } from '../../../support/tenancy-server';
import { testServer } from '../../../support/test-server';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../../../../src/application/billing/ports';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const request = (idempotencyKey: string) => ({ amountCents: 1950, currency: 'EUR', description: 'tier 0 to 1', idempotencyKey });

async function rowsOf(key: string): Promise<Array<Record<string, any>>> {
  const { database } = await testServer();
  return database.sql.query(sql`SELECT id, amount_cents FROM billing_charges WHERE idempotency_key = ${key}`);
}

describe('offline payment provider (billing_charges, billing_mandates)', () => {
  it('records a charge once per idempotency key, answering the first charge to a repeat', async () => {
    const org = await anOrganization('charges-once');
    const key = `test:${randomUUID()}`;
    const charge = () =>
      inJobContext((get) => get<PaymentProvider>(PAYMENT_PROVIDER).charge(org.user.organizationId, request(key), poolTx()));
    const first = await charge();
    const second = await charge();
    expect(second.id).to.equal(first.id);
    expect(first).to.include({ organizationId: org.user.organizationId, amountCents: 1950, currency: 'EUR', idempotencyKey: key });
    expect(await rowsOf(key)).to.have.length(1);
  });

  it('records a charge once when two transactions race with the same key', async () => {
    const org = await anOrganization('charges-race');
    const key = `test:${randomUUID()}`;
    const charge = () =>
      inJobContext((get) =>
        get<TransactionRunner>(TRANSACTION_RUNNER).run((tx) =>
          get<PaymentProvider>(PAYMENT_PROVIDER).charge(org.user.organizationId, request(key), tx),
        ),
      );
    const [a, b] = await Promise.all([charge(), charge()]);
    expect(a.id).to.equal(b.id);
    expect(await rowsOf(key)).to.have.length(1);
  });

  it("writes on the caller's transaction: a rolled-back change leaves no charge", async () => {
    const org = await anOrganization('charges-rollback');
    const key = `test:${randomUUID()}`;
    const failed = await inJobContext((get) =>
      get<TransactionRunner>(TRANSACTION_RUNNER).run(async (tx) => {
        await get<PaymentProvider>(PAYMENT_PROVIDER).charge(org.user.organizationId, request(key), tx);
        throw new Error('the move failed after its charge');
      }),
    ).catch((error: Error) => error.message);
    expect(failed).to.equal('the move failed after its charge');
    expect(await rowsOf(key)).to.deep.equal([]);
  });

  it('keeps mandates for the organization that started them, and knows no others', async () => {
    const org = await anOrganization('mandates');
    const provider = <T>(work: (p: PaymentProvider) => Promise<T>) => inJobContext((get) => work(get<PaymentProvider>(PAYMENT_PROVIDER)));
    const started = await provider((p) =>
      p.startMandate(org.user.organizationId, 'http://api.test.example/api/billing/mandate/return', poolTx()),
    );
    expect(await provider((p) => p.mandateStatus(started.mandateId))).to.deep.equal({
      organizationId: org.user.organizationId,
      status: 'active',
    });
    expect(await provider((p) => p.mandateStatus(randomUUID()))).to.equal(null);
    expect(await provider((p) => p.mandateStatus('not-an-id'))).to.equal(null);
  });
});
