import { expect } from 'chai';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../../src/infrastructure/persistence/embedded-postgres';
import { postgresBinaries } from '../../../src/infrastructure/persistence/postgres-server';

const serverAddress = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [row] = (await client.query<{ address: string | null }>('SELECT inet_server_addr()::text AS address')).rows;
    return row!.address;
  } finally {
    await client.end();
  }
};

/** Whether a process runs (a zombie has exited: only its reaping is pending). */
const isRunning = async (pid: number) => {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!);
};

const waitFor = async (what: string, condition: () => Promise<boolean>, withinMs = 20_000) => {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) expect.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const asServerUser = () =>
  os.userInfo().uid === 0
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
      }
    : {};

describe('embedded PostgreSQL', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const dataDir = async (prefix: string) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  after(() => Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true }))));

  it('answers a URL naming its Unix socket under DATA_DIR, which a client reaches with the password', async () => {
    const dir = await dataDir('monitoring-embedded-');
    // Given relative (as DATA_DIR may be), the socket's path in the URL is still absolute.
    const server = await startEmbeddedPostgres(path.relative(process.cwd(), dir), { database: 'socket_test', persistent: false });
    try {
      const url = new URL(server.url);
      expect(decodeURIComponent(url.hostname)).to.equal(path.join(dir, 'socket'));
      // A Unix-socket session has no server address; a TCP one would answer 127.0.0.1.
      expect(await serverAddress(server.url)).to.equal(null);
      url.password = 'wrong';
      await serverAddress(url.toString()).then(
        () => expect.fail('a wrong password connected'),
        (error: { code?: string }) => expect(error.code).to.equal('28P01'),
      );
    } finally {
      await server.stop();
    }
  });

  it('falls back to loopback TCP when the socket path would be longer than the kernel allows', async () => {
    const dir = await dataDir(`monitoring-embedded-${'a-long-name-'.repeat(8)}`);
    const server = await startEmbeddedPostgres(dir, { database: 'tcp_test', persistent: false });
    try {
      expect(new URL(server.url).hostname).to.equal('127.0.0.1');
      expect(await serverAddress(server.url)).to.equal('127.0.0.1/32');
    } finally {
      await server.stop();
    }
  });

  it("at the small scale runs with the small settings (autovacuum every 5 minutes, 32 MB of shared buffers, a checkpoint every 30 minutes written at once); otherwise PostgreSQL's own", async () => {
    const settings = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ naptime: string; buffers: string; checkpoints: string; spread: string }>(
          `SELECT current_setting('autovacuum_naptime') AS naptime, current_setting('shared_buffers') AS buffers,
             current_setting('checkpoint_timeout') AS checkpoints, current_setting('checkpoint_completion_target') AS spread`,
        );
        return [rows[0]!.naptime, rows[0]!.buffers, rows[0]!.checkpoints, rows[0]!.spread];
      } finally {
        await client.end();
      }
    };
    const small = await startEmbeddedPostgres(await dataDir('monitoring-embedded-small-'), { persistent: false, small: true });
    try {
      expect(await settings(small.url)).to.deep.equal(['5min', '32MB', '30min', '0']);
    } finally {
      await small.stop();
    }
    const large = await startEmbeddedPostgres(await dataDir('monitoring-embedded-large-'), { persistent: false });
    try {
      expect(await settings(large.url)).to.deep.equal(['1min', '128MB', '5min', '0.9']);
    } finally {
      await large.stop();
    }
  });

  it("under root, gives PostgreSQL its own folders (0700) and keeps DATA_DIR and the credentials root's; nothing is world-writable", async function () {
    if (os.userInfo().uid !== 0) this.skip();
    const dir = await dataDir('monitoring-embedded-');
    await fs.chmod(dir, 0o777); // as earlier versions left it
    const server = await startEmbeddedPostgres(dir, { database: 'owner_test', persistent: false });
    try {
      const postgres = asServerUser() as { uid: number; gid: number };
      const owner = async (file: string) => {
        const stat = await fs.stat(path.join(dir, file));
        return { uid: stat.uid, gid: stat.gid, mode: stat.mode & 0o7777 };
      };
      expect(await owner('.'), 'DATA_DIR: the postgres group may only pass through').to.deep.equal({
        uid: 0,
        gid: postgres.gid,
        mode: 0o710,
      });
      expect(await owner('postgres'), 'the cluster').to.deep.equal({ uid: postgres.uid, gid: postgres.gid, mode: 0o700 });
      expect(await owner('socket'), 'the socket folder').to.deep.equal({ uid: postgres.uid, gid: postgres.gid, mode: 0o700 });
      expect(await owner('postgres-credentials.json'), 'read by the service only').to.deep.equal({ uid: 0, gid: 0, mode: 0o600 });
      for (const file of ['.', ...(await fs.readdir(dir))]) {
        expect((await owner(file)).mode & 0o002, `${file} is world-writable`).to.equal(0);
      }
    } finally {
      await server.stop();
    }
  });

  describe('after a crash', () => {
    /** A cluster that ran once, and the lock file it had while running; each test leaves it stopped. */
    let dir: string;
    let lockFile: string;
    before(async () => {
      dir = await dataDir('monitoring-embedded-');
      const first = await startEmbeddedPostgres(dir, { database: 'crash_test' });
      lockFile = await fs.readFile(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8');
      await first.stop();
    });
    const answers = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one === 1;
      } finally {
        await client.end();
      }
    };

    it('starts over a postmaster.pid naming a dead process, or a live one that is not PostgreSQL (pids are reused after a reboot)', async () => {
      const leaveLockFile = (pid: number) =>
        fs.writeFile(path.join(dir, 'postgres', 'postmaster.pid'), lockFile.replace(/^\d+/, String(pid)));

      await leaveLockFile(spawnSync('true').pid!);
      const afterDeadPid = await startEmbeddedPostgres(dir, { database: 'crash_test' });
      expect(await answers(afterDeadPid.url)).to.equal(true);
      await afterDeadPid.stop();

      // Run by PostgreSQL's own user: PostgreSQL itself takes a pid it may not signal for stale, not this one.
      const unrelated = spawn('sleep', ['60'], { stdio: 'ignore', ...asServerUser() });
      try {
        await leaveLockFile(unrelated.pid!);
        const afterReusedPid = await startEmbeddedPostgres(dir, { database: 'crash_test' });
        expect(await answers(afterReusedPid.url)).to.equal(true);
        await afterReusedPid.stop();
        expect(await isRunning(unrelated.pid!), 'the unrelated process is left alone').to.equal(true);
      } finally {
        unrelated.kill();
      }
    });

    it('stops a PostgreSQL its killed service left running on DATA_DIR, then starts its own', async () => {
      // An orphan: started through a shell that exits at once, so init (or a subreaper) adopts it.
      const cluster = path.join(dir, 'postgres');
      const port = await freePort();
      spawnSync(
        'sh',
        [
          '-c',
          '"$0" -D "$1" -p "$2" -c listen_addresses=127.0.0.1 -c unix_socket_directories= >/dev/null 2>&1 &',
          postgresBinaries().postgres,
          cluster,
          String(port),
        ],
        {
          ...asServerUser(),
          stdio: 'ignore',
        },
      );
      const lockFile = path.join(cluster, 'postmaster.pid');
      await waitFor('the orphan is ready', async () => (await fs.readFile(lockFile, 'utf8').catch(() => '')).includes('ready'));
      const orphan = Number((await fs.readFile(lockFile, 'utf8')).split('\n')[0]);
      expect(await isRunning(orphan)).to.equal(true);

      const server = await startEmbeddedPostgres(dir, { database: 'crash_test' });
      try {
        expect(await isRunning(orphan), 'the orphan is stopped').to.equal(false);
        expect(server.pid).not.to.equal(orphan);
        expect(await answers(server.url)).to.equal(true);
      } finally {
        await server.stop();
      }
    });

    it('leaves a PostgreSQL alone whose service still runs, and says that DATA_DIR is in use', async () => {
      const running = await startEmbeddedPostgres(dir, { database: 'crash_test' });
      try {
        await startEmbeddedPostgres(dir, { database: 'crash_test' }).then(
          () => expect.fail('a second server started on the same DATA_DIR'),
          (error: Error) =>
            expect(error.message).to.match(/^DATA_DIR is in use: its PostgreSQL \(pid \d+\) belongs to the running process \d+/),
        );
        expect(await answers(running.url), 'the running one still answers').to.equal(true);
      } finally {
        await running.stop();
      }
    });
  });
});
