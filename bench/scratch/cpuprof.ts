import 'reflect-metadata';
import { fork } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { customerDomainsScenario } from '../scenarios/customer-domains.scenario';
import type { BenchService } from '../support/service';

async function main() {
  const child = fork(path.join(__dirname, '../support/api-service-process.ts'), [], {
    execArgv: ['--import', 'tsx', '--cpu-prof', '--cpu-prof-dir=/tmp/scratch/prof'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve) => child.on('message', (m: any) => m.type === 'ready' && resolve(m.url)));
  let next = 0;
  const request = <T>(message: Record<string, unknown>) => new Promise<T>((resolve) => {
    const id = ++next;
    const listener = (reply: any) => { if (reply.id === id) { child.off('message', listener); resolve(reply); } };
    child.on('message', listener);
    child.send({ ...message, id });
  });
  const service = { url, request, cpuMicros: async () => 0, stop: async () => {} } as BenchService;
  const target = await customerDomainsScenario.prepare(service);
  await autocannon({ url: `${url}${target.path}`, connections: 10, duration: 6, headers: target.headers });
  child.send({ type: 'stop', id: 0 });
  await new Promise((r) => child.once('exit', r));
}
main();
