import express, { type Request, type RequestHandler } from 'express';
import { AGENT_ENDPOINTS } from '../../../application/agent-access/ports';
import { PLATFORM_SETTINGS_REPOSITORY } from '../../../application/identity/ports';
import type { Provided } from '../../../application/shared/token';
import { AppError } from '../../../domain/shared/app-error';
import { canonicalHostGuard } from './canonical-host';

const isIntake = (req: Request) => req.method === 'POST' && req.path.replace(/\/+$/, '') === '/agent/event/notify';
const readSecurityEvent = express.text({ type: 'application/secevent+jwt', limit: '64kb' });

/** Runs before the JSON and form parsers: anything but a SET body at the intake is invalid_request. */
export const securityEventContentType: RequestHandler = (req, _res, next) => {
  next(isIntake(req) && !req.is('application/secevent+jwt') ? new AppError('invalid_request') : undefined);
};

/** The intake's body, a security event token as text; one that cannot be read is the same bare invalid_request. */
const securityEventBody: RequestHandler = (req, res, next) => {
  if (!isIntake(req)) return next();
  readSecurityEvent(req, res, (parseError?: unknown) => next(parseError ? new AppError('invalid_request') : undefined));
};

/** What the guard needs: the issuer's canonical host and the platform's agent auth switch. */
export const agentAccessGuardNeeds = { agentEndpoints: AGENT_ENDPOINTS, platformSettingsRepository: PLATFORM_SETTINGS_REPOSITORY };

/**
 * Before body parsing and authentication: the canonical host and the agent auth switch, then the
 * security event intake's content type (so a JSON body there is the same bare invalid_request) and
 * its body.
 */
export function agentAccessGuard(use: Provided<typeof agentAccessGuardNeeds>): RequestHandler[] {
  const endpoints = use.agentEndpoints;
  const settings = use.platformSettingsRepository;
  return [canonicalHostGuard(endpoints.issuer, () => settings.get()), securityEventContentType, securityEventBody];
}
