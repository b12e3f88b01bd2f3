import { refusalDetails, targetRefusal } from '../shared/network/refusal-text';
import { AppError } from '../shared/app-error';
import { applyCheckConfig, DEFAULT_CHECK_CONFIG, pickCheckConfig, type CheckConfig } from './check-config';
import { applyConnectSettings, connectHostName } from './connect-settings';
import { connectFieldsTakeEffect } from './monitor-kind';
import { WEBSITE_CONFIG_DEFAULTS, type WebsiteConfig } from './monitor-config';
import type { CredentialsChange, PlanStep } from './monitor-plan';
import { dropApiChain, planApiChain } from './plan-api-chain';
import { parseTargetUrl } from '../shared/network/target-url';
import { validationIssue } from './validation-issue';
import { parseScenario } from '../checks/browser-scenario';

const HTTP_FIELDS = [
  'method',
  'headers',
  'body',
  'expectedStatusCodes',
  'keyword',
  'keywordMode',
  'keywordCaseSensitive',
  'responseTimeThreshold',
  'followRedirects',
  'script',
] as const satisfies ReadonlyArray<keyof WebsiteConfig>;

const checkConfigOf = (config: Partial<CheckConfig>): CheckConfig =>
  Object.fromEntries(
    Object.keys(DEFAULT_CHECK_CONFIG).map((k) => [k, config[k as keyof CheckConfig] ?? DEFAULT_CHECK_CONFIG[k as keyof CheckConfig]]),
  ) as unknown as CheckConfig;

/**
 * Website rules: url must be a public http(s) URL (invalidUrl) for page checks and scripted
 * scenarios (heartbeats have none: a sent url is ignored); check fields as in applyCheckConfig;
 * connect fields as in applyConnectSettings, vetted only where they take effect.
 */
export function planWebsite(step: PlanStep): { needsHeartbeatToken: boolean; credentials: CredentialsChange } {
  const { state, input, creating, typeChanged, targets } = step;
  const type = state.monitoringType;
  if (type === 'api_chain') return { needsHeartbeatToken: false, credentials: planApiChain(step) };
  const credentials = typeChanged ? dropApiChain(step) : ({ kind: 'keep' } as const);
  if (type !== 'heartbeat' && input.url !== undefined) {
    const parsed = parseTargetUrl(input.url, { reservedNames: step.privateNames });
    if (!parsed.ok) throw new AppError('invalidUrl', refusalDetails('url', parsed.reason), targetRefusal('url', parsed.reason));
    state.url = parsed.href;
    targets.push({ field: 'url', host: parsed.host });
  }
  if (type !== 'heartbeat' && !state.url) {
    if (creating) throw validationIssue('url', `Required for ${type} monitors`, 'invalid_type');
    throw new AppError('invalidUrl', { field: 'url', reason: 'required' });
  }
  const config: Partial<WebsiteConfig> = { ...WEBSITE_CONFIG_DEFAULTS, ...state.config };
  Object.assign(config, applyCheckConfig(checkConfigOf(config), pickCheckConfig(input)));
  for (const field of HTTP_FIELDS) if (input[field] !== undefined) (config as Record<string, unknown>)[field] = input[field];
  if (type === 'scripted_browser' && !config.script)
    throw validationIssue('script', 'Required for scripted_browser monitors', 'invalid_type');
  if (type === 'scripted_browser' || typeof input.script === 'string') validateScript(config.script!);
  state.config = config;

  const effective = connectFieldsTakeEffect(type);
  Object.assign(state, applyConnectSettings(state, input, effective));
  if (effective && state.connectHost && (creating || typeChanged || input.connectHost !== undefined)) {
    targets.push({ field: 'connectHost', host: connectHostName(state.connectHost) });
  }
  if (type === 'heartbeat') state.locations = [];
  return { needsHeartbeatToken: type === 'heartbeat', credentials };
}

/** A scenario must parse (browser-scenario.ts): validationFailed on `script`, naming the line. */
function validateScript(script: string): void {
  const parsed = parseScenario(script);
  if (!parsed.ok) throw validationIssue('script', `Line ${parsed.line}: ${parsed.message}`);
}
