import type { BurnState } from './objective';

/** The stretches burn rates are measured over, ending now. */
export const BURN_WINDOWS = { '5m': 5, '30m': 30, '1h': 60, '6h': 360 } as const;
export type BurnWindow = keyof typeof BURN_WINDOWS;
export type BurnRates = Readonly<Record<BurnWindow, number | null>>;

/**
 * The two multiwindow rules (the SRE workbook's): a long window proves the burn is real, a short
 * one that it is still going on. Fast: 1 h and 5 min at 14.4x (2 % of a 30-day budget in an hour);
 * slow: 6 h and 30 min at 6x (5 % in six hours).
 */
export const BURN_RULES = [
  { name: 'fast', long: '1h', short: '5m', factor: 14.4 },
  { name: 'slow', long: '6h', short: '30m', factor: 6 },
] as const satisfies readonly { name: string; long: BurnWindow; short: BurnWindow; factor: number }[];
export type BurnRuleName = (typeof BURN_RULES)[number]['name'];

/** The rules whose both windows burn at or above their factor (unknown rates never fire). */
export function firingRules(rates: BurnRates): BurnRuleName[] {
  return BURN_RULES.filter((rule) => {
    const long = rates[rule.long];
    const short = rates[rule.short];
    return long !== null && short !== null && long >= rule.factor && short >= rule.factor;
  }).map((rule) => rule.name);
}

export interface BurnDecision {
  readonly next: BurnState;
  /** What to tell: a new breach, its end, or nothing (the state did not change). */
  readonly tell: 'burning' | 'recovered' | null;
  readonly rules: BurnRuleName[];
}

/**
 * The next burn state from the current one and the rates now: `burning` is told once when a rule
 * starts firing, `recovered` once when none fires any more; staying in a state tells nothing.
 */
export function decideBurn(current: BurnState, rates: BurnRates): BurnDecision {
  const rules = firingRules(rates);
  const next: BurnState = rules.length > 0 ? 'burning' : 'ok';
  if (next === current) return { next, tell: null, rules };
  return { next, tell: next === 'burning' ? 'burning' : 'recovered', rules };
}
