import { AppError } from '../shared/app-error';
import { refusalDetails } from '../shared/network/refusal-text';
import type { ChainStep } from '../checks/api-chain/chain-definition';
import { validateChain, type ChainIssue } from '../checks/api-chain/validate-chain';
import { WEBSITE_CONFIG_DEFAULTS, type WebsiteConfig } from './monitor-config';
import type { CredentialsChange, PlanStep } from './monitor-plan';
import { validationIssue } from './validation-issue';

/** A step as sent (shape-checked by the edge): omitted parts take their defaults. */
function normalizeStep(sent: Partial<ChainStep>): ChainStep {
  return {
    name: sent.name ?? '',
    method: sent.method ?? 'GET',
    url: sent.url ?? '',
    headers: sent.headers ?? {},
    body: sent.body ?? null,
    extract: sent.extract ?? [],
    assertions: sent.assertions ?? [],
  };
}

/** Every issue of a chain as one error: a step URL the service refuses is invalidUrl naming it, the rest validationFailed (paths as text, as the edge's). */
function chainError(issues: readonly ChainIssue[]): AppError {
  const url = issues.find((i) => i.code === 'invalidUrl');
  if (url) {
    const field = `steps[${url.path[1] as number}].url`;
    return new AppError('invalidUrl', refusalDetails(field, url.reason ?? 'malformed'), url.message);
  }
  return new AppError('validationFailed', {
    issues: issues.map((i) => ({ path: i.path.map(String), message: i.message, code: 'custom' })),
  });
}

const originOf = (url: string): string => `${/^https?:\/\/[^/?#]*/i.exec(url)![0].toLowerCase()}/`;

/**
 * API chain websites: `steps` (required) validated as a whole on every write that sends steps or
 * secrets (validateChain); `secrets` replaces the stored set (null clears it), kept encrypted with
 * only their names in the configuration; every step's host vetted by the target policy when steps
 * or locations are sent or the type becomes api_chain (the refusal names `steps[i].url`). The website's url is
 * the first step's origin, for lists and the default name.
 */
export function planApiChain(step: PlanStep): CredentialsChange {
  const { state, input, creating, typeChanged, targets } = step;
  const config: Partial<WebsiteConfig> = { ...WEBSITE_CONFIG_DEFAULTS, ...state.config };
  let credentials: CredentialsChange = { kind: 'keep' };
  if (input.secrets === null) {
    credentials = { kind: 'clear' };
    config.secretNames = [];
  } else if (input.secrets !== undefined) {
    const secrets = input.secrets as Record<string, string>;
    credentials = { kind: 'set', value: { secrets } };
    config.secretNames = Object.keys(secrets).sort();
  }
  if (input.steps !== undefined) config.steps = (input.steps as Partial<ChainStep>[] | null)?.map(normalizeStep) ?? null;
  if (!config.steps) throw validationIssue('steps', 'Required for api_chain monitors', 'invalid_type');
  const { issues, targets: hosts } = validateChain(config.steps, config.secretNames ?? [], { reservedNames: step.privateNames });
  if (issues.length > 0) throw chainError(issues);
  // Locations decide whose policy vets (a chain checked only from private locations may name private hosts): vet again when they change.
  if (creating || typeChanged || input.steps !== undefined || input.locations !== undefined) {
    for (const target of hosts) targets.push({ field: 'url', label: `steps[${target.index}].url`, host: target.host });
  }
  state.url = originOf(config.steps[0]!.url);
  state.config = config;
  return credentials;
}

/** Leaving api_chain: the chain and its secrets go. */
export function dropApiChain(step: PlanStep): CredentialsChange {
  const had = (step.state.config.secretNames ?? []).length > 0;
  step.state.config = { ...step.state.config, steps: null, secretNames: [] };
  return had ? { kind: 'clear' } : { kind: 'keep' };
}
