import 'reflect-metadata';
import autocannon from 'autocannon';
import { startBenchService } from '../support/service';
import { customerDomainsScenario } from '../scenarios/customer-domains.scenario';

async function main() {
  const service = await startBenchService('api-service-process.ts');
  try {
    const target = await customerDomainsScenario.prepare(service);
    const { bareUrl } = await service.request<{ bareUrl: string }>({ type: 'urls' });
    const page = await fetch(`${service.url}${target.path}`, { headers: target.headers }).then((r) => r.json());
    await service.request({ type: 'bare', body: page });
    const cpu = () => service.request<{ serverMicros: number; postgresMicros: number }>({ type: 'cpu' });
    const run = async (label: string, url: string, headers: Record<string, string> = {}) => {
      await autocannon({ url, connections: 50, duration: 2, headers });
      const a = await cpu();
      const r = await autocannon({ url, connections: 50, duration: 5, headers });
      const b = await cpu();
      console.log(label.padEnd(40), 'server', Math.round((b.serverMicros - a.serverMicros) / r.requests.total), 'pg', Math.round((b.postgresMicros - a.postgresMicros) / r.requests.total), 'rps', Math.round(r.requests.average), 'non2xx', r.non2xx);
    };
    await run('bare', `${bareUrl}/bare`);
    await run('unknown route 404 (no auth)', `${service.url}/api/nothing`);
    await run('get-session (auth only)', `${service.url}/api/auth/get-session`, target.headers);
    await run('package-configs (ORM list)', `${service.url}/api/package-configs`, target.headers);
    await run('domains no search', `${service.url}/api/customer-domains?perPage=50`, target.headers);
    await run('domains search', `${service.url}${target.path}`, target.headers);
  } finally {
    await service.stop();
  }
}
main();
