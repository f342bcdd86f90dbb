/**
 * Seeded random access configurations for checking the static evaluators
 * (eval22 / eval24) against a real httpd: 2.2 scope chains built with the
 * access-model builders, rendered as 2.2 text (served on 2.4 +
 * mod_access_compat by the differential harness) and as the compiled 2.4
 * Require text, plus the abstract Request each harness request stands for.
 *
 * Generation stays inside what the baseline server can stand in for 2.2:
 * measured places where 2.4 + mod_access_compat differs from 2.2
 * (docs/research/access-measurements.md, marked ✗) are not generated:
 *  - D1/D2: a Satisfy is reset by a later section with Order/Allow/Deny, and a
 *    section with only Satisfy wipes the inherited host rules → Satisfy only in
 *    a section with host rules, and no later section with host rules;
 *  - A9/A10/A11: Satisfy Any with no Require for some method → Satisfy Any only
 *    where a Require for every method is in effect (Require lines cover all methods);
 *  - AuthType without Require (500 on 2.4) → AuthType only beside Require;
 *  - `Require user` + `Require group` in one section (2.2's authoritative
 *    mod_authz_user decided alone) → one Require line per section;
 *  - host names (double-reverse DNS) and `env=!VAR` (2.4-only meaning).
 */
import fc from 'fast-check';
import { ALL_METHODS, AuthRequire, Effective22, HostRecord, MethodMask, Order, Request, RequireNode, ScopeRules22 } from '../../src/semantics/access/types';
import { merge22 } from '../../src/semantics/access/merge22';
import { compileEffective } from '../../src/semantics/access/compile';
import { emitRequire } from '../../src/semantics/access/emit';
import { AUTH, AccessCase, CREDENTIALS, CredentialName, RequestSpec } from './access-differential';
import { hostEntry, limit, limitExcept } from './access-model';

const HOST_WORDS = ['all', '127.0.0.1', '127.0.0.5', '127.0.1', '127.0.0.0/24', '127.1.0.0/16', '127.0.0.0/255.255.255.0', 'env=trigger'];
const REQUIRES: string[][] = [['valid-user'], ['user', 'alice'], ['user', 'bob'], ['group', 'admins']];
export const UNIVERSE = ['GET', 'POST'];

const maskArb: fc.Arbitrary<MethodMask> = fc.oneof(
  { weight: 5, arbitrary: fc.constant(ALL_METHODS) },
  { weight: 1, arbitrary: fc.constantFrom(limit('GET'), limit('POST'), limitExcept('GET'), limitExcept('POST')) },
);

const hostArb: fc.Arbitrary<HostRecord> = fc.record({
  orders: fc.array(fc.record({ order: fc.constantFrom<Order>('allow,deny', 'deny,allow', 'mutual-failure'), methods: maskArb }), { maxLength: 2 }),
  allows: fc.array(fc.record({ word: fc.constantFrom(...HOST_WORDS), methods: maskArb }).map((e) => hostEntry(e.word, e.methods)), { maxLength: 3 }),
  denys: fc.array(fc.record({ word: fc.constantFrom(...HOST_WORDS), methods: maskArb }).map((e) => hostEntry(e.word, e.methods)), { maxLength: 3 }),
});

const rawScopeArb = fc.record({
  host: fc.option(hostArb, { nil: null, freq: 3 }),
  require: fc.option(fc.constantFrom(...REQUIRES), { nil: null, freq: 2 }),
  satisfy: fc.option(fc.constantFrom<'all' | 'any'>('all', 'any'), { nil: null, freq: 2 }),
});

type RawScope = { host: HostRecord | null; require: string[] | null; satisfy: 'all' | 'any' | null };

/** Applies the restrictions above to a raw chain. */
function repair(raw: readonly RawScope[]): ScopeRules22[] {
  const out: ScopeRules22[] = [];
  raw.forEach((s, i) => {
    const requires: AuthRequire[] | null = s.require ? [{ words: s.require, methods: ALL_METHODS }] : null;
    const laterHost = raw.slice(i + 1).some((x) => x.host !== null);
    const requireInEffect = raw.slice(0, i + 1).some((x) => x.require !== null);
    let satisfy = s.host !== null && !laterHost ? s.satisfy : null;
    if (satisfy === 'any' && !requireInEffect) satisfy = null;
    out.push({
      host: s.host,
      requires,
      satisfy: satisfy ? [{ value: satisfy, methods: ALL_METHODS }] : [],
      authType: requires ? 'Basic' : null,
      dbmGroups: null,
      authoritative: {},
    });
  });
  return out;
}

export interface SampleConfig {
  readonly name: string;
  /** scopes[0] = <Directory {{DOCROOT}}>, scopes[1] (optional) = <Directory {{DOCROOT}}/sub>. */
  readonly scopes: ScopeRules22[];
  /** Merged 2.2 view and compiled tree for `/` and for `/sub/`. */
  readonly views: Record<'/' | '/sub/', { eff: Effective22; tree: RequireNode | null }>;
  readonly accessCase: AccessCase;
}

