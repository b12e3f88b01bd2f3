import type { RequestHandler } from 'express';
import type { IntakeDefinition, RouterDefinition, StreamedIntakeDefinition, AreaGate } from '../interfaces/http/shared/router-deps';
import type { JobFactory } from '../interfaces/jobs/job-definition';
import type {
  AdmissionDefinition,
  AdmittedPaths,
  ContextCloser,
  ContextModule,
  ContextWorker,
  FrontDefinition,
} from './modules/context-module';

/** What the host mounts, starts and closes, gathered from a list of contexts in its order (it names none of them). */
export interface HostParts {
  readonly routers: readonly RouterDefinition[];
  readonly intakes: readonly IntakeDefinition[];
  readonly streamedIntakes: readonly StreamedIntakeDefinition[];
  readonly fronts: readonly FrontDefinition[];
  readonly admits: readonly AdmittedPaths[];
  readonly areaGates: readonly AreaGate[];
  readonly quietPaths: readonly string[];
  readonly jobs: readonly JobFactory[];
  readonly workers: readonly ContextWorker[];
  readonly closers: readonly ContextCloser[];
  /** The one admission (authentication and access gates); a list of contexts declares exactly one. */
  readonly admission: AdmissionDefinition;
  /** Request URLs as logged: the secrets some paths carry cut out, context by context. */
  redactUrl(url: string): string;
  /** Whether a path's handler reads the body itself, so the host's parsers and audit leave it alone. */
  streamsItsBody(path: string): boolean;
}

export function hostParts(contexts: readonly ContextModule[]): HostParts {
  const all = <T>(pick: (context: ContextModule) => readonly T[] | undefined): T[] => contexts.flatMap((context) => pick(context) ?? []);
  const admissions = all((context) => (context.admission ? [context.admission] : []));
  if (admissions.length !== 1) throw new Error(`exactly one context declares the host's admission (found ${admissions.length})`);
  const redactions = all((context) => (context.redactUrl ? [context.redactUrl] : []));
  const streamedIntakes = all((context) => context.streamedIntakes);
  return {
    routers: all((context) => context.routers),
    intakes: all((context) => context.intakes),
    streamedIntakes,
    fronts: all((context) => context.front),
    admits: all((context) => context.admits),
    areaGates: all((context) => context.areaGates),
    quietPaths: all((context) => context.quietPaths),
    jobs: all((context) => context.jobs),
    workers: all((context) => context.workers),
    closers: all((context) => context.closers),
    admission: admissions[0]!,
    redactUrl: (url) => redactions.reduce((redacted, redact) => redact(redacted), url),
    streamsItsBody: (path) => streamedIntakes.some((intake) => intake.streamsItsBody(path)),
  };
}

/** Runs middleware as one call: resolves when the last passed on, rejects with what one refused (or threw). */
export function asCall(
  handlers: readonly RequestHandler[],
): (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]) => Promise<void> {
  return async (req, res) => {
    for (const handler of handlers) {
      await new Promise<void>((resolve, reject) => {
        const next = (error?: unknown) => (error && error !== 'route' && error !== 'router' ? reject(error) : resolve());
        Promise.resolve(handler(req, res, next)).catch(reject);
      });
    }
  };
}
