/**
 * The mixed-config model (src/semantics/access/compat24.ts): 2.4 + mod_access_compat
 * combining Order/Allow/Deny/Satisfy with Require.
 * 1. The evaluator reproduces the measured tables (access-measurements.md C*, D*, H*, M*).
 * 2. Property: for random chains of mixed scopes, the compiled pure-2.4 tree answers
 *    every request of a sweep exactly like 2.4 + compat (or the compiler says
 *    unsupported), loads, and never grants where the mixed config refused.
 */
import fc from 'fast-check';
import {
  CompatRecord,
  EMPTY_HOST,
  ScopeCompat24,
  compileCompat24,
  evaluateCompat24,
  mergeCompat24,
} from '../src/semantics/access/compat24';
import { checkRequireTree, evaluate24 } from '../src/semantics/access/eval24';
import { emitRequire } from '../src/semantics/access/emit';
import { AuthMergingOp } from '../src/semantics/access/read-authz24';
import { ALL_METHODS, HostRecord, MethodMask, Order, Request, RequireNode, SatisfySetting } from '../src/semantics/access/types';
import { hostEntry, limit } from './support/access-model';

const leaf = (provider: string, args: string[] = [], negate = false, methods?: MethodMask): RequireNode => ({
  kind: 'require',
  provider,
  args,
  negate,
  ...(methods ? { methods } : {}),
});
const anyOf = (...children: RequireNode[]): RequireNode => ({ kind: 'any', children });
const allOf = (...children: RequireNode[]): RequireNode => ({ kind: 'all', children });

function record(order: Order | null, allows: string[], denys: string[], satisfy: 'all' | 'any' | null = null): CompatRecord {
  return {
    host: { orders: order ? [{ order, methods: ALL_METHODS }] : [], allows: allows.map((w) => hostEntry(w)), denys: denys.map((w) => hostEntry(w)) },
    satisfy: satisfy ? [{ value: satisfy, methods: ALL_METHODS }] : [],
  };
}
function scope(rec: CompatRecord | null, tree: RequireNode | null = null, op: AuthMergingOp | null = null, authType: string | null = null): ScopeCompat24 {
  return { record: rec, authz: { op, tree: tree && tree.kind !== 'any' ? anyOf(tree) : tree }, authType };
}
function req(ip: string, creds: 'none' | 'alice' | 'bob' = 'none', method = 'GET', env: string[] = []): Request {
  const credentials: Request['credentials'] =
    creds === 'none' ? { kind: 'none' } : { kind: 'user', user: creds, groups: creds === 'alice' ? ['admins'] : [] };
  return { ip, hostName: null, env, method, credentials };
}
const at = (chain: ScopeCompat24[], r: Request) => evaluateCompat24(mergeCompat24(chain), r);

const AUTH = 'Basic';
const GRANTED = leaf('all', ['granted']);
const DENIED = leaf('all', ['denied']);
const VALID = leaf('valid-user');

