import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Session, Varbind } from 'net-snmp';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker, Deadline } from '../../../application/checks/ports';
import type { SnmpCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, down, phaseTimings, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { vetTarget } from '../shared/pinned-connection';
import { checkTimedOut, findingFor, ProbeError } from '../shared/probe-error';
import { excerpt } from '../shared/excerpt';
import { lazyModule } from '../shared/lazy-module';

/** Loaded with the first check of this kind, then kept (see lazyModule). */
const netSnmp = lazyModule(() => import('net-snmp'));

type NetSnmp = typeof import('net-snmp');

const NUMERIC_OID = /^\.?\d+(\.\d+)+$/;

/**
 * One SNMP GET with net-snmp, to the address the target policy vetted (net-snmp is handed the
 * address, so it resolves nothing; its UDP socket sends there only), no retries, the check's time
 * as its timeout and the deadline closing the session. v2c with the community; v3 with the user at
 * the level its protocols give (noAuthNoPriv, authNoPriv, authPriv). The value is the evidence's
 * banner (`oid = value`) and is judged against the expected value. A v2c agent does not answer a
 * wrong community: that is silence (`timeout`). Timings: firstByteMs is the answer.
 */
export class NetSnmpChecker implements Checker<SnmpCheckRequest> {
  readonly kind = 'snmp' as const;

  constructor(private readonly policy: TargetPolicy) {}

  async check(request: SnmpCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    const host = request.host.replace(/^\[(.*)\]$/, '$1');
    const target = { host, address: null as string | null, port: request.port };
    const marks = { dnsAt: null as number | null, answerAt: null as number | null };
    const findings: Finding[] = [];
    let banner: string | undefined;
    try {
      if (!NUMERIC_OID.test(request.oid))
        throw new ProbeError('protocolError', `The OID ${JSON.stringify(request.oid)} is not numeric and dotted`);
      const snmp = await netSnmp();
      const address = (await vetTarget(this.policy, host))[0];
      if (!net.isIP(host)) marks.dnsAt = performance.now();
      target.address = address;
      const varbind = await get(snmp, address, request, context.deadline);
      marks.answerAt = performance.now();
      const oid = request.oid.replace(/^\./, '');
      if (snmp.isVarbindError(varbind)) {
        throw new ProbeError('unexpectedStatus', `The agent has no value at ${oid} (${String(snmp.ObjectType[varbind.type])})`);
      }
      const value = textOf(snmp, varbind);
      banner = excerpt(`${oid} = ${value}`);
      const failed = request.expected && judge(value, request.expected);
      if (failed) findings.push(failed);
    } catch (error) {
      findings.push(findingFor(error));
    }
    return checkResult({
      kind: 'snmp',
      findings,
      checkedAt: context.now,
      evidence: { target, ...(banner === undefined ? {} : { banner }) },
      timings: phaseTimings(started, marks.dnsAt, null, null, marks.answerAt, performance.now()),
    });
  }
}

/** The GET's one varbind; rejects with the probe error a failure stands for, or at the deadline. */
function get(snmp: NetSnmp, address: string, request: SnmpCheckRequest, deadline: Deadline): Promise<Varbind> {
  if (deadline.passed) return Promise.reject(checkTimedOut());
  const options = {
    port: request.port,
    retries: 0,
    timeout: request.timeoutSeconds * 1000,
    transport: net.isIPv6(address) ? ('udp6' as const) : ('udp4' as const),
    idBitsSize: 32 as const,
  };
  return new Promise<Varbind>((resolve, reject) => {
    let session: Session;
    try {
      session = request.user
        ? snmp.createV3Session(address, userOf(snmp, request.user), { ...options, version: snmp.Version3 })
        : snmp.createSession(address, request.community, { ...options, version: snmp.Version2c });
    } catch (error) {
      reject(new ProbeError('protocolError', `SNMP session refused: ${(error as Error).message}`));
      return;
    }
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      unsubscribe();
      session.close();
      settle();
    };
    const unsubscribe = deadline.onPassed(() => finish(() => reject(noAnswer(request))));
    session.on('error', (error) => finish(() => reject(error)));
    try {
      session.get([request.oid.replace(/^\./, '')], (error, varbinds) =>
        finish(() => (error ? reject(failure(snmp, error, request)) : resolve(varbinds![0]!))),
      );
    } catch (error) {
      finish(() => reject(new ProbeError('protocolError', `The GET could not be sent: ${(error as Error).message}`)));
    }
  });
}

