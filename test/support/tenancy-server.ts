import { poolTx } from './pool-transaction';
import { SMS_USAGE_LEDGER, WATCH_RESULT_STORE, type SmsUsageLedger, type WatchResultStore } from '../../src/application/tenancy/ports';
import { smsMonthOf } from '../../src/domain/tenancy/sms-month';
import { organizationScope } from '../../src/domain/shared/tenant-scope';
import { testServer } from './test-server';
import { testClock } from './test-clock';

/** Runs work as a job would: in its own ORM context, against the test server's container. */
export async function inJobContext<T>(work: (get: <S>(id: symbol) => S) => Promise<T>): Promise<T> {
  const { container } = await testServer();
  return work((id) => container.get(id));
}

/** Records SMS sent this (server) month, as the notifications context will. */
export function recordSms(organizationId: number, customerId: number, count: number): Promise<void> {
  return inJobContext((get) =>
    get<SmsUsageLedger>(SMS_USAGE_LEDGER).record(
      organizationScope(organizationId),
      customerId,
      smsMonthOf(testClock.now()),
      count,
      poolTx(),
    ),
  );
}

/** Stores check results as the check engine will. */
export function withWatchResults<T>(work: (store: WatchResultStore) => Promise<T>): Promise<T> {
  return inJobContext((get) => work(get<WatchResultStore>(WATCH_RESULT_STORE)));
}