describe('evaluateCompat24 reproduces the measured 2.4.71 + mod_access_compat tables', () => {
  test('C1-C5: one scope, Satisfy All: compat AND Require', () => {
    expect(at([scope(record('allow,deny', [], ['all']), GRANTED)], req('127.0.0.1'))).toBe(403); // C1
    expect(at([scope(record('allow,deny', [], []), GRANTED)], req('127.0.0.1'))).toBe(403); // C2
    expect(at([scope(record('allow,deny', ['all'], []), DENIED)], req('127.0.0.1'))).toBe(403); // C3
    const c5 = [scope(record('allow,deny', ['127.0.0.1', '127.0.0.5'], []), leaf('ip', ['127.0.0.1']))];
    expect([at(c5, req('127.0.0.1')), at(c5, req('127.0.0.5')), at(c5, req('127.0.0.9'))]).toEqual([200, 403, 403]);
  });

  test('C6-C9: Satisfy Any ORs them', () => {
    const c6 = [scope(record('deny,allow', ['127.0.0.1'], ['all'], 'any'), VALID, null, AUTH)];
    expect([at(c6, req('127.0.0.1')), at(c6, req('127.0.0.5')), at(c6, req('127.0.0.5', 'alice'))]).toEqual([200, 401, 200]);
    const c7 = [scope(record('deny,allow', ['127.0.0.1'], ['all'], 'all'), VALID, null, AUTH)];
    expect([at(c7, req('127.0.0.1')), at(c7, req('127.0.0.1', 'alice')), at(c7, req('127.0.0.5', 'alice'))]).toEqual([401, 200, 403]);
    const c9 = [scope(record('deny,allow', [], ['all'], 'any'), GRANTED)];
    expect(at(c9, req('127.0.0.9'))).toBe(200);
  });

  test('A9/A10/A11: Satisfy Any with no applicable Require', () => {
    expect(at([scope(record('deny,allow', [], ['all'], 'any'))], req('127.0.0.1'))).toBe(200); // A9
    expect(at([scope(record('deny,allow', [], ['all'], 'any'), null, null, AUTH)], req('127.0.0.1'))).toBe(500); // A10
    const a11 = [scope(record('deny,allow', [], ['all'], 'any'), leaf('valid-user', [], false, limit('POST')), null, AUTH)];
    expect([at(a11, req('127.0.0.1')), at(a11, req('127.0.0.1', 'none', 'POST'))]).toEqual([200, 401]);
  });

  test('C10-C18: parent/child, each side inherited on its own and ANDed', () => {
    expect(at([scope(record('deny,allow', [], ['all'])), scope(null, GRANTED)], req('127.0.0.1'))).toBe(403); // C10
    expect(at([scope(null, DENIED), scope(record('deny,allow', ['127.0.0.1'], ['all']))], req('127.0.0.1'))).toBe(403); // C11
    expect(at([scope(null, GRANTED), scope(record('deny,allow', [], ['all']))], req('127.0.0.1'))).toBe(403); // C13
    expect(at([scope(record('allow,deny', ['all'], [])), scope(null, DENIED)], req('127.0.0.1'))).toBe(403); // C14
    const c15 = [scope(record('deny,allow', ['127.0.0.1'], ['all'])), scope(null, leaf('ip', ['127.0.0.5']))];
    expect([at(c15, req('127.0.0.1')), at(c15, req('127.0.0.5'))]).toEqual([403, 403]);
    const c18 = [scope(record('deny,allow', ['127.0.0.1'], ['all'], 'any')), scope(null, VALID, null, AUTH)];
    expect([at(c18, req('127.0.0.1')), at(c18, req('127.0.0.5')), at(c18, req('127.0.0.5', 'alice'))]).toEqual([200, 401, 200]);
  });

  test('D1/D2: Satisfy travels in the compat record', () => {
    const parent = scope(record('deny,allow', ['127.0.0.1'], ['all'], 'any'), VALID, null, AUTH);
    const d1 = [parent, scope({ host: { orders: [], allows: [hostEntry('127.0.0.5')], denys: [] }, satisfy: [] })];
    expect([at(d1, req('127.0.0.1')), at(d1, req('127.0.0.9')), at(d1, req('127.0.0.9', 'alice'))]).toEqual([401, 401, 200]);
    const d2 = [scope(record('deny,allow', [], ['all']), VALID, null, AUTH), scope({ host: EMPTY_HOST, satisfy: [{ value: 'any', methods: ALL_METHODS }] })];
    expect([at(d2, req('127.0.0.1')), at(d2, req('127.0.0.9'))]).toEqual([200, 200]);
  });

  test('H1-H8: AuthMerging', () => {
    const parent = scope(null, VALID, null, AUTH);
    const ip1 = leaf('ip', ['127.0.0.1']);
    const row = (child: ScopeCompat24) => [req('127.0.0.1'), req('127.0.0.5'), req('127.0.0.1', 'alice'), req('127.0.0.5', 'alice')].map((r) => at([parent, child], r));
    expect(row(scope(null, ip1))).toEqual([200, 403, 200, 403]); // H1
    expect(row(scope(null, ip1, 'or'))).toEqual([200, 401, 200, 200]); // H2
    expect(row(scope(null, ip1, 'and'))).toEqual([401, 403, 200, 403]); // H3
    expect(row(scope(null))).toEqual([401, 401, 200, 200]); // H4
    expect(row(scope(null, null, 'and'))).toEqual([401, 401, 200, 200]); // H5
    const h8 = [parent, scope(null, leaf('all', ['denied'], false, limit('POST')))];
    expect([at(h8, req('127.0.0.1')), at(h8, req('127.0.0.1', 'alice', 'POST'))]).toEqual([200, 403]);
  });
});

// ------------------------------------------------------------------ property

const RUNS = 400;
const UNIVERSE = ['GET', 'POST'];

