import { performance } from 'node:perf_hooks';
import type { BrowserCheckRequest } from '../../../domain/checks/check-request';
import { describeStep, type ScenarioStep } from '../../../domain/checks/browser-scenario';
import { down, type BrowserEvidence, type CheckReasonCode, type Finding } from '../../../domain/checks/check-result';
import type { BrowserSession } from './chromium-browser';
import { gotoUrl, navigate, performStep, StepFailure } from './scenario-steps';
import type { VettingProxy } from './vetting-proxy';

export interface ScenarioLimits {
  /** performance.now() by which every step must be done. */
  readonly deadline: number;
  /** Most a step waits for an element or an expectation. */
  readonly stepWaitMs: number;
}

export interface ScenarioOutcome {
  readonly steps: BrowserEvidence['steps'][number][];
  /** The first failed step as a down finding, its message naming the step; null when all passed. */
  readonly failure: Finding | null;
}

/** Opens the website's url, then runs the steps in order until one fails or time runs out. */
export async function runScenario(session: BrowserSession, request: BrowserCheckRequest, limits: ScenarioLimits): Promise<ScenarioOutcome> {
  const steps: BrowserEvidence['steps'][number][] = [];
  const plan: Array<ScenarioStep | null> = [null, ...request.steps];
  for (const step of plan) {
    const label = step ? describeStep(step) : `open ${request.url}`;
    const started = performance.now();
    const remaining = limits.deadline - started;
    const where = step ? `Line ${step.line} (${label})` : `Opening ${request.url}`;
    const loads = step === null ? request.url : step.kind === 'goto' ? gotoUrl(session.page, step.target, request.url) : null;
    try {
      if (remaining <= 0) throw new StepFailure('timeout', 'the scenario ran out of time before this step');
      if (step)
        await performStep(session.page, step, { waitMs: Math.min(limits.stepWaitMs, remaining), navigationMs: remaining }, request.url);
      else await navigate(session.page, request.url, remaining);
      steps.push({ line: step?.line ?? null, step: label, durationMs: performance.now() - started, passed: true });
    } catch (error) {
      steps.push({ line: step?.line ?? null, step: label, durationMs: performance.now() - started, passed: false });
      const spent = limits.deadline - performance.now() <= 50;
      const { code, message } = explain(error, loads, session.proxy, spent, Math.min(limits.stepWaitMs, remaining));
      return { steps, failure: down(code, `${where}: ${message}`) };
    }
  }
  return { steps, failure: null };
}

/** Why a step failed, preferring what the proxy saw (a refused or unreachable target) for page loads. */
function explain(
  error: unknown,
  loads: string | null,
  proxy: VettingProxy,
  spent: boolean,
  waitMs: number,
): { code: CheckReasonCode; message: string } {
  const err = error as Error;
  const netError = /net::(ERR_[A-Z_]+)/.exec(err?.message ?? '')?.[1];
  if (loads) {
    const target = error instanceof StepFailure && error.url ? error.url : loads;
    const seen = proxy.failureFor(target) ?? (netError ? proxy.failures().at(-1) : undefined);
    if (seen) return { code: seen.code, message: seen.message };
  }
  if (error instanceof StepFailure) return { code: error.code, message: error.message };
  if (err?.name === 'TimeoutError' || spent) {
    if (spent) return { code: 'timeout', message: 'the scenario ran out of time' };
    if (loads) return { code: 'timeout', message: 'the page did not load in time' };
    return { code: 'stepFailed', message: `no visible element matched within ${Math.round(waitMs)} ms` };
  }
  if (netError) return { code: 'connectionFailed', message: netError };
  return { code: 'stepFailed', message: firstLine(err?.message ?? String(error)) };
}

/** Playwright's first line, without its "locator.click: " prefix and call log. */
const firstLine = (message: string) =>
  message
    .split('\n')[0]!
    .replace(/^[\w.]+: /, '')
    .slice(0, 300);
