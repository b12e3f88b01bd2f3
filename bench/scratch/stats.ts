import 'reflect-metadata';
import { startBenchService } from '../support/service';
import { customerDomainsScenario } from '../scenarios/customer-domains.scenario';

async function main() {
  const service = await startBenchService('api-service-process.ts');
  try {
    const target = await customerDomainsScenario.prepare(service);
    const q = async (sql: string) => (await service.request<{ rows: Array<Record<string, any>> }>({ type: 'sql', sql })).rows;
    const snap = async () => ({
      tables: await q(`SELECT relname, seq_scan, idx_scan, n_tup_upd, n_tup_ins FROM pg_stat_user_tables WHERE seq_scan + coalesce(idx_scan,0) > 0`),
      db: (await q(`SELECT xact_commit, xact_rollback, tup_returned, tup_fetched FROM pg_stat_database WHERE datname = current_database()`))[0],
    });
    for (let i = 0; i < 20; i++) await fetch(`${service.url}${target.path}`, { headers: target.headers }).then((r) => r.text());
    await q('SELECT pg_stat_force_next_flush()');
    await new Promise((r) => setTimeout(r, 1500));
    const a = await snap();
    const N = 200;
    for (let i = 0; i < N; i++) await fetch(`${service.url}${target.path}`, { headers: target.headers }).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 1500));
    const b = await snap();
    console.log('db per request', Object.fromEntries(Object.entries(b.db).map(([k, v]) => [k, ((Number(v) - Number(a.db[k])) / N).toFixed(2)])));
    for (const t of b.tables) {
      const before = a.tables.find((x) => x.relname === t.relname) ?? { seq_scan: 0, idx_scan: 0, n_tup_upd: 0, n_tup_ins: 0 };
      const d = ['seq_scan', 'idx_scan', 'n_tup_upd', 'n_tup_ins'].map((k) => `${k}=${((Number(t[k]) - Number(before[k])) / N).toFixed(2)}`);
      if (d.some((x) => !x.endsWith('=0.00'))) console.log(t.relname, d.join(' '));
    }
  } finally {
    await service.stop();
  }
}
main();
