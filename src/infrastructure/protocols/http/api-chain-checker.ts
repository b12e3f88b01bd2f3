import { performance } from 'node:perf_hooks';
import type { IncomingHttpHeaders } from 'node:http';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { ApiChainCheckRequest } from '../../../domain/checks/check-request';
import {
  checkResult,
  down,
  phaseTimings,
  roundMs,
  type ApiChainStepEvidence,
  type CheckResult,
  type Finding,
} from '../../../domain/checks/check-result';
import { CHAIN_LIMITS, type ChainStep } from '../../../domain/checks/api-chain/chain-definition';
import { redactorFor, substitute, type TemplateValues } from '../../../domain/checks/api-chain/chain-template';
import { evaluateAssertions, extract, type StepFailure, type StepResponse } from '../../../domain/checks/api-chain/step-outcome';
import { findingFor } from '../shared/probe-error';
import type { SharedTlsContext } from '../shared/tls-context';
import { exchange, type ExchangeResponse } from './http-exchange';

/**
 * Evidence bounds per step, so that ten steps stay well inside what a probe may report
 * (WIRE_LIMITS.maxEvidenceChars): headers, their values and the URL (which extracted values may lengthen).
 */
const MAX_EVIDENCE_HEADERS = 12;
const MAX_HEADER_CHARS = 200;
const MAX_URL_CHARS = 500;
/** Response headers never kept: they carry sessions. */
const UNKEPT_HEADERS = new Set(['set-cookie', 'authorization', 'proxy-authorization', 'cookie']);

/**
 * API check chains: each step one HTTP request on its own pinned connection (the target policy vets
 * every step's host, as for page checks), no redirects followed (a step asserts on the 3xx it gets);
 * values extracted from a response fill later steps' placeholders. The chain stops at the first
 * failing step, whose finding names it (index from 1, and name) and whose evidence keeps a bounded,
 * redacted body excerpt. The check's deadline (the monitor's timeoutSeconds) bounds the whole chain;
 * at most CHAIN_LIMITS.maxResponseBytes are read per step. Secrets never leave this class unredacted.
 */
export class ApiChainChecker implements Checker<ApiChainCheckRequest> {
  readonly kind = 'apiChain' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
    private readonly userAgent: string,
  ) {}

  async check(request: ApiChainCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    const redact = redactorFor(request.secrets);
    const values = { variables: new Map<string, string>(), secrets: request.secrets };
    const steps: ApiChainStepEvidence[] = [];
    const findings: Finding[] = [];
    for (const [index, step] of request.steps.entries()) {
      const outcome = await this.runStep(step, values, context);
      const label = `Step ${index + 1} (${step.name})`;
      const failures = outcome.failures.map((f) => down(f.code, redact(`${label}: ${f.message}`)));
      steps.push(evidenceOf(index, step, outcome, failures.length === 0, redact));
      if (failures.length > 0) {
        findings.push(...failures);
        break;
      }
    }
    const failedStep = findings.length > 0 ? steps.length - 1 : null;
    return checkResult({
      kind: 'apiChain',
      findings,
      evidence: { apiChain: { steps, failedStep } },
      checkedAt: context.now,
      timings: phaseTimings(started, null, null, null, null, performance.now()),
    });
  }

  private async runStep(
    step: ChainStep,
    values: TemplateValues & { variables: Map<string, string> },
    context: CheckContext,
  ): Promise<StepRun> {
    const started = performance.now();
    const url = substitute(step.url, values, encodeURIComponent);
    let response: ExchangeResponse;
    try {
      response = await exchange(this.policy, this.tls, {
        url: new URL(url),
        method: step.method,
        headers: Object.fromEntries(Object.entries(step.headers).map(([k, v]) => [k, substitute(v, values)])),
        body: step.body === null ? null : substitute(step.body, values),
        userAgent: this.userAgent,
        keepBodyBytes: CHAIN_LIMITS.maxResponseBytes,
        countLimit: CHAIN_LIMITS.maxResponseBytes,
        deadline: context.deadline,
        certificateAt: null,
        // Steps carry secrets and tokens: never to a peer whose certificate does not verify.
        requireVerifiedTls: true,
      });
    } catch (error) {
      const { code, message } = findingFor(error);
      return { url, response: null, body: '', totalMs: performance.now() - started, connectMs: null, failures: [{ code, message }] };
    }
    const totalMs = performance.now() - started;
    const truncated = response.bodyBytes > CHAIN_LIMITS.maxResponseBytes;
    const body = (response.body ?? Buffer.alloc(0)).subarray(0, CHAIN_LIMITS.maxResponseBytes).toString('utf8');
    const seen: StepResponse = { status: response.status, headers: flatten(response.headers), body, truncated, totalMs };
    const failures: StepFailure[] = evaluateAssertions(step.assertions, seen);
    if (failures.length === 0) {
      for (const extraction of step.extract) {
        const got = extract(extraction, seen);
        if ('failure' in got) failures.push(got.failure);
        else values.variables.set(extraction.variable, got.value);
      }
    }
    const connectAt = response.timings.connectAt;
    return {
      url,
      response: { ...response, truncated, flat: seen.headers },
      body,
      totalMs,
      connectMs: connectAt === null ? null : Math.max(0, connectAt - started),
      firstByteMs: Math.max(0, response.timings.firstByteAt - started),
      failures,
    };
  }
}

interface StepRun {
  readonly url: string;
  readonly response: (ExchangeResponse & { truncated: boolean; flat: Record<string, string> }) | null;
  readonly body: string;
  readonly totalMs: number;
  readonly connectMs: number | null;
  readonly firstByteMs?: number;
  readonly failures: StepFailure[];
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

function evidenceOf(index: number, step: ChainStep, run: StepRun, passed: boolean, redact: (text: string) => string): ApiChainStepEvidence {
  const r = run.response;
  const headers: Record<string, string> = {};
  if (r) {
    for (const [name, value] of Object.entries(r.flat)) {
      if (UNKEPT_HEADERS.has(name) || Object.keys(headers).length >= MAX_EVIDENCE_HEADERS) continue;
      headers[name] = redact(value).slice(0, MAX_HEADER_CHARS);
    }
  }
  return {
    index,
    name: step.name,
    method: step.method,
    url: redact(run.url).slice(0, MAX_URL_CHARS),
    status: r?.status ?? 0,
    headers,
    bodyBytes: r?.bodyBytes ?? 0,
    truncated: r?.truncated ?? false,
    address: r?.address ?? null,
    timings: {
      connectMs: run.connectMs === null ? null : roundMs(run.connectMs),
      firstByteMs: run.firstByteMs === undefined ? null : roundMs(run.firstByteMs),
      totalMs: roundMs(run.totalMs),
    },
    passed,
    ...(!passed && r ? { bodyExcerpt: redact(run.body).slice(0, CHAIN_LIMITS.evidenceBodyChars) } : {}),
  };
}
