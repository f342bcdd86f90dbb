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
  const masks: MethodMask[] = [];
  const add = (entries: readonly { readonly methods: MethodMask }[]) => {
    for (const e of entries) masks.push(e.methods);
  };
  if (eff.host) {
    add(eff.host.orders);
    add(eff.host.allows);
    add(eff.host.denys);
  }
  add(eff.requires);
  add(eff.satisfy);
  return masks;
}

/** Named methods (canonical: HEAD is GET) in first-seen order, universe first. */
export function namedMethods(eff: Effective22, universe: readonly string[]): string[] {
  const names = [...universe];
  for (const mask of masksOf(eff)) for (const m of mask.methods) names.push(m);
  // most rules name no method at all
  return names.length === 0 ? names : canonicalMethods(names);
}

/** One representative per method class to compile: the named methods and OTHER_METHODS. */
export function methodClassSamples(eff: Effective22, universe: readonly string[]): string[] {
  return [...namedMethods(eff, universe), OTHER_METHODS];
}
