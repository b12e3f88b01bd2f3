import 'reflect-metadata';
import { startBenchService } from '../support/service';
import { customerDomainsScenario } from '../scenarios/customer-domains.scenario';

async function main() {
  const service = await startBenchService('api-service-process.ts');
  try {
    const target = await customerDomainsScenario.prepare(service);
    const cpu = () => service.request<{ serverMicros: number; postgresMicros: number }>({ type: 'cpu' });
    const loop = async (label: string, n: number, fn: () => Promise<unknown>) => {
      for (let i = 0; i < 50; i++) await fn();
      const a = await cpu();
      const t = Date.now();
      for (let i = 0; i < n; i++) await fn();
      const b = await cpu();
      console.log(label, 'server µs', Math.round((b.serverMicros - a.serverMicros) / n), 'pg µs', Math.round((b.postgresMicros - a.postgresMicros) / n), 'wall ms', ((Date.now() - t) / n).toFixed(2));
    };
    const sql = process.argv[2] ?? `SELECT t.id, t.public_id, t.organization_id, t.customer_id, t.label, t.domain_name, t.status, count(*) OVER () AS total_count FROM customer_domains t WHERE t.organization_id = (SELECT max(id) FROM organizations) AND (t.domain_name || E'\\n' || t.label) ILIKE '%site-42%' ORDER BY t.domain_name, t.id LIMIT 50 OFFSET 0`;
    await loop('sql via ipc', 500, () => service.request({ type: 'sql', sql }));
    await loop('noop ipc', 500, () => service.request({ type: 'urls' }));
    await loop('http api', 500, () => fetch(`${service.url}${target.path}`, { headers: target.headers }).then((r) => r.text()));
    const explain = await service.request<{ rows: Array<Record<string, string>> }>({ type: 'sql', sql: `EXPLAIN ANALYZE ${sql}` });
    console.log(explain.rows.map((r) => r['QUERY PLAN']).join('\n'));
  } finally {
    await service.stop();
  }
}
main();
