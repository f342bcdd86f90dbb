/**
 * The methods whose 2.2 rules can differ: every method named in the universe
 * or in any `<Limit>`/`<LimitExcept>` of the merged rules, plus one stand-in
 * for all methods named nowhere (they are treated identically by every mask).
 */
import { Effective22, MethodMask } from './types';
import { canonicalMethods } from './method-mask';

/** Stands for every method named nowhere; no mask lists it, so only `<LimitExcept>` masks contain it. */
export const OTHER_METHODS = '<other methods>';

export function masksOf(eff: Effective22): MethodMask[] {
  return [
    ...(eff.host?.orders.map((o) => o.methods) ?? []),
    ...(eff.host?.allows.map((a) => a.methods) ?? []),
    ...(eff.host?.denys.map((d) => d.methods) ?? []),
    ...eff.requires.map((r) => r.methods),
    ...eff.satisfy.map((s) => s.methods),
  ];
}

/** Named methods (canonical: HEAD is GET) in first-seen order, universe first. */
export function namedMethods(eff: Effective22, universe: readonly string[]): string[] {
  const names = [...universe];
  for (const mask of masksOf(eff)) for (const m of mask.methods) names.push(m);
  return canonicalMethods(names);
}

/** One representative per method class to compile: the named methods and OTHER_METHODS. */
export function methodClassSamples(eff: Effective22, universe: readonly string[]): string[] {
  return [...namedMethods(eff, universe), OTHER_METHODS];
}
