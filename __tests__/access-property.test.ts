/**
 * Property: for random 2.2 scope chains, the compiled 2.4 Require tree answers
 * every request of a sweep exactly as 2.2 does (or the compiler says
 * "unsupported"), loads (checkRequireTree), and never grants where 2.2 refused.
 */
import fc from 'fast-check';
import { merge22 } from '../src/semantics/access/merge22';
import { evaluate22 } from '../src/semantics/access/eval22';
import { checkRequireTree, evaluate24 } from '../src/semantics/access/eval24';
import { compileEffective } from '../src/semantics/access/compile';
import { emitRequire } from '../src/semantics/access/emit';
import {
  ALL_METHODS,
  AccessEntry,
  Authoritative,
  Effective22,
  HostRecord,
  MethodMask,
  Order,
  Request,
  RequireNode,
  ScopeRules22,
} from '../src/semantics/access/types';
import { hostEntry } from './support/access-model';

const RUNS = 500;
const UNIVERSE = ['GET', 'POST', 'PUT'];

// ------------------------------------------------------------ configurations

const maskArb: fc.Arbitrary<MethodMask> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(ALL_METHODS) },
  { weight: 3, arbitrary: fc.subarray(['GET', 'POST', 'PUT', 'HEAD'], { minLength: 1 }).map((methods) => ({ except: false, methods })) },
  { weight: 2, arbitrary: fc.subarray(['GET', 'POST', 'PUT'], { minLength: 1, maxLength: 2 }).map((methods) => ({ except: true, methods })) },
);

const HOST_WORDS = [
  'all',
  '10.1.2.3',
  '10.1',
  '10.1.',
  '10.0.0.0/8',
  '10.1.0.0/255.255.0.0',
  '10.0.0.0/255.0.255.0',
  '192.168.1',
  '192.168.1.0/24',
  '::1',
  'fe80::/10',
  'example.org',
  '.example.org',
  'good.com',
  'env=lan',
  'env=!lan',
  'env=bot',
  'env=!bot',
  '127.0.0.x',
];

const entryArb: fc.Arbitrary<AccessEntry> = fc
  .record({ word: fc.constantFrom(...HOST_WORDS), methods: maskArb })
  .map(({ word, methods }) => hostEntry(word, methods));

const orderArb = fc.constantFrom<Order>('allow,deny', 'deny,allow', 'mutual-failure');

const hostRecordArb: fc.Arbitrary<HostRecord> = fc.record({
  orders: fc.array(fc.record({ order: orderArb, methods: maskArb }), { maxLength: 2 }),
  allows: fc.array(entryArb, { maxLength: 3 }),
  denys: fc.array(entryArb, { maxLength: 3 }),
});

const REQUIRE_WORDS = [
  ['valid-user'],
  ['user', 'alice'],
  ['user', 'bob', 'carol'],
  ['group', 'admins'],
  ['group', 'staff', 'admins'],
  ['group', 'Admins'],
];

const requireArb = fc.record({
  words: fc.oneof({ weight: 40, arbitrary: fc.constantFrom(...REQUIRE_WORDS) }, { weight: 1, arbitrary: fc.constantFrom(['file-owner'], ['file-group']) }),
  methods: maskArb,
});

/** Mostly unset; sometimes On, sometimes Off. */
const flagArb = fc.oneof({ weight: 10, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.boolean() });

const authoritativeArb: fc.Arbitrary<Partial<Authoritative>> = fc
  .record({ user: flagArb, groupFile: flagArb, dbm: flagArb, owner: flagArb, default: flagArb })
  .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));

const scopeArb: fc.Arbitrary<ScopeRules22> = fc.record({
  host: fc.option(hostRecordArb, { nil: null, freq: 3 }),
  requires: fc.option(fc.array(requireArb, { minLength: 1, maxLength: 2 }), { nil: null, freq: 2 }),
  satisfy: fc.array(fc.record({ value: fc.constantFrom<'all' | 'any'>('all', 'any'), methods: maskArb }), { maxLength: 2 }),
  // Real configs with Require nearly always set AuthType; without it 2.2 answers 500 (compiled as unsupported).
  authType: fc.oneof({ weight: 4, arbitrary: fc.constant('Basic') }, { weight: 1, arbitrary: fc.constant(null) }),
  dbmGroups: fc.option(fc.boolean(), { nil: null, freq: 2 }),
  authoritative: authoritativeArb,
});

const chainArb = fc.array(scopeArb, { minLength: 1, maxLength: 3 });