const maskArb: fc.Arbitrary<MethodMask | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom<MethodMask>(limit('POST'), limit('GET'), { except: true, methods: ['GET'] }) },
);
const HOST_WORDS = ['all', '10.1', '10.0.0.0/8', '192.168.1', 'env=lan', 'env=!lan', 'example.org'];
const hostArb: fc.Arbitrary<HostRecord> = fc.record({
  orders: fc.array(
    fc.record({ order: fc.constantFrom<Order>('allow,deny', 'deny,allow', 'mutual-failure'), methods: maskArb.map((m) => m ?? ALL_METHODS) }),
    { maxLength: 1 },
  ),
  allows: fc.array(fc.record({ w: fc.constantFrom(...HOST_WORDS), m: maskArb }).map(({ w, m }) => hostEntry(w, m ?? ALL_METHODS)), { maxLength: 2 }),
  denys: fc.array(fc.record({ w: fc.constantFrom(...HOST_WORDS), m: maskArb }).map(({ w, m }) => hostEntry(w, m ?? ALL_METHODS)), { maxLength: 2 }),
});
const satisfyArb: fc.Arbitrary<SatisfySetting[]> = fc.array(
  fc.record({ value: fc.constantFrom<'all' | 'any'>('all', 'any'), methods: maskArb.map((m) => m ?? ALL_METHODS) }),
  { maxLength: 1 },
);
const recordArb: fc.Arbitrary<CompatRecord | null> = fc.option(
  fc.record({ host: hostArb, satisfy: satisfyArb }).filter((r) => r.host.orders.length + r.host.allows.length + r.host.denys.length + r.satisfy.length > 0),
  { nil: null, freq: 2 },
);
const POSITIVE: RequireNode[] = [
  GRANTED,
  DENIED,
  leaf('ip', ['10.1']),
  leaf('ip', ['10.0.0.0/8', '192.168.1']),
  leaf('env', ['lan']),
  leaf('host', ['example.org']),
  VALID,
  leaf('user', ['alice']),
  leaf('group', ['admins']),
];
const NEGATIVE: RequireNode[] = [leaf('ip', ['10.1'], true), leaf('env', ['lan'], true), leaf('user', ['bob'], true)];
const childArb: fc.Arbitrary<RequireNode> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...POSITIVE) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...POSITIVE), fc.constantFrom(...NEGATIVE)).map(([p, n]) => allOf(p, n)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...POSITIVE), fc.constantFrom(...POSITIVE)).map(([a, b]) => allOf(a, b)) },
);
const treeArb: fc.Arbitrary<RequireNode | null> = fc.option(
  fc.array(fc.tuple(childArb, maskArb), { minLength: 1, maxLength: 3 }).map((cs) => anyOf(...cs.map(([c, m]) => (m ? { ...c, methods: m } : c)))),
  { nil: null, freq: 3 },
);
const scopeArb: fc.Arbitrary<ScopeCompat24> = fc.record({
  record: recordArb,
  authz: fc.record({ op: fc.constantFrom<AuthMergingOp | null>(null, null, 'off', 'and', 'or'), tree: treeArb }),
  authType: fc.oneof({ weight: 3, arbitrary: fc.constant<string | null>('Basic') }, { weight: 1, arbitrary: fc.constant<string | null>(null) }),
});
const chainArb = fc.array(scopeArb, { minLength: 1, maxLength: 3 }).filter((chain) => chain.every((s) => !s.authz.tree || checkRequireTree(s.authz.tree).length === 0));

const IPS = ['10.1.2.3', '10.2.0.1', '192.168.1.7', '172.16.0.1'];
const REQUESTS: Request[] = IPS.flatMap((ip) =>
  ([[null, []], ['www.example.org', ['lan']], [null, ['LAN']]] as [string | null, string[]][]).flatMap(([hostName, env]) =>
    ['GET', 'HEAD', 'POST', 'PUT'].flatMap((method) =>
      (
        [
          { kind: 'none' },
          { kind: 'bad' },
          { kind: 'user', user: 'alice', groups: ['admins'] },
          { kind: 'user', user: 'bob', groups: [] },
        ] as Request['credentials'][]
      ).map((credentials) => ({ ip, hostName, env, method, credentials })),
    ),
  ),
);

function show(tree: RequireNode | null): string {
  return emitRequire(tree)
    .map((l) => '  '.repeat(l.depth) + l.text)
    .join('\n');
}

describe('compileCompat24: pure 2.4 trees answer like the mixed config on 2.4 + compat', () => {
  test(`${RUNS} random mixed chains × ${REQUESTS.length} requests: equal, loadable, never wider`, () => {
    let runs = 0;
    let unsupported = 0;
    let refusals = 0;
    const reasons = new Map<string, number>();
    fc.assert(
      fc.property(chainArb, (chain) => {
        runs++;
        const eff = mergeCompat24(chain);
        const compiled = compileCompat24(eff, UNIVERSE);
        if ('unsupported' in compiled) {
          unsupported++;
          const r = compiled.unsupported.slice(0, 50);
          reasons.set(r, (reasons.get(r) ?? 0) + 1);
          return;
        }
        const errors = checkRequireTree(compiled.tree);
        if (errors.length > 0) throw new Error(`would not load: ${errors.join('; ')}\n${show(compiled.tree)}`);
        for (const r of REQUESTS) {
          const want = evaluateCompat24(eff, r);
          const got = evaluate24(compiled.tree, eff.authType, r);
          if (want === 401 || want === 403) refusals++;
          if (got !== want) throw new Error(`${JSON.stringify(r)}: mixed ${want}, compiled ${got}\n${show(compiled.tree)}`);
        }
      }),
      { numRuns: RUNS },
    );
    console.info(
      `access-compat24 property: ${runs} chains, ${unsupported} unsupported (${((unsupported / runs) * 100).toFixed(1)}%), ${refusals} refusals checked\n` +
        [...reasons].map(([r, n]) => `  ${n} × ${r}`).join('\n'),
    );
    expect(unsupported / runs).toBeLessThan(0.25);
  });
});
