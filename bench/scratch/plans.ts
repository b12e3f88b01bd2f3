import 'reflect-metadata';
import { startBenchService } from '../support/service';
import { customerDomainsScenario } from '../scenarios/customer-domains.scenario';

async function main() {
  const service = await startBenchService('api-service-process.ts');
  try {
    await customerDomainsScenario.prepare(service);
    const q = async (sql: string) => (await service.request<{ rows: Array<Record<string, string>> }>({ type: 'sql', sql })).rows;
    const org = (await q('SELECT max(id) AS id FROM organizations'))[0]!.id;
    await q(`ALTER TABLE customer_domains ADD COLUMN search_text text GENERATED ALWAYS AS (lower(domain_name || E'\\n' || label)) STORED`);
    await q(`CREATE INDEX cd_st ON customer_domains USING gin (search_text gin_trgm_ops)`);
    await q(`CREATE INDEX cd_st_gist ON customer_domains USING gist (search_text gist_trgm_ops)`);
    await q('ANALYZE customer_domains');
    const variants: Record<string, string> = {
      concat: `(t.domain_name || E'\\n' || t.label) ILIKE '%site-42%'`,
      stored: `t.search_text LIKE '%site-42%'`,
    };
    for (const setting of ['', 'SET enable_seqscan = off', 'SET random_page_cost = 1.1']) {
      await q('RESET ALL');
      if (setting) await q(setting);
      for (const [name, where] of Object.entries(variants)) {
        const sql = `SELECT t.id, t.domain_name, count(*) OVER () FROM customer_domains t WHERE t.organization_id = ${org} AND ${where} ORDER BY t.domain_name, t.id LIMIT 50`;
        const rows = await q(`EXPLAIN ANALYZE ${sql}`);
        const plan = rows.map((r) => r['QUERY PLAN']!).filter((l) => /Scan on|Execution/.test(l)).map((l) => l.trim().slice(0, 90));
        // time 200 runs
        const t = Date.now();
        for (let i = 0; i < 200; i++) await q(sql);
        console.log(setting || 'default', name, ((Date.now() - t) / 200).toFixed(2), 'ms/query\n   ', plan.join('\n    '));
      }
    }
  } finally {
    await service.stop();
  }
}
main();