// ------------------------------------------------------------ requests

const IPS = ['10.1.2.3', '10.1.9.9', '10.2.0.1', '10.5.0.9', '192.168.1.7', '172.16.0.1', '::1', 'fe80::1', '::ffff:10.1.2.3'];
const HOST_ENV: [string | null, string[]][] = [
  [null, []],
  ['www.example.org', []],
  ['example.org', ['LAN']],
  ['nogood.com', ['lan', 'bot']],
  [null, ['bot']],
  ['www.good.com', ['lan']],
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'];
const CREDS: Request['credentials'][] = [
  { kind: 'none' },
  { kind: 'bad' },
  { kind: 'user', user: 'alice', groups: ['admins'] },
  { kind: 'user', user: 'bob', groups: [] },
  { kind: 'user', user: 'carol', groups: ['staff'] },
  { kind: 'user', user: 'dave', groups: ['ADMINS'] },
];
const FILE = { owner: 'bob', group: 'staff' };

const REQUESTS: Request[] = IPS.flatMap((ip) =>
  HOST_ENV.flatMap(([hostName, env]) =>
    METHODS.flatMap((method) => CREDS.map((credentials) => ({ ip, hostName, env, method, credentials, file: FILE }))),
  ),
);

// ------------------------------------------------------------ the properties

function show(tree: RequireNode | null): string {
  return emitRequire(tree)
    .map((l) => '  '.repeat(l.depth) + l.text)
    .join('\n');
}

interface Tally {
  runs: number;
  unsupported: number;
  refusalsChecked: number;
  reasons: Map<string, number>;
}

function compileOrCount(chain: ScopeRules22[], tally: Tally): { eff: Effective22; tree: RequireNode | null } | null {
  tally.runs++;
  const eff = merge22(chain);
  const result = compileEffective(eff, UNIVERSE);
  if ('unsupported' in result) {
    tally.unsupported++;
    const reason = result.unsupported.replace(/\(.*$/, '').slice(0, 60);
    tally.reasons.set(reason, (tally.reasons.get(reason) ?? 0) + 1);
    return null;
  }
  return { eff, tree: result.tree };
}

describe('compiled Require trees answer like 2.2', () => {
  const tally: Tally = { runs: 0, unsupported: 0, refusalsChecked: 0, reasons: new Map() };

  test(`evaluate24(compiled) === evaluate22 on ${REQUESTS.length} requests, ${RUNS} random chains`, () => {
    fc.assert(
      fc.property(chainArb, (chain) => {
        const compiled = compileOrCount(chain, tally);
        if (!compiled) return;
        const { eff, tree } = compiled;
        const errors = checkRequireTree(tree);
        if (errors.length > 0) throw new Error(`compiled tree would not load: ${errors.join('; ')}\n${show(tree)}`);
        for (const req of REQUESTS) {
          const want = evaluate22(eff, req);
          const got = evaluate24(tree, eff.authType, req);
          if (got !== want) throw new Error(`${JSON.stringify(req)}: 2.2 ${want}, compiled ${got}\n${show(tree)}`);
        }
      }),
      { numRuns: RUNS },
    );
    const share = tally.unsupported / tally.runs;
    const reasons = [...tally.reasons].map(([r, n]) => `  ${n} × ${r}`).join('\n');
    console.info(`access-property: unsupported ${tally.unsupported}/${tally.runs} = ${(share * 100).toFixed(1)}%\n${reasons}`);
    expect(tally.runs).toBeGreaterThanOrEqual(RUNS);
    expect(share).toBeLessThan(0.1);
  });

  test('never widens: no request 2.2 refuses (401/403) is granted by the compiled tree', () => {
    const widen: Tally = { runs: 0, unsupported: 0, refusalsChecked: 0, reasons: new Map() };
    fc.assert(
      fc.property(chainArb, (chain) => {
        const compiled = compileOrCount(chain, widen);
        if (!compiled) return;
        for (const req of REQUESTS) {
          const want = evaluate22(compiled.eff, req);
          if (want !== 401 && want !== 403) continue;
          widen.refusalsChecked++;
          const got = evaluate24(compiled.tree, compiled.eff.authType, req);
          if (got === 200) throw new Error(`widened: ${JSON.stringify(req)}: 2.2 ${want}, compiled 200\n${show(compiled.tree)}`);
        }
      }),
      { numRuns: RUNS },
    );
    expect(widen.refusalsChecked).toBeGreaterThan(RUNS);
  });
});
