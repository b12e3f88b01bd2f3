import { AppError } from '../shared/app-error';
import { parseHost } from '../shared/network/host';
import { refusalDetails, targetRefusal } from '../shared/network/refusal-text';
import { parseTargetUrl } from '../shared/network/target-url';
import { ALERT_FIELDS, mergeAlertSettings, type AlertSettings } from './alert-settings';
import { assertCreateInterval, assertIntervalFitsType, assertPatchInterval, defaultCheckInterval } from './check-interval';
import { assertLocations } from './locations';
import { isWebsiteType, type MonitoringType } from './monitor-kind';
import { type MonitorInput, type MonitorPlan, type PlanContext, type PlanStep, typeOfKind } from './monitor-plan';
import type { MonitorState } from './monitor-state';
import { planEndpoint } from './plan-endpoint';
import { planWebsite } from './plan-website';
import { assertTimeout, DEFAULT_TIMEOUT_SECONDS } from './timeout';

function initialState(ctx: PlanContext, type: MonitoringType): MonitorState {
  return {
    ...ctx.alertDefaults,
    monitoringType: type,
    name: '',
    status: 'active',
    checkInterval: defaultCheckInterval(type, ctx.packageMinimumInterval),
    timeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
    locations: [...ctx.defaultLocations],
    url: null,
    hostname: null,
    port: null,
    checkMode: null,
    config: {},
    connectHost: null,
    connectPort: null,
    connectTlsInsecure: false,
  };
}

/**
 * Validates a create (current = null) or an update against the stored state and answers the state
 * to save, the hosts the target policy must vet first, and what happens to stored credentials.
 * Interval rules differ by mode (website rules 1-2); everything else is the same rule both ways.
 */
export function planMonitor(ctx: PlanContext, current: MonitorState | null, input: MonitorInput): MonitorPlan {
  const creating = current === null;
  const sentType = ctx.kind === 'website' && isWebsiteType(input.monitoringType) ? input.monitoringType : undefined;
  const type: MonitoringType = sentType ?? current?.monitoringType ?? typeOfKind(ctx.kind);
  const base = current ?? initialState(ctx, type);
  const state: MonitorState = { ...base, monitoringType: type, config: { ...base.config }, locations: [...base.locations] };
  const typeChanged = !creating && type !== current.monitoringType;

  if (input.name !== undefined) state.name = input.name as string;
  if (input.status !== undefined) state.status = input.status as MonitorState['status'];
  if (input.locations !== undefined) state.locations = assertLocations(input.locations as string[], ctx.locationCatalogue);
  if (input.checkInterval !== undefined) {
    if (creating) assertCreateInterval(input.checkInterval as number, type, ctx.packageMinimumInterval);
    else assertPatchInterval(input.checkInterval, type, ctx.packageMinimumInterval);
    state.checkInterval = input.checkInterval as number;
  } else if (typeChanged) {
    assertIntervalFitsType(state.checkInterval, type);
  }
  if (input.timeoutSeconds !== undefined) state.timeoutSeconds = assertTimeout(input.timeoutSeconds);
  Object.assign(state, mergeAlertSettings(state, pickAlerts(input)));

  const privateNames = isCheckedOnlyFrom(state.locations, ctx.privateLocations ?? []);
  const step: PlanStep = { creating, typeChanged, state, input, targets: [], privateNames };
  let needsHeartbeatToken = false;
  let credentials: MonitorPlan['credentials'] = { kind: 'keep' };
  if (ctx.kind === 'website') ({ needsHeartbeatToken, credentials } = planWebsite(step));
  else ({ credentials } = planEndpoint(ctx.kind, step));
  // Leaving private locations only: the stored hosts are the service's to judge again.
  if (!creating && !privateNames && isCheckedOnlyFrom(current.locations, ctx.privateLocations ?? [])) revetStoredHosts(step);
  if (!state.name) state.name = defaultName(state);
  return { state, targets: step.targets, credentials, needsHeartbeatToken };
}

/** The stored url and hostname, parsed as the service's own targets and vetted again (unless the plan already does). */
function revetStoredHosts({ state, targets }: PlanStep): void {
  if (state.url && !targets.some((t) => t.field === 'url')) {
    const parsed = parseTargetUrl(state.url);
    if (!parsed.ok) throw new AppError('invalidUrl', refusalDetails('url', parsed.reason), targetRefusal('url', parsed.reason));
    targets.push({ field: 'url', host: parsed.host });
  }
  if (state.hostname && !targets.some((t) => t.field === 'hostname')) {
    const parsed = parseHost(state.hostname);
    if (!parsed.ok)
      throw new AppError('invalidHostname', refusalDetails('hostname', parsed.reason), targetRefusal('hostname', parsed.reason));
    targets.push({ field: 'hostname', host: state.hostname, mayBeUnresolvable: state.monitoringType === 'dns' });
  }
}

/** Whether every one of a monitor's locations is among `privateLocations` (and it has some). */
export const isCheckedOnlyFrom = (locations: readonly string[], privateLocations: readonly string[]): boolean =>
  locations.length > 0 && locations.every((code) => privateLocations.includes(code));

const pickAlerts = (input: MonitorInput): Partial<AlertSettings> =>
  Object.fromEntries(ALERT_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, input[f]]));

function defaultName(state: MonitorState): string {
  if (state.url) return new URL(state.url).host;
  if (state.hostname) return state.hostname;
  return state.monitoringType === 'heartbeat' ? 'Heartbeat' : 'Monitor';
}
