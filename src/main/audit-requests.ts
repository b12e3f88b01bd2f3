import type { RequestHandler } from 'express';
import type { Caller } from '../application/identity/authenticate-caller';
import { auditContext, type AuditActorContext } from '../infrastructure/audit/audit-context';
import { holdUntilClosed } from '../interfaces/http/shared/held-by-response';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const actorOf = (caller: Caller): AuditActorContext => ({
  actorType: caller.actor.kind === 'session' ? 'user' : caller.actor.kind,
  userId: caller.actor.userId,
  actorLabel: caller.user.email,
  credentialType: caller.actor.kind,
  credentialId: caller.actor.kind === 'session' ? null : caller.actor.tokenId,
  organizationId: caller.organization.id,
});

/**
 * Opens the audit context of an API request after admission: the caller of a write (nobody for
 * reads, so reading costs nothing), its address and request id. Every change the request makes,
 * through any repository, is then recorded as that caller's in the change's own transaction.
 */
export const auditRequests: RequestHandler = (req, res, next) => {
  const caller = req.auth?.caller;
  auditContext.runUntil(
    {
      actor: caller && !READS.has(req.method) ? actorOf(caller) : null,
      ip: req.ip ?? null,
      requestId: typeof req.id === 'string' ? req.id : req.id === undefined ? null : String(req.id),
    },
    () => next(),
    (release) => holdUntilClosed(res, release),
  );
};
