import { ContextStore } from '../persistence/context-store';

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

const storage = new ContextStore<AuditRequestContext>();

/**
 * The audit context of the current request. The HTTP host opens it for each API request; the
 * persistence layer reads it whenever it takes a database connection (audit-connection.ts), so
 * every write the request makes, through any repository, carries who made it.
 */
export const auditContext = {
  /** `work` and what it starts make their changes as `context`'s, until it returns (or its promise settles). */
  run<T>(context: AuditRequestContext, work: () => T): T {
    return storage.run(context, work);
  },
  /** The same, until `ended` calls the release it is handed (a request's, when its response closes). */
  runUntil(context: AuditRequestContext, work: () => void, ended: (release: () => void) => void): void {
    storage.runUntil(context, work, ended);
  },
  current(): AuditRequestContext | undefined {
    return storage.current;
  },
  /** The value of the `monitoring.audit` setting for the current request: '' when no caller. */
  setting(): string {
    const context = storage.current;
    if (!context?.actor) return '';
    return JSON.stringify({ ...context.actor, ip: context.ip, requestId: context.requestId });
  },
};
