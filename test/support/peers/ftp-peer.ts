import os from 'node:os';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import FtpSrv from 'ftp-srv';

/** ftp-srv on loopback: login user/secret (rooted in the temp dir), anything else refused. */
export class FtpPeer {
  port = 0;
  private server: InstanceType<typeof FtpSrv> | undefined;

  async start(): Promise<this> {
    this.port = await freePort();
    this.server = new FtpSrv({
      url: `ftp://127.0.0.1:${this.port}`,
      pasv_url: '127.0.0.1',
      greeting: ['Test FTP ready'],
      anonymous: false,
      log: silentLogger() as never,
    });
    this.server.on('login', ({ username, password }, resolve, reject) => {
      if (username === 'user' && password === 'secret') resolve({ root: os.tmpdir() });
      else reject(new Error('Invalid credentials'));
    });
    await this.server.listen();
    return this;
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function silentLogger(): Record<string, unknown> {
  const logger: Record<string, unknown> = {};
  for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) logger[level] = () => undefined;
  logger.child = () => logger;
  return logger;
}
