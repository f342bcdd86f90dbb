/**
 * Cross-check of the static evaluators against a real httpd 2.4 (issue 3: "the
 * harness also cross-checks the static evaluator against the server on a sample").
 *
 * ~20 seeded random 2.2 access configurations (one or two nested <Directory>
 * sections, see support/access-sample.ts) are rendered as 2.2 text and as the
 * compiled 2.4 Require text and served by the differential harness (2.2 text on
 * 2.4 + mod_access_compat; Require text without it). For every request the
 * harness sends (2 paths × 4 source addresses × 4 credentials × 2 methods ×
 * with/without the env trigger = 128 per config), the status each server
 * answers must equal what eval22 (2.2 rules) and eval24 (the compiled tree)
 * predict for the same abstract request.
 */
import { evaluate22 } from '../src/semantics/access/eval22';
import { evaluate24 } from '../src/semantics/access/eval24';
import { merge22 } from '../src/semantics/access/merge22';
import { readScopeRules } from '../src/semantics/access/read-rules';
import { parse, sections } from '../src/cst';
import { DEFAULT_PATHS, Result, describeRequest, requestMatrix, runDifferential, stopAllDifferentialServers } from './support/access-differential';
import { SampleConfig, modelRequest, sampleConfigs } from './support/access-sample';
import { compileEffective } from '../src/semantics/access/compile';
import { hostEntry } from './support/access-model';
import { ALL_METHODS, ScopeRules22 } from '../src/semantics/access/types';

const SEED = 20240611;
const COUNT = 20;

interface Disagreement {
  config: string;
  request: string;
  side: 'baseline (2.2 text, compat) vs eval22' | 'migrated (Require) vs eval24';
  server: number | string;
  predicted: number;
}

/** Deliberately wrong: the migrated text grants what the rules (and so eval24's prediction) deny. */
function negativeControl(): SampleConfig {
  const deny: ScopeRules22 = {
    host: { orders: [{ order: 'deny,allow', methods: ALL_METHODS }], allows: [hostEntry('127.0.0.1')], denys: [hostEntry('all')] },
    requires: null,
    satisfy: [],
    authType: null,
    dbmGroups: null,
    authoritative: {},
  };
  const eff = merge22([deny]);
  const compiled = compileEffective(eff, ['GET', 'POST']);
  if ('unsupported' in compiled) throw new Error(compiled.unsupported);
  const view = { eff, tree: compiled.tree };
  const name = 'NEGATIVE CONTROL: migrated text grants everyone';
  return {
    name,
    scopes: [deny],
    views: { '/': view, '/sub/': view },
    accessCase: {
      name,
      original: '<Directory {{DOCROOT}}>\n    Order deny,allow\n    Deny from all\n    Allow from 127.0.0.1\n</Directory>',
      migrated: '<Directory {{DOCROOT}}>\n    Require all granted\n</Directory>',
    },
  };
}

function compare(c: SampleConfig, r: Result, outcomes?: Map<string, number>): Disagreement[] {
  const out: Disagreement[] = [];
  expect({ name: r.name, error: r.error }).toEqual({ name: c.name, error: undefined });
  const specs = requestMatrix(DEFAULT_PATHS);
  expect(r.observations).toHaveLength(specs.length);
  r.observations.forEach((o, k) => {
    const spec = specs[k];
    expect(o.request).toBe(describeRequest(spec));
    const view = c.views[spec.path as '/' | '/sub/'];
    const req = modelRequest(spec);
    const p22 = evaluate22(view.eff, req);
    const p24 = evaluate24(view.tree, view.eff.authType, req);
    outcomes?.set(String(o.baseline), (outcomes.get(String(o.baseline)) ?? 0) + 1);
    if (o.baseline !== p22) out.push({ config: c.name, request: o.request, side: 'baseline (2.2 text, compat) vs eval22', server: o.baseline, predicted: p22 });
    if (o.migrated !== p24) out.push({ config: c.name, request: o.request, side: 'migrated (Require) vs eval24', server: o.migrated, predicted: p24 });
  });
  return out;
}

describe('static evaluators agree with httpd 2.4 on a seeded sample', () => {
  const { configs, skipped } = sampleConfigs(SEED, COUNT);
  const control = negativeControl();
  let results: Result[] = [];
  let controlResult: Result;

  beforeAll(async () => {
    const all = await runDifferential([...configs, control].map((c) => c.accessCase));
    results = all.slice(0, configs.length);
    controlResult = all[configs.length];
  }, 60000);

  afterAll(() => stopAllDifferentialServers());

  test('the sample is what it claims: enough configs, the renderer reads back as the generated rules', () => {
    expect(configs.length).toBe(COUNT);
    expect(skipped).toBeLessThan(COUNT);
    const requests = requestMatrix(DEFAULT_PATHS).map(modelRequest);
    for (const c of configs) {
      // read the rendered 2.2 text back with the tool's own reader: same answers as the generated rules
      const tree = parse(c.accessCase.original.split('{{DOCROOT}}').join('/d').split('{{HTPASSWD}}').join('/p').split('{{GROUPS}}').join('/g') + '\n');
      const read = [...sections(tree, 'Directory')].map((s) => readScopeRules(s).rules);
      expect(read).toHaveLength(c.scopes.length);
      for (let n = 1; n <= c.scopes.length; n++) {
        const a = merge22(c.scopes.slice(0, n));
        const b = merge22(read.slice(0, n));
        for (const r of requests) expect([c.name, n, JSON.stringify(r), evaluate22(b, r)]).toEqual([c.name, n, JSON.stringify(r), evaluate22(a, r)]);
      }
    }
  });

  test('every server answer equals the evaluators’ prediction (0 disagreements)', () => {
    const disagreements: Disagreement[] = [];
    const outcomes = new Map<string, number>();
    results.forEach((r, i) => disagreements.push(...compare(configs[i], r, outcomes)));
    const compared = results.reduce((n, r) => n + r.observations.length, 0);
    const byConfig = new Map<string, Disagreement[]>();
    for (const d of disagreements) byConfig.set(d.config, [...(byConfig.get(d.config) ?? []), d]);
    const report = [...byConfig].map(([name, list]) => {
      const c = configs.find((x) => x.name === name) as SampleConfig;
      return [`${name}: ${list.length} disagreements`, '--- 2.2', c.accessCase.original, '--- 2.4', c.accessCase.migrated, ...list.slice(0, 8).map((d) => `  ${d.side}: ${d.request}: server ${d.server}, predicted ${d.predicted}`)].join('\n');
    });
    console.info(
      `access-evaluator: ${configs.length} configs × ${requestMatrix(DEFAULT_PATHS).length} requests = ${compared} requests per side (${skipped} chains skipped as unsupported); ` +
        `baseline statuses ${JSON.stringify(Object.fromEntries(outcomes))}; ${disagreements.length} disagreements`,
    );
    expect(compared).toBe(COUNT * 128);
    // the sample exercises grants, refusals and authentication prompts
    for (const status of ['200', '401', '403']) expect(outcomes.get(status) ?? 0).toBeGreaterThan(20);
    expect(report.join('\n\n')).toBe('');
  });

  test('negative control: a migrated text that differs from the rules is caught on every request it widens', () => {
    const found = compare(control, controlResult);
    expect(found.every((d) => d.side === 'migrated (Require) vs eval24' && d.server === 200 && d.predicted === 403)).toBe(true);
    // everyone but 127.0.0.1: 2 paths × 3 addresses × 4 credentials × 2 methods × 2 trigger variants
    expect(found).toHaveLength(96);
  });
});
