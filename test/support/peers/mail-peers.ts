import net from 'node:net';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { Pem } from './certificates';

/**
 * Small IMAP and POP3 servers for tests (fixtures, not products): greeting, STARTTLS/STLS with the
 * given certificate, CAPABILITY, LOGIN or USER/PASS for user/secret, LOGOUT/QUIT. `failing` makes
 * them greet with an error.
 */
export class MailPeer {
  failing = false;
  private server: net.Server;

  constructor(
    readonly protocol: 'imap' | 'pop3',
    private readonly cert: Pem,
  ) {
    this.server = net.createServer((socket) => this.serve(socket));
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

  private serve(plain: net.Socket): void {
    let socket: net.Socket = plain;
    let buffer = '';
    let user = '';
    const send = (line: string) => socket.write(`${line}\r\n`);
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      let end: number;
      while ((end = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, end).replace(/\r$/, '');
        buffer = buffer.slice(end + 1);
        if (this.protocol === 'imap') this.imap(line, send, upgrade);
        else user = this.pop3(line, send, upgrade, user);
      }
    };
    const upgrade = () => {
      plain.removeListener('data', onData);
      socket = new tls.TLSSocket(plain, { isServer: true, key: this.cert.key, cert: this.cert.cert });
      socket.on('data', onData);
      socket.on('error', () => undefined);
    };
    plain.on('data', onData);
    plain.on('error', () => undefined);
    if (this.failing) {
      send(this.protocol === 'imap' ? '* BYE Service unavailable' : '-ERR Service unavailable');
      socket.end();
    } else send(this.protocol === 'imap' ? '* OK [CAPABILITY IMAP4rev1 STARTTLS] Test IMAP ready' : '+OK Test POP3 ready');
  }

  private imap(line: string, send: (l: string) => void, upgrade: () => void): void {
    const [tag, command = '', ...args] = line.split(' ');
    switch (command.toUpperCase()) {
      case 'CAPABILITY':
        send('* CAPABILITY IMAP4rev1 STARTTLS');
        return send(`${tag} OK CAPABILITY done`);
      case 'STARTTLS':
        send(`${tag} OK Begin TLS`);
        return upgrade();
      case 'LOGIN': {
        const ok = args[0]?.replace(/"/g, '') === 'user' && args[1]?.replace(/"/g, '') === 'secret';
        return send(ok ? `${tag} OK LOGIN done` : `${tag} NO [AUTHENTICATIONFAILED] Invalid credentials`);
      }
      case 'NAMESPACE':
        send('* NAMESPACE (("" "/")) NIL NIL');
        return send(`${tag} OK NAMESPACE done`);
      case 'LOGOUT':
        send('* BYE bye');
        return send(`${tag} OK LOGOUT done`);
      default:
        return send(`${tag} BAD Unknown command`);
    }
  }

  private pop3(line: string, send: (l: string) => void, upgrade: () => void, user: string): string {
    const [command = '', arg = ''] = line.split(' ');
    switch (command.toUpperCase()) {
      case 'STLS':
        send('+OK Begin TLS');
        upgrade();
        return user;
      case 'USER':
        send('+OK');
        return arg;
      case 'PASS':
        send(user === 'user' && arg === 'secret' ? '+OK Logged in' : '-ERR Invalid credentials');
        return user;
      case 'QUIT':
        send('+OK Bye');
        return user;
      default:
        send('-ERR Unknown command');
        return user;
    }
  }
}
