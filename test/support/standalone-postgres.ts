import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/infrastructure/persistence/embedded-postgres';

/**
 * TEST SUPPORT ONLY: a PostgreSQL of a fault test's own (the embedded binaries, started on their
 * own), which the test can freeze (SIGSTOP: connections open, nothing answers), thaw, crash
 * (SIGKILL of the postmaster), stop and start again on the same port and data directory.
 */
export class StandalonePostgres {
  private constructor(
    private readonly dataDir: string,
    private readonly database: string,
    private server: EmbeddedDatabase | undefined,
    readonly url: string,
    private readonly port: number,
  ) {}

  static async start(label: string): Promise<StandalonePostgres> {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `pg-${label}-`));
    const database = `fault_${label}`;
    const server = await startEmbeddedPostgres(dataDir, { database });
    const port = Number(/:(\d+)\/[^/]*$/.exec(server.url)![1]);
    return new StandalonePostgres(dataDir, database, server, server.url, port);
  }

  /**
   * The postmaster and every backend stop where they are (SIGSTOP). Backends are sessions of their
   * own (PostgreSQL calls setsid), so each is found by its parent, the postmaster, stopped first so
   * that it forks no new one meanwhile.
   */
  async freeze(): Promise<void> {
    const postmaster = this.pid();
    process.kill(postmaster, 'SIGSTOP');
    for (const pid of await childrenOf(postmaster)) process.kill(pid, 'SIGSTOP');
  }

  async thaw(): Promise<void> {
    const postmaster = this.pid();
    for (const pid of await childrenOf(postmaster)) process.kill(pid, 'SIGCONT');
    process.kill(postmaster, 'SIGCONT');
  }

  /** The postmaster dies at once (kill -9); its backends follow it. */
  async crash(): Promise<void> {
    const pid = this.pid();
    process.kill(pid, 'SIGKILL');
    this.server = undefined;
    for (let i = 0; i < 200 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  }

  /** A fast shutdown (every session ended), as an orchestrator's restart does. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await server?.stop();
  }

  /** Starts again on the same port and data directory (after `stop` or `crash`). */
  async restart(): Promise<void> {
    this.server = await startEmbeddedPostgres(this.dataDir, { database: this.database, port: this.port });
  }

  async close(): Promise<void> {
    if (this.server) await this.thaw().catch(() => undefined);
    await this.stop().catch(() => undefined);
    await fs.rm(this.dataDir, { recursive: true, force: true });
  }

  private pid(): number {
    if (!this.server) throw new Error('PostgreSQL is not running');
    return this.server.pid;
  }
}

/** The processes whose parent is `parent` (from /proc). */
async function childrenOf(parent: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid ...: the command may hold spaces and parentheses, so read after its last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === parent) children.push(Number(entry));
  }
  return children;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