function limitOpen(m: MethodMask): string {
  return `<${m.except ? 'LimitExcept' : 'Limit'} ${m.methods.join(' ')}>`;
}

function inMask(m: MethodMask, line: string): string[] {
  if (!m.except && m.methods.length === 0) throw new Error('empty mask');
  if (m.except && m.methods.length === 0) return [line];
  return [limitOpen(m), `    ${line}`, m.except ? '</LimitExcept>' : '</Limit>'];
}

function hostWord(e: { entry: { kind: string; spec?: string; name?: string } }): string {
  const entry = e.entry as { kind: string; spec?: string; name?: string; negated?: boolean };
  if (entry.kind === 'all') return 'all';
  if (entry.kind === 'ip') return entry.spec as string;
  if (entry.kind === 'env') return `env=${entry.negated ? '!' : ''}${entry.name}`;
  throw new Error(`cannot render host entry ${entry.kind}`);
}

/** One scope as 2.2 directives (Order lines keep their file order: later wins per method). */
export function render22(s: ScopeRules22): string[] {
  const lines: string[] = [];
  if (s.host) {
    for (const o of s.host.orders) lines.push(...inMask(o.methods, `Order ${o.order}`));
    for (const a of s.host.allows) lines.push(...inMask(a.methods, `Allow from ${hostWord(a)}`));
    for (const d of s.host.denys) lines.push(...inMask(d.methods, `Deny from ${hostWord(d)}`));
  }
  if (s.authType) lines.push(...AUTH);
  for (const r of s.requires ?? []) lines.push(...inMask(r.methods, `Require ${r.words.join(' ')}`));
  for (const x of s.satisfy) lines.push(...inMask(x.methods, `Satisfy ${x.value}`));
  return lines;
}

/** The migrated text of one scope: its whole effective policy (2.4's Require replaces what it inherits). */
export function render24(view: { eff: Effective22; tree: RequireNode | null }): string[] {
  const lines: string[] = [];
  if (view.eff.authType) lines.push(...AUTH);
  for (const l of emitRequire(view.tree)) lines.push('    '.repeat(l.depth) + l.text);
  return lines;
}

function section(path: string, lines: readonly string[]): string {
  return [`<Directory ${path}>`, ...lines.map((l) => `    ${l}`), '</Directory>'].join('\n');
}

/**
 * `count` configurations from `seed`; chains the compiler cannot migrate are
 * skipped (counted in `skipped`).
 */
export function sampleConfigs(seed: number, count: number): { configs: SampleConfig[]; skipped: number } {
  const raws = fc.sample(fc.array(rawScopeArb, { minLength: 1, maxLength: 2 }), { seed, numRuns: count * 10 });
  const configs: SampleConfig[] = [];
  let skipped = 0;
  for (const raw of raws) {
    if (configs.length >= count) break;
    const scopes = repair(raw as RawScope[]);
    if (scopes.every((s) => s.host === null && s.requires === null)) continue;
    const view = (chain: ScopeRules22[]) => {
      const eff = merge22(chain);
      const compiled = compileEffective(eff, UNIVERSE);
      return 'unsupported' in compiled ? null : { eff, tree: compiled.tree };
    };
    const top = view(scopes.slice(0, 1));
    const sub = view(scopes);
    if (!top || !sub) {
      skipped++;
      continue;
    }
    const name = `sample ${configs.length} (seed ${seed})`;
    const original = [section('{{DOCROOT}}', render22(scopes[0])), ...(scopes[1] ? [section('{{DOCROOT}}/sub', render22(scopes[1]))] : [])].join('\n');
    const migrated = [section('{{DOCROOT}}', render24(top)), ...(scopes[1] ? [section('{{DOCROOT}}/sub', render24(sub))] : [])].join('\n');
    configs.push({ name, scopes, views: { '/': top, '/sub/': sub }, accessCase: { name, original, migrated } });
  }
  return { configs, skipped };
}

/** The abstract request a harness request stands for (HostnameLookups Off, SetEnvIf X-Trigger → trigger, htgroups admins: alice). */
export function modelRequest(spec: RequestSpec): Request {
  const cred = CREDENTIALS[spec.credential as CredentialName];
  let credentials: Request['credentials'];
  if (!cred) credentials = { kind: 'none' };
  else if (cred.password !== 'secret') credentials = { kind: 'bad' };
  else credentials = { kind: 'user', user: cred.user, groups: cred.user === 'alice' ? ['admins'] : [] };
  return { ip: spec.address, hostName: null, env: spec.trigger ? ['trigger'] : [], method: spec.method, credentials };
}
