import type { AddressInfo } from 'node:net';
import ssh2 from 'ssh2';

/** ssh2's server on loopback with a generated host key; password auth for user/secret. */
export class SshPeer {
  private server: ssh2.Server;

  constructor() {
    const hostKey = ssh2.utils.generateKeyPairSync('ed25519').private;
    this.server = new ssh2.Server({ hostKeys: [hostKey], ident: 'TestSSH_1.0' }, (client) => {
      client.on('authentication', (ctx) => {
        if (ctx.method === 'password' && ctx.username === 'user' && ctx.password === 'secret') ctx.accept();
        else ctx.reject(['password']);
      });
      client.on('ready', () => client.end());
      client.on('error', () => undefined);
    });
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
