import type { ConnectConfig } from 'ssh2';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { SshCheckRequest } from '../../../domain/checks/check-request';
import { down, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { connectPinned } from '../shared/pinned-connection';
import { ProbeError } from '../shared/probe-error';
import { runServiceProbe } from '../shared/service-probe';
import { lazyModule } from '../shared/lazy-module';

/** Loaded with the first check of this kind, then kept (see lazyModule). */
const ssh2 = lazyModule(() => import('ssh2'));

/**
 * SSH in protocol mode with ssh2 over our pinned socket: the server's identification banner and a
 * completed key exchange; with credentials, authentication too. Without credentials the handshake
 * is the check and the session ends before authenticating.
 */
export class Ssh2SshChecker implements Checker<SshCheckRequest> {
  readonly kind = 'ssh' as const;

  constructor(private readonly policy: TargetPolicy) {}

  check(request: SshCheckRequest, context: CheckContext): Promise<CheckResult> {
    return runServiceProbe(request, context, async (target, partial) => {
      // Loaded with the first SSH check, before anything is timed: a service without one never holds it.
      const { Client } = await ssh2();
      const connection = await connectPinned(this.policy, { host: target.host, port: target.port, deadline: context.deadline });
      partial.timings = connection.timings;
      const client = new Client();
      let banner = '';
      const creds = request.credentials;
      const config: ConnectConfig = {
        sock: connection.socket,
        username: creds?.username ?? 'monitor',
        readyTimeout: request.timeoutSeconds * 1000,
        password: creds?.password,
        privateKey: creds?.privateKey,
        passphrase: creds?.privateKey ? creds.password : undefined,
        authHandler: creds ? undefined : (_methods, _partial, next) => next(false as never),
        debug: (line: string) => {
          const ident = /^Remote ident: '(.*)'$/.exec(line);
          if (ident && !banner) banner = ident[1]!.replace(/\\r\\n$/, '');
        },
      };
      const unsubscribe = context.deadline.onPassed(() => client.destroy());
      try {
        const outcome = await new Promise<'handshake' | 'ready' | 'authFailed'>((resolve, reject) => {
          client.once('handshake', () => {
            if (!creds) resolve('handshake');
          });
          client.once('ready', () => resolve('ready'));
          client.once('error', (error: Error & { level?: string }) => {
            if (error.level === 'client-authentication') resolve('authFailed');
            else reject(error);
          });
          client.once('close', () => reject(new ProbeError('protocolError', 'The server closed the connection')));
          client.connect(config);
        });
        const findings: Finding[] = outcome === 'authFailed' ? [down('authenticationFailed', 'The server refused the credentials')] : [];
        return {
          findings,
          timings: connection.timings,
          evidence: { banner, ...(creds ? { authenticated: outcome === 'ready' } : {}) },
        };
      } finally {
        unsubscribe();
        client.end();
        connection.socket.destroy();
      }
    });
  }
}