function userOf(snmp: NetSnmp, user: NonNullable<SnmpCheckRequest['user']>) {
  const { noAuthNoPriv, authNoPriv, authPriv } = snmp.SecurityLevel;
  if (user.authProtocol === 'none') return { name: user.name, level: noAuthNoPriv! };
  const auth = { name: user.name, authProtocol: snmp.AuthProtocols[user.authProtocol], authKey: user.authKey };
  if (user.privProtocol === 'none') return { ...auth, level: authNoPriv! };
  return { ...auth, level: authPriv!, privProtocol: snmp.PrivProtocols[user.privProtocol], privKey: user.privKey };
}

const noAnswer = (request: SnmpCheckRequest) =>
  new ProbeError(
    'timeout',
    `No answer within ${request.timeoutSeconds} s${request.version === 'v2c' ? ' (an agent does not answer a wrong community)' : ''}`,
  );

/** net-snmp's failure as the probe error it stands for (never its text of digests computed with the key). */
function failure(snmp: NetSnmp, error: Error & { code?: number }, request: SnmpCheckRequest): ProbeError {
  const codes = snmp.ResponseInvalidCode;
  if (error.name === 'RequestTimedOutError') return noAnswer(request);
  if (error.code === codes.EAuthFailure)
    return new ProbeError(
      'authenticationFailed',
      error.message.startsWith('Authentication digest')
        ? 'The answer does not authenticate with the auth key'
        : `The agent refused the login: ${error.message}`,
    );
  if (error.code === codes.ECouldNotDecrypt)
    return new ProbeError('authenticationFailed', 'The answer cannot be decrypted with the privacy key');
  if (error.name === 'RequestFailedError') return new ProbeError('protocolError', `The agent answered an error: ${error.message}`);
  return new ProbeError('protocolError', `SNMP: ${error.message}`);
}

/** A varbind's value as text: strings as UTF-8, 64-bit counters as decimal, numbers as they are. */
function textOf(snmp: NetSnmp, varbind: Varbind): string {
  const { value } = varbind;
  if (varbind.type === snmp.ObjectType.Counter64 && Buffer.isBuffer(value))
    return value.length === 0 ? '0' : BigInt(`0x${value.toString('hex')}`).toString();
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return String(value);
}

/** The value against the expected one: a down finding when it fails, null when it holds. */
function judge(value: string, expected: NonNullable<SnmpCheckRequest['expected']>): Finding | null {
  const { comparison } = expected;
  if (comparison === 'equals')
    return value === expected.value
      ? null
      : down('assertionFailed', `The value is ${JSON.stringify(value)}, not ${JSON.stringify(expected.value)}`);
  if (comparison === 'contains')
    return value.includes(expected.value) ? null : down('assertionFailed', `The value does not contain ${JSON.stringify(expected.value)}`);
  const [actual, bound] = [Number(value.trim()), Number(expected.value.trim())];
  if (value.trim() === '' || !Number.isFinite(actual)) return down('assertionFailed', `The value ${JSON.stringify(value)} is not a number`);
  if (expected.value.trim() === '' || !Number.isFinite(bound))
    return down('assertionFailed', `The expected value ${JSON.stringify(expected.value)} is not a number`);
  const holds = comparison === 'below' ? actual < bound : actual > bound;
  return holds ? null : down('assertionFailed', `The value ${actual} is not ${comparison} ${bound}`);
}
