/**
 * Follows a `<Location>`'s URLs through a host's translation steps and judges, against one filesystem
 * scope, whether some of them land in it (`may`) and whether all of them do (`surely`).
 *
 * The URLs go through the steps in order. A step that surely handles every URL it matches (a prefix
 * Alias, Redirect, ProxyPass, the DocumentRoot) removes those URLs from what reaches later steps; a step
 * that may or may not handle them (a RewriteRule, a line under an undecided condition) leaves later steps
 * reachable but no longer surely so. Each step that sees some of the URLs leaves a record of where it sends
 * them; the answer is read from the records.
 */
import { Cover, coversEverything, hits, within } from './fs-sets';
import { Outcome, Rule, Single } from './rule';
import { Cause } from './types';
import { contains, intersect, UrlSet } from './url-sets';

export interface Step {
  /** Why it is uncertain that any URL reaches this step (earlier steps that may have taken them all). */
  readonly reach: readonly Cause[];
  /** Why it is uncertain that the step takes any of the URLs. */
  readonly takes: readonly Cause[];
  readonly outcome: Outcome;
}

export function follow(urls: UrlSet, rules: readonly Rule[]): Step[] {
  const steps: Step[] = [];
  const taken: UrlSet[] = [];
  const reach: Cause[] = [];
  const exempt: UrlSet[] = [];
  const softExempt: UrlSet[] = [];
  for (const rule of rules) {
    const x = intersect(urls, rule.match);
    if (x.kind === 'none' || taken.some((t) => contains(t, x))) continue;
    if (rule.applies && !rule.applies(x)) continue;
    let capture = rule.capture;
    if (rule.phase) {
      if (exempt.some((e) => contains(e, x))) continue;
      if ([...exempt, ...softExempt].some((e) => intersect(e, x).kind !== 'none') && capture === 'all') capture = 'none';
    }
    if (rule.phase === 'proxy-exempt') {
      (rule.takes.length === 0 && rule.matchExact ? exempt : softExempt).push(x);
      continue;
    }
    const sure = capture === 'all' && rule.takes.length === 0 && (rule.matchExact || (rule.takesAll?.(x) ?? false));
    steps.push({ reach: [...reach], takes: rule.takes, outcome: rule.outcome(x, taken.filter((t) => contains(x, t))) });
    if (sure) {
      if (x === urls || contains(x, urls)) break;
      taken.push(x);
    } else if (capture === 'maybe') reach.push(...(rule.captureWhy ?? rule.takes));
  }
  return steps;
}

export type Tri = { readonly v: 'yes' | 'no' | 'maybe'; readonly causes: readonly Cause[]; readonly approx: boolean };

const YES: Tri = { v: 'yes', causes: [], approx: false };
const NO: Tri = { v: 'no', causes: [], approx: false };

function maybe(causes: readonly Cause[], approx = false): Tri {
  return { v: 'maybe', causes, approx };
}

type FsSingle = Extract<Single, { kind: 'fs' }>;

/** How one destination stands to the scope; `fs` judges a filesystem set. */
function judge(s: Single, cover: Cover, fs: (s: FsSingle) => Tri): Tri {
  switch (s.kind) {
    case 'nothing':
      return NO;
    case 'unknown':
      return maybe(s.causes);
    case 'any-path':
      return coversEverything(cover) ? YES : maybe(s.causes);
    case 'fs':
      return fs(s);
  }
}

function singleHits(s: Single, cover: Cover): Tri {
  return judge(s, cover, (f) => {
    const r = f.point ? within(f.set, cover) : hits(f.set, f.excl, cover);
    if (!r.value) return NO;
    // a widened set: its real (non-empty) part surely hits only when the whole set lies in the scope
    if (f.widened.length > 0 && !within(f.set, cover).value) return maybe(f.widened, r.approx);
    return { v: 'yes', causes: [], approx: r.approx };
  });
}

function singleWithin(s: Single, cover: Cover): Tri {
  return judge(s, cover, (f) => {
    const r = within(f.set, cover);
    if (r.value) return YES;
    // a widened set: its real (non-empty) part surely misses when the whole set misses the scope
    if (f.widened.length > 0 && hits(f.set, [], cover).value) return maybe(f.widened, r.approx);
    return { v: 'no', causes: [], approx: r.approx };
  });
}

function combine(tris: readonly Tri[], choice: readonly Cause[]): Tri {
  const approx = tris.some((t) => t.approx);
  if (tris.every((t) => t.v === 'yes')) return { v: 'yes', causes: [], approx };
  if (tris.every((t) => t.v === 'no')) return { v: 'no', causes: [], approx };
  return { v: 'maybe', causes: [...choice, ...tris.flatMap((t) => t.causes)], approx };
}

export function stepHits(step: Step, cover: Cover): Tri {
  return combine(
    step.outcome.alternatives.map((s) => singleHits(s, cover)),
    step.outcome.choice,
  );
}

export function stepWithin(step: Step, cover: Cover): Tri {
  return combine(
    step.outcome.alternatives.map((s) => singleWithin(s, cover)),
    step.outcome.choice,
  );
}

/** A boolean answer and what it rests on: `causes` (config lines) when not certain, `approx` when it rests on widened patterns. */
export interface Answer {
  readonly value: boolean;
  readonly causes: readonly Cause[];
  readonly approx: boolean;
}

const certain = (step: Step) => step.reach.length === 0 && step.takes.length === 0;
const why = (step: Step, t: Tri) => [...step.reach, ...step.takes, ...t.causes];

export function mayAnswer(steps: readonly Step[], cover: Cover): Answer {
  const judged = steps.map((s) => ({ s, t: stepHits(s, cover) }));
  const sure = judged.find(({ s, t }) => certain(s) && t.v === 'yes' && !t.approx) ?? judged.find(({ s, t }) => certain(s) && t.v === 'yes');
  if (sure) return { value: true, causes: [], approx: sure.t.approx };
  const possible = judged.filter(({ t }) => t.v !== 'no');
  if (possible.length === 0) return { value: false, causes: [], approx: false };
  return { value: true, causes: possible.flatMap(({ s, t }) => why(s, t)), approx: possible.some(({ t }) => t.approx) };
}

export function surelyAnswer(steps: readonly Step[], cover: Cover): Answer {
  const judged = steps.map((s) => ({ s, t: stepWithin(s, cover) }));
  if (judged.every(({ t }) => t.v === 'yes')) return { value: true, causes: [], approx: false };
  const sureNot = judged.find(({ s, t }) => certain(s) && t.v === 'no' && !t.approx) ?? judged.find(({ s, t }) => certain(s) && t.v === 'no');
  if (sureNot) return { value: false, causes: [], approx: sureNot.t.approx };
  const doubtful = judged.filter(({ t }) => t.v !== 'yes');
  return { value: false, causes: doubtful.flatMap(({ s, t }) => why(s, t)), approx: doubtful.some(({ t }) => t.approx) };
}
