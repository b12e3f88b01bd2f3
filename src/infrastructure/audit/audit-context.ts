import { AsyncLocalStorage } from 'node:async_hooks';

/** Who makes the changes of the current request, as the audit trigger records them. */
export interface AuditActorContext {
  /** `user` (a signed-in session), `apiToken` (wsm_) or `agent` (wsma_). */
  readonly actorType: 'user' | 'apiToken' | 'agent';
  readonly userId: string | null;
  /** The person's e-mail, or the token's name: readable after the user or token is gone. */
  readonly actorLabel: string | null;
  readonly credentialType: 'session' | 'apiToken' | 'agent';
  /** The API token's or agent token's id; null for sessions (their ids are secrets). */
  readonly credentialId: string | null;
  readonly organizationId: number;
}

/** The request a change comes from: its caller (null before sign-in), address and request id. */
export interface AuditRequestContext {
  readonly actor: AuditActorContext | null;
  readonly ip: string | null;
  readonly requestId: string | null;
}

const storage = new AsyncLocalStorage<AuditRequestContext>();

/**
 * The audit context of the current request. The HTTP host opens it for each API request; the
 * persistence layer reads it whenever it takes a database connection (audit-connection.ts), so
 * every write the request makes, through any repository, carries who made it.
 */
export const auditContext = {
  run<T>(context: AuditRequestContext, work: () => T): T {
    return storage.run(context, work);
  },
  current(): AuditRequestContext | undefined {
    return storage.getStore();
  },
  /** The value of the `monitoring.audit` setting for the current request: '' when no caller. */
  setting(): string {
    const context = storage.getStore();
    if (!context?.actor) return '';
    return JSON.stringify({ ...context.actor, ip: context.ip, requestId: context.requestId });
  },
};
