/**
 * Hand-written cases for the access-control model, each taken from
 * docs/research/access-semantics.md or the measured tables in
 * docs/research/access-measurements.md (ids such as T1, A3, D2, F20 refer to them).
 * 2.2 cases use 2.2 semantics, not 2.4+mod_access_compat's (where they differ, the
 * "2.2 (source)" column is the expectation).
 */
import { classifyHostWord, hostMatches, ipMatches } from '../src/semantics/access/ip-match';
import { merge22 } from '../src/semantics/access/merge22';
import { evaluate22 } from '../src/semantics/access/eval22';
import { checkRequireTree, evaluate24 } from '../src/semantics/access/eval24';
import {
  ALL_METHODS,
  AccessEntry,
  AuthRequire,
  Effective22,
  HostRecord,
  MethodMask,
  Order,
  Request,
  RequireNode,
  ScopeRules22,
} from '../src/semantics/access/types';
import { hostEntry, limit, limitExcept } from './support/access-model';

// ---------------------------------------------------------------- builders

const entry = hostEntry;

interface HostSpec {
  order?: Order;
  orders?: { order: Order; methods: MethodMask }[];
  allow?: (string | AccessEntry)[];
  deny?: (string | AccessEntry)[];
}

function host(spec: HostSpec): HostRecord {
  const toEntry = (w: string | AccessEntry) => (typeof w === 'string' ? entry(w) : w);
  return {
    orders: spec.orders ?? (spec.order ? [{ order: spec.order, methods: ALL_METHODS }] : []),
    allows: (spec.allow ?? []).map(toEntry),
    denys: (spec.deny ?? []).map(toEntry),
  };
}

function require22(line: string, methods: MethodMask = ALL_METHODS): AuthRequire {
  return { words: line.split(' '), methods };
}

function scope(partial: Partial<ScopeRules22>): ScopeRules22 {
  return { host: null, requires: null, satisfy: [], authType: null, dbmGroups: null, authoritative: {}, ...partial };
}

const AUTH = { authType: 'Basic' };
const satisfyAny = [{ value: 'any' as const, methods: ALL_METHODS }];

const none: Request['credentials'] = { kind: 'none' };
const bad: Request['credentials'] = { kind: 'bad' };
const alice: Request['credentials'] = { kind: 'user', user: 'alice', groups: ['admins'] };
const bob: Request['credentials'] = { kind: 'user', user: 'bob', groups: [] };

function request(ip: string, more: Partial<Request> = {}): Request {
  return { ip, hostName: null, env: [], method: 'GET', credentials: none, ...more };
}

function status22(eff: Effective22, ip: string, more: Partial<Request> = {}): number {
  return evaluate22(eff, request(ip, more));
}

const leaf = (provider: string, args: string[] = [], methods?: MethodMask): RequireNode => ({
  kind: 'require',
  provider,
  args,
  negate: false,
  ...(methods ? { methods } : {}),
});
const not = (provider: string, args: string[] = []): RequireNode => ({ kind: 'require', provider, args, negate: true });
const all = (...children: RequireNode[]): RequireNode => ({ kind: 'all', children });
const any = (...children: RequireNode[]): RequireNode => ({ kind: 'any', children });
const noneOf = (...children: RequireNode[]): RequireNode => ({ kind: 'none', children });

// ---------------------------------------------------------------- ip-match

describe('ipMatches (apr_ipsubnet_create / apr_ipsubnet_test)', () => {
  test.each([
    ['10.1.2.3', '10.1.2.3', true],
    ['10.1.2.3', '10.1.2.4', false],
    // partial IPv4 = network of the leading octets (I7, I8, F7–F10)
    ['10', '10.200.1.1', true],
    ['10', '11.0.0.1', false],
    ['10.1', '10.1.9.9', true],
    ['10.1', '10.2.0.1', false],
    ['10.1.', '10.1.0.1', true],
    ['127.0.0', '127.0.0.9', true],
    ['127.0.0.', '127.1.0.1', false],
    ['1.2.3.4.', '1.2.3.4', true],
    // CIDR and netmask; host bits ignored (I21); non-contiguous masks (I27)
    ['10.1.0.0/16', '10.1.255.1', true],
    ['10.1.0.0/16', '10.2.0.1', false],
    ['127.0.0.1/8', '127.200.0.1', true],
    ['10.1.0.0/255.255.0.0', '10.1.3.4', true],
    ['10.1.0.0/255.255.0.0', '10.3.3.4', false],
    ['127.0.0.0/255.0.255.0', '127.9.0.5', true],
    ['127.0.0.0/255.0.255.0', '127.9.1.5', false],
    ['10.0.0.7/32', '10.0.0.7', true],
    // IPv6 (I16, I26, F33)
    ['::1', '::1', true],
    ['::1/128', '0:0:0:0:0:0:0:1', true],
    ['fe80::/10', 'fe80::1', true],
    ['fe80::/10', 'febf::1', true],
    ['fe80::/10', 'fec0::1', false],
    ['2001:db8::/32', '2001:DB8:0:1::5', true],
    ['2001:db8::/32', '2001:db9::5', false],
    // families never cross (v4 client, v6 spec and the reverse) ...
    ['::1', '127.0.0.1', false],
    ['127.0.0.1', '::1', false],
    ['::/1', '10.0.0.1', false],
    // ... except an IPv4-mapped client tested against an IPv4 spec (apr_ipsubnet_test)
    ['10.1', '::ffff:10.1.2.3', true],
    ['10.1', '::ffff:10.2.2.3', false],
  ])('%s contains %s: %s', (spec, client, expected) => {
    expect(ipMatches(spec, client)).toBe(expected);
  });

  test('throws for specs httpd refuses and for non-addresses', () => {
    expect(() => ipMatches('256.1.1.1', '10.0.0.1')).toThrow();
    expect(() => ipMatches('10.0.0.0/33', '10.0.0.1')).toThrow();
    expect(() => ipMatches('10.0.0.1', 'example.org')).toThrow();
  });
});

describe('classifyHostWord (§2.3 table)', () => {
  test.each([
    ['all', { kind: 'all' }],
    ['ALL', { kind: 'all' }],
    ['env=lan', { kind: 'env', name: 'lan', negated: false }],
    ['ENV=Lan', { kind: 'env', name: 'Lan', negated: false }],
    ['env=!lan', { kind: 'env', name: 'lan', negated: true }],
    ['10.1.2.3', { kind: 'ip', spec: '10.1.2.3' }],
    ['10.1', { kind: 'ip', spec: '10.1' }],
    ['10.1.', { kind: 'ip', spec: '10.1.' }],
    ['10.1.0.0/255.255.0.0', { kind: 'ip', spec: '10.1.0.0/255.255.0.0' }],
    ['127.0.0.0/255.0.255.0', { kind: 'ip', spec: '127.0.0.0/255.0.255.0' }],
    ['fe80::/10', { kind: 'ip', spec: 'fe80::/10' }],
    ['::1', { kind: 'ip', spec: '::1' }],
    ['example.org', { kind: 'host', name: 'example.org' }],
    ['.example.org', { kind: 'host', name: '.example.org' }],
    ['localhost', { kind: 'host', name: 'localhost' }],
    ['web-01.intra_net.example', { kind: 'host', name: 'web-01.intra_net.example' }],
    // silently host names that can never match (I20, I22, I14 on 2.2)
    ['127.0.0.x', { kind: 'never', word: '127.0.0.x' }],
    ['10.x.x.x', { kind: 'never', word: '10.x.x.x' }],
    ['127.0.0.1,127.0.0.5', { kind: 'never', word: '127.0.0.1,127.0.0.5' }],
    ['#', { kind: 'never', word: '#' }],
    ['env=', { kind: 'never', word: 'env=' }],
  ])('%s', (word, expected) => {
    expect(classifyHostWord(word)).toEqual(expected);
  });

  test.each([
    ['127.0/16', 'The specified IP address is invalid.'], // I23
    ['256.1.1.1', 'The specified IP address is invalid.'], // I24
    ['1.2.3.4.5', 'The specified IP address is invalid.'],
    ['::ffff:1.2.3.4', 'The specified IP address is invalid.'],
    ['fe80::1::2', 'The specified IP address is invalid.'],
    ['127.0.0.1/33', 'The specified network mask is invalid.'], // I12
    ['127.0.0.1/', 'The specified network mask is invalid.'], // I25
    ['10.0.0.0/0', 'The specified network mask is invalid.'],
    ['::1/255.255.0.0', 'The specified network mask is invalid.'],
    ['foo/24', 'An IP address was expected'], // I28
  ])('%s is a startup error', (word, error) => {
    expect(classifyHostWord(word)).toEqual({ error });
  });
});

describe('hostMatches (in_domain on whole labels)', () => {
  test.each([
    ['example.org', 'example.org', true],
    ['example.org', 'www.example.org', true],
    ['example.org', 'WWW.Example.ORG', true],
    ['example.org', 'badexample.org', false],
    ['good.com', 'nogood.com', false],
    ['.example.org', 'example.org', false],
    ['.example.org', 'a.b.example.org', true],
    ['localhost', 'localhost', true],
    ['calhost', 'localhost', false], // F32
    ['example.org', 'example.org.evil.net', false],
  ])('%s vs %s', (name, client, expected) => {
    expect(hostMatches(name, client)).toBe(expected);
  });

  test('no verified host name matches nothing', () => {
    expect(hostMatches('example.org', null)).toBe(false);
  });
});

// ---------------------------------------------------------------- 2.2: Order / Allow / Deny

describe('2.2 Order/Allow/Deny decision table (T1–T4, I30)', () => {
  const allowDeny = { allow: ['127.0.0.1', '127.0.0.2'], deny: ['127.0.0.2', '127.0.0.3'] };
  const clients = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];

  test.each([
    ['allow,deny' as const, [200, 403, 403, 403]],
    ['deny,allow' as const, [200, 200, 403, 200]],
    ['mutual-failure' as const, [200, 403, 403, 403]],
    [undefined, [200, 200, 403, 200]],
  ])('Order %s', (order, expected) => {
    const eff = merge22([scope({ host: host({ order, ...allowDeny }) })]);
    expect(clients.map((ip) => status22(eff, ip))).toEqual(expected);
  });

  test('Allow from all + Deny from all: Allow,Deny 403, Deny,Allow 200 (I30)', () => {
    const both = { allow: ['all'], deny: ['all'] };
    expect(status22(merge22([scope({ host: host({ order: 'allow,deny', ...both }) })]), '10.0.0.1')).toBe(403);
    expect(status22(merge22([scope({ host: host({ order: 'deny,allow', ...both }) })]), '10.0.0.1')).toBe(200);
  });

  test('empty lists: Allow,Deny alone denies everybody, Deny,Allow alone allows everybody', () => {
    expect(status22(merge22([scope({ host: host({ order: 'allow,deny' }) })]), '10.0.0.1')).toBe(403);
    expect(status22(merge22([scope({ host: host({ order: 'deny,allow' }) })]), '10.0.0.1')).toBe(200);
  });

  test('no Order/Allow/Deny anywhere: allowed', () => {
    expect(status22(merge22([scope({})]), '10.0.0.1')).toBe(200);
  });

  test('partial IPs, CIDR and IPv6 in Allow from', () => {
    const eff = merge22([scope({ host: host({ order: 'deny,allow', deny: ['all'], allow: ['10.1', '192.168.0.0/16', 'fe80::/10'] }) })]);
    expect(status22(eff, '10.1.7.7')).toBe(200);
    expect(status22(eff, '10.10.7.7')).toBe(403);
    expect(status22(eff, '192.168.44.1')).toBe(200);
    expect(status22(eff, 'fe80::abcd')).toBe(200);
    expect(status22(eff, '2001:db8::1')).toBe(403);
  });

  test('a never-matching word allows nobody (I20)', () => {
    const eff = merge22([scope({ host: host({ order: 'deny,allow', deny: ['all'], allow: ['127.0.0.x'] }) })]);
    expect(status22(eff, '127.0.0.1')).toBe(403);
  });

  test('host names: double-reverse name, suffix on whole labels', () => {
    const eff = merge22([scope({ host: host({ order: 'deny,allow', deny: ['all'], allow: ['.example.org'] }) })]);
    expect(status22(eff, '10.0.0.1', { hostName: 'www.example.org' })).toBe(200);
    expect(status22(eff, '10.0.0.1', { hostName: 'example.org' })).toBe(403);
    expect(status22(eff, '10.0.0.1', { hostName: 'wwwexample.org' })).toBe(403);
    expect(status22(eff, '10.0.0.1', { hostName: null })).toBe(403);
  });

  test('env=VAR is set-in-any-case (I6); env=!VAR takes the 2.4 compat meaning (I5)', () => {
    const set = merge22([scope({ host: host({ order: 'deny,allow', deny: ['all'], allow: ['env=hdrenv'] }) })]);
    expect(status22(set, '10.0.0.1')).toBe(403);
    expect(status22(set, '10.0.0.1', { env: ['HdrEnv'] })).toBe(200);
    const unset = merge22([scope({ host: host({ order: 'deny,allow', deny: ['all'], allow: ['env=!hdrenv'] }) })]);
    expect(status22(unset, '10.0.0.1')).toBe(200);
    expect(status22(unset, '10.0.0.1', { env: ['hdrenv'] })).toBe(403);
  });
});

describe('2.2 <Limit> on host rules', () => {
  test('G5: <Limit POST> Order deny,allow / Deny from all', () => {
    const eff = merge22([
      scope({ host: { orders: [{ order: 'deny,allow', methods: limit('POST') }], allows: [], denys: [entry('all', limit('POST'))] } }),
    ]);
    expect(status22(eff, '127.0.0.1')).toBe(200);
    expect(status22(eff, '127.0.0.1', { method: 'POST' })).toBe(403);
  });

  test('G6: <Limit GET> Deny from all </Limit> + Allow from 127.0.0.1', () => {
    const eff = merge22([scope({ host: { orders: [], allows: [entry('127.0.0.1')], denys: [entry('all', limit('GET'))] } })]);
    expect(status22(eff, '127.0.0.1')).toBe(200);
    expect(status22(eff, '127.0.0.5')).toBe(403);
    expect(status22(eff, '127.0.0.1', { method: 'POST' })).toBe(200);
    expect(status22(eff, '127.0.0.5', { method: 'POST' })).toBe(200);
    expect(status22(eff, '127.0.0.5', { method: 'HEAD' })).toBe(403);
  });

  test('Order set for one method only; others keep the default Deny,Allow', () => {
    const eff = merge22([
      scope({ host: { orders: [{ order: 'allow,deny', methods: limit('POST') }], allows: [entry('10.0.0.1')], denys: [] } }),
    ]);
    expect(status22(eff, '10.0.0.9')).toBe(200);
    expect(status22(eff, '10.0.0.1', { method: 'POST' })).toBe(200);
    expect(status22(eff, '10.0.0.9', { method: 'POST' })).toBe(403);
  });

  test('<LimitExcept GET> covers every other method, not HEAD', () => {
    const eff = merge22([scope({ host: { orders: [], allows: [], denys: [entry('all', limitExcept('GET'))] } })]);
    expect(status22(eff, '10.0.0.1', { method: 'HEAD' })).toBe(200);
    expect(status22(eff, '10.0.0.1', { method: 'PROPFIND' })).toBe(403);
  });
});

// ---------------------------------------------------------------- 2.2: Satisfy and authentication

describe('2.2 Satisfy with authentication (§1.1, A1–A11 "2.2 (source)")', () => {
  const denyAll = host({ order: 'deny,allow', deny: ['all'] });
  const denyAllAllow1 = host({ order: 'deny,allow', deny: ['all'], allow: ['127.0.0.1'] });
  const validUser = [require22('valid-user')];

  test('A1: Deny all + valid-user, Satisfy All: 403, credentials never asked', () => {
    const eff = merge22([scope({ host: denyAll, requires: validUser, ...AUTH })]);
    expect([none, alice, bad].map((credentials) => status22(eff, '127.0.0.1', { credentials }))).toEqual([403, 403, 403]);
  });

  test('A2: A1 + Satisfy Any: 401, good 200, bad 401', () => {
    const eff = merge22([scope({ host: denyAll, requires: validUser, satisfy: satisfyAny, ...AUTH })]);
    expect([none, alice, bad].map((credentials) => status22(eff, '127.0.0.1', { credentials }))).toEqual([401, 200, 401]);
  });

  test('A3: Satisfy Any lets the allowed address in without checking (even bad) credentials', () => {
    const eff = merge22([scope({ host: denyAllAllow1, requires: validUser, satisfy: satisfyAny, ...AUTH })]);
    expect([none, alice, bad].map((credentials) => status22(eff, '127.0.0.1', { credentials }))).toEqual([200, 200, 200]);
    expect(status22(eff, '127.0.0.5')).toBe(401);
    expect(status22(eff, '127.0.0.5', { credentials: alice, method: 'POST' })).toBe(200);
  });

  test('A4: Satisfy All needs both', () => {
    const eff = merge22([scope({ host: denyAllAllow1, requires: validUser, ...AUTH })]);
    expect([none, alice, bad].map((credentials) => status22(eff, '127.0.0.1', { credentials }))).toEqual([401, 200, 401]);
    expect(status22(eff, '127.0.0.5', { credentials: alice })).toBe(403);
  });

  test('A5/A6: host rules passing everyone + Satisfy Any = open', () => {
    const a5 = merge22([scope({ host: host({ order: 'allow,deny', allow: ['all'] }), requires: validUser, satisfy: satisfyAny, ...AUTH })]);
    const a6 = merge22([scope({ requires: validUser, satisfy: satisfyAny, ...AUTH })]);
    for (const eff of [a5, a6]) expect([none, alice, bad].map((credentials) => status22(eff, '127.0.0.5', { credentials }))).toEqual([200, 200, 200]);
  });

  test('A7: valid-user alone: 401 / 200 / 401', () => {
    const eff = merge22([scope({ requires: validUser, ...AUTH })]);
    expect([none, alice, bad].map((credentials) => status22(eff, '127.0.0.1', { credentials }))).toEqual([401, 200, 401]);
  });

  test('A9 (2.2): Deny all + Satisfy Any without Require = 403', () => {
    const eff = merge22([scope({ host: denyAll, satisfy: satisfyAny })]);
    expect(status22(eff, '127.0.0.1')).toBe(403);
  });

  test('A11 (2.2): Deny all + <Limit POST> Require valid-user + Satisfy Any: GET 403, POST authenticates', () => {
    const eff = merge22([scope({ host: denyAll, requires: [require22('valid-user', limit('POST'))], satisfy: satisfyAny, ...AUTH })]);
    expect(status22(eff, '127.0.0.1')).toBe(403);
    expect(status22(eff, '127.0.0.1', { credentials: alice })).toBe(403);
    expect(status22(eff, '127.0.0.1', { method: 'POST' })).toBe(401);
    expect(status22(eff, '127.0.0.1', { method: 'POST', credentials: alice })).toBe(200);
  });

  test('G2: <Limit POST> Require valid-user only: GET needs no authentication', () => {
    const eff = merge22([scope({ requires: [require22('valid-user', limit('POST'))], ...AUTH })]);
    expect(status22(eff, '127.0.0.1')).toBe(200);
    expect(status22(eff, '127.0.0.1', { method: 'HEAD' })).toBe(200);
    expect(status22(eff, '127.0.0.1', { method: 'POST' })).toBe(401);
  });

  test('G10: Deny all + valid-user + <Limit POST> Satisfy Any </Limit>: GET +good 403, POST +good 200', () => {
    const eff = merge22([scope({ host: denyAll, requires: validUser, satisfy: [{ value: 'any', methods: limit('POST') }], ...AUTH })]);
    expect(status22(eff, '127.0.0.1', { credentials: alice })).toBe(403);
    expect(status22(eff, '127.0.0.1', { credentials: alice, method: 'POST' })).toBe(200);
  });

  test('Require without AuthType: 500 "AuthType not set!" once authentication is reached', () => {
    const eff = merge22([scope({ host: denyAllAllow1, requires: validUser })]);
    expect(status22(eff, '127.0.0.1', { credentials: alice })).toBe(500);
    expect(status22(eff, '127.0.0.5')).toBe(403); // host rules refuse first under Satisfy All
  });

  test('AuthType without Require does nothing in 2.2 (F22 "2.2: 200")', () => {
    expect(status22(merge22([scope({ ...AUTH })]), '127.0.0.1')).toBe(200);
  });
});

describe('2.2 authorization modules and Authoritative (§4)', () => {
  const userAndGroup = [require22('user bob'), require22('group admins')];

  test('F24 (2.2 modules): Require user bob refuses alice; Require group admins admits her', () => {
    expect(status22(merge22([scope({ requires: [require22('user bob')], ...AUTH })]), '10.0.0.1', { credentials: alice })).toBe(401);
    expect(status22(merge22([scope({ requires: [require22('group admins')], ...AUTH })]), '10.0.0.1', { credentials: alice })).toBe(200);
  });

  test('user + group lines: authoritative mod_authz_user refuses alice before groups are looked at', () => {
    const eff = merge22([scope({ requires: userAndGroup, ...AUTH })]);
    expect(status22(eff, '10.0.0.1', { credentials: alice })).toBe(401);
    expect(status22(eff, '10.0.0.1', { credentials: bob })).toBe(200);
  });

  test('AuthzUserAuthoritative Off passes alice on to mod_authz_groupfile', () => {
    const eff = merge22([scope({ requires: userAndGroup, ...AUTH, authoritative: { user: false } })]);
    expect(status22(eff, '10.0.0.1', { credentials: alice })).toBe(200);
    expect(status22(eff, '10.0.0.1', { credentials: { kind: 'user', user: 'carol', groups: ['staff'] } })).toBe(401);
  });

  test('all Off but default: 401 from mod_authz_default; AuthzDefaultAuthoritative Off too: 500', () => {
    const carol: Request['credentials'] = { kind: 'user', user: 'carol', groups: [] };
    const offs = { user: false, groupFile: false };
    expect(status22(merge22([scope({ requires: userAndGroup, ...AUTH, authoritative: offs })]), '10.0.0.1', { credentials: carol })).toBe(401);
    const allOff = merge22([scope({ requires: userAndGroup, ...AUTH, authoritative: { ...offs, default: false } })]);
    expect(status22(allOff, '10.0.0.1', { credentials: carol })).toBe(500);
    expect(status22(allOff, '10.0.0.1', { credentials: bob })).toBe(200);
  });

  test('valid-user wins over any user line', () => {
    const eff = merge22([scope({ requires: [require22('user bob'), require22('valid-user')], ...AUTH })]);
    expect(status22(eff, '10.0.0.1', { credentials: alice })).toBe(200);
  });

  test('a Require word no 2.2 module owns reaches mod_authz_default: 401 after authentication (500 without AuthType)', () => {
    const eff = merge22([scope({ requires: [require22('all granted')], ...AUTH })]);
    expect(status22(eff, '10.0.0.1')).toBe(401);
    expect(status22(eff, '10.0.0.1', { credentials: alice })).toBe(401);
    expect(status22(merge22([scope({ requires: [require22('all granted')] })]), '10.0.0.1', { credentials: alice })).toBe(500);
    const off = merge22([scope({ requires: [require22('ldap-group cn=x')], ...AUTH, authoritative: { default: false } })]);
    expect(status22(off, '10.0.0.1', { credentials: alice })).toBe(500);
  });

  test('group names: AuthGroupFile compares case-insensitively, AuthDBMGroupFile exactly', () => {
    const upper: Request['credentials'] = { kind: 'user', user: 'dave', groups: ['ADMINS'] };
    expect(status22(merge22([scope({ requires: [require22('group admins')], ...AUTH })]), '10.0.0.1', { credentials: upper })).toBe(200);
    const dbm = merge22([scope({ requires: [require22('group admins')], ...AUTH, dbmGroups: true })]);
    expect(status22(dbm, '10.0.0.1', { credentials: upper })).toBe(401);
    expect(status22(dbm, '10.0.0.1', { credentials: alice })).toBe(200);
  });

  test('file-owner against the served file; without a known file it never matches', () => {
    const eff = merge22([scope({ requires: [require22('file-owner')], ...AUTH })]);
    expect(status22(eff, '10.0.0.1', { credentials: alice, file: { owner: 'alice', group: 'www' } })).toBe(200);
    expect(status22(eff, '10.0.0.1', { credentials: bob, file: { owner: 'alice', group: 'www' } })).toBe(401);
    expect(status22(eff, '10.0.0.1', { credentials: alice })).toBe(401);
  });
});

// ---------------------------------------------------------------- 2.2 merging

describe('merge22 (§3) and the D cases in 2.2 terms', () => {
  const parentD1 = scope({
    host: host({ order: 'deny,allow', deny: ['all'], allow: ['127.0.0.1'] }),
    requires: [require22('valid-user')],
    satisfy: satisfyAny,
    ...AUTH,
  });
  const ips = ['127.0.0.1', '127.0.0.5', '127.0.0.9'];

  test('D1 (2.2): child with only Allow keeps Satisfy Any; its fresh record passes everyone: 200 all', () => {
    const eff = merge22([parentD1, scope({ host: host({ allow: ['127.0.0.5'] }) })]);
    expect(ips.map((ip) => status22(eff, ip))).toEqual([200, 200, 200]);
  });

  test('D2 (2.2): child with only Satisfy Any keeps the parent Deny: 401 / good 200', () => {
    const parent = scope({ host: host({ order: 'deny,allow', deny: ['all'] }), requires: [require22('valid-user')], ...AUTH });
    const eff = merge22([parent, scope({ satisfy: satisfyAny })]);
    expect(ips.map((ip) => status22(eff, ip))).toEqual([401, 401, 401]);
    expect(status22(eff, '127.0.0.5', { credentials: alice })).toBe(200);
  });

  test("D3: the parent's Order does not apply to the child's lines", () => {
    const eff = merge22([scope({ host: host({ order: 'allow,deny', allow: ['127.0.0.5'] }) }), scope({ host: host({ allow: ['127.0.0.1'] }) })]);
    expect(ips.map((ip) => status22(eff, ip))).toEqual([200, 200, 200]);
  });

  test('D4: child with only Order allow,deny denies all', () => {
    const eff = merge22([scope({ host: host({ order: 'deny,allow', deny: ['all'] }) }), scope({ host: host({ order: 'allow,deny' }) })]);
    expect(ips.map((ip) => status22(eff, ip))).toEqual([403, 403, 403]);
  });

  test('D5: child with only Deny from .5', () => {
    const eff = merge22([scope({ host: host({ order: 'allow,deny', allow: ['all'] }) }), scope({ host: host({ deny: ['127.0.0.5'] }) })]);
    expect(ips.map((ip) => status22(eff, ip))).toEqual([200, 403, 200]);
  });

  test('D6: child with only Order deny,allow allows all', () => {
    const eff = merge22([scope({ host: host({ order: 'deny,allow', deny: ['all'] }) }), scope({ host: host({ order: 'deny,allow' }) })]);
    expect(ips.map((ip) => status22(eff, ip))).toEqual([200, 200, 200]);
  });

  test('D7: child without access directives inherits everything', () => {
    const eff = merge22([parentD1, scope({})]);
    expect(ips.map((ip) => status22(eff, ip))).toEqual([200, 401, 401]);
  });

  test('D8: the innermost (Location, merged last) record wins', () => {
    const eff = merge22([scope({ host: host({ allow: ['all'] }) }), scope({ host: host({ order: 'deny,allow', deny: ['all'] }) })]);
    expect(status22(eff, '127.0.0.1')).toBe(403);
  });

  test('Require: a child with any Require line (any method) replaces all of the parent', () => {
    const eff = merge22([
      scope({ requires: [require22('valid-user')], ...AUTH }),
      scope({ requires: [require22('user bob', limit('POST'))] }),
    ]);
    expect(eff.requires).toEqual([require22('user bob', limit('POST'))]);
    expect(status22(eff, '10.0.0.1')).toBe(200);
    expect(status22(eff, '10.0.0.1', { method: 'POST', credentials: alice })).toBe(401);
  });

  test('Satisfy per method: the nearest scope setting it for that method', () => {
    const eff = merge22([
      scope({ host: host({ order: 'deny,allow', deny: ['all'] }), requires: [require22('valid-user')], satisfy: satisfyAny, ...AUTH }),
      scope({ satisfy: [{ value: 'all', methods: limit('POST') }] }),
    ]);
    expect(status22(eff, '10.0.0.1', { credentials: alice })).toBe(200);
    expect(status22(eff, '10.0.0.1', { credentials: alice, method: 'POST' })).toBe(403);
  });

  test('AuthType, AuthDBMGroupFile and each Authoritative flag inherit independently', () => {
    const eff = merge22([
      scope({ authType: 'Basic', dbmGroups: true, authoritative: { user: false, dbm: false } }),
      scope({ authoritative: { user: true } }),
      scope({}),
    ]);
    expect(eff.authType).toBe('Basic');
    expect(eff.dbmGroups).toBe(true);
    expect(eff.authoritative).toEqual({ user: true, groupFile: true, dbm: false, owner: true, default: true });
    expect(merge22([scope({})]).authoritative).toEqual({ user: true, groupFile: true, dbm: true, owner: true, default: true });
    expect(merge22([scope({})]).dbmGroups).toBe(false);
  });
});

// ---------------------------------------------------------------- 2.4 evaluation

describe('evaluate24 (mod_authz_core)', () => {
  const r = (ip: string, more: Partial<Request> = {}) => request(ip, more);

  test('no Require at all: granted, or 500 AH01627 with AuthType (F22)', () => {
    expect(evaluate24(null, null, r('10.0.0.1'))).toBe(200);
    expect(evaluate24(null, 'Basic', r('10.0.0.1'))).toBe(500);
  });

  test('F3 / F6: RequireAll granted + not ip; same via RequireNone', () => {
    for (const tree of [all(leaf('all', ['granted']), not('ip', ['127.0.0.5'])), all(leaf('all', ['granted']), noneOf(leaf('ip', ['127.0.0.5'])))]) {
      expect(evaluate24(tree, null, r('127.0.0.1'))).toBe(200);
      expect(evaluate24(tree, null, r('127.0.0.5'))).toBe(403);
    }
  });

  test('F16 / F17: env and not env', () => {
    expect(evaluate24(leaf('env', ['hdrenv']), null, r('10.0.0.1'))).toBe(403);
    expect(evaluate24(leaf('env', ['hdrenv']), null, r('10.0.0.1', { env: ['HDRENV'] }))).toBe(200);
    const negated = all(leaf('all', ['granted']), not('env', ['hdrenv']));
    expect(evaluate24(negated, null, r('10.0.0.1'))).toBe(200);
    expect(evaluate24(negated, null, r('10.0.0.1', { env: ['hdrenv'] }))).toBe(403);
  });

  test('F18: Require all denied with auth configured never prompts', () => {
    for (const credentials of [none, alice, bad]) expect(evaluate24(leaf('all', ['denied']), 'Basic', r('10.0.0.1', { credentials }))).toBe(403);
  });

  test('F19: RequireAny { all denied, valid-user }: 401, good 200', () => {
    const tree = any(leaf('all', ['denied']), leaf('valid-user'));
    expect(evaluate24(tree, 'Basic', r('10.0.0.1'))).toBe(401);
    expect(evaluate24(tree, 'Basic', r('10.0.0.1', { credentials: alice }))).toBe(200);
    expect(evaluate24(tree, 'Basic', r('10.0.0.1', { credentials: bad }))).toBe(401);
  });

  test('F20: RequireAll { valid-user, ip .1 }: .1 401 / good 200; .5 403 even with good credentials', () => {
    const tree = all(leaf('valid-user'), leaf('ip', ['127.0.0.1']));
    expect(evaluate24(tree, 'Basic', r('127.0.0.1'))).toBe(401);
    expect(evaluate24(tree, 'Basic', r('127.0.0.1', { credentials: alice }))).toBe(200);
    expect(evaluate24(tree, 'Basic', r('127.0.0.5', { credentials: alice }))).toBe(403);
  });

  test('F21: valid-user without AuthType is 500 (AH00027)', () => {
    expect(evaluate24(leaf('valid-user'), null, r('10.0.0.1', { credentials: alice }))).toBe(500);
  });

  test('F24: user and group providers', () => {
    expect(evaluate24(leaf('user', ['bob']), 'Basic', r('10.0.0.1', { credentials: alice }))).toBe(401);
    expect(evaluate24(leaf('group', ['admins']), 'Basic', r('10.0.0.1', { credentials: alice }))).toBe(200);
  });

  test('F26: implicit RequireAny of valid-user and ip', () => {
    const tree = any(leaf('valid-user'), leaf('ip', ['127.0.0.1']));
    expect(evaluate24(tree, 'Basic', r('127.0.0.1'))).toBe(200);
    expect(evaluate24(tree, 'Basic', r('127.0.0.5'))).toBe(401);
    expect(evaluate24(tree, 'Basic', r('127.0.0.5', { credentials: alice }))).toBe(200);
  });

  test('G1: <Limit GET> valid-user + ip .5: GET is an OR, POST only ip', () => {
    const tree = any(leaf('valid-user', [], limit('GET')), leaf('ip', ['127.0.0.5']));
    const cases: [string, string, Request['credentials'], number][] = [
      ['GET', '127.0.0.1', none, 401],
      ['GET', '127.0.0.1', alice, 200],
      ['GET', '127.0.0.5', none, 200],
      ['POST', '127.0.0.1', none, 403],
      ['POST', '127.0.0.1', alice, 403],
      ['POST', '127.0.0.5', none, 200],
    ];
    for (const [method, ip, credentials, expected] of cases) expect(evaluate24(tree, 'Basic', r(ip, { method, credentials }))).toBe(expected);
  });

  test('G2 / G3: a method no Require line covers is granted', () => {
    const g2 = leaf('valid-user', [], limit('POST'));
    expect(evaluate24(g2, 'Basic', r('10.0.0.1'))).toBe(200);
    expect(evaluate24(g2, 'Basic', r('10.0.0.1', { method: 'POST' }))).toBe(401);
    const g3 = leaf('valid-user', [], limitExcept('GET'));
    expect(evaluate24(g3, 'Basic', r('10.0.0.1', { method: 'HEAD' }))).toBe(200);
    expect(evaluate24(g3, 'Basic', r('10.0.0.1', { method: 'DELETE' }))).toBe(401);
  });

  test('G4 / G7: <Limit GET> granted beside an unlimited line', () => {
    const g4 = any(leaf('all', ['granted'], limit('GET')), leaf('all', ['denied']));
    expect(evaluate24(g4, null, r('10.0.0.1'))).toBe(200);
    expect(evaluate24(g4, null, r('10.0.0.1', { method: 'POST' }))).toBe(403);
    const g7 = any(leaf('valid-user', [], limit('GET')), leaf('all', ['granted']));
    expect(evaluate24(g7, 'Basic', r('10.0.0.1'))).toBe(200);
    expect(evaluate24(g7, 'Basic', r('10.0.0.1', { method: 'POST' }))).toBe(200);
  });

  test('a line limited to other methods is GRANTED inside RequireAll, NEUTRAL inside RequireAny', () => {
    const inAll = all(leaf('ip', ['10.0.0.1']), leaf('all', ['denied'], limit('POST')));
    expect(evaluate24(inAll, null, r('10.0.0.1'))).toBe(200);
    expect(evaluate24(inAll, null, r('10.0.0.1', { method: 'POST' }))).toBe(403);
    // A RequireAny whose lines are all limited to POST is itself limited to POST: GRANTED for GET inside the RequireAll.
    const inAny = all(leaf('ip', ['10.0.0.1']), any(leaf('all', ['denied'], limit('POST')), leaf('ip', ['10.9.9.9'], limit('POST'))));
    expect(evaluate24(inAny, null, r('10.0.0.1'))).toBe(200);
    expect(evaluate24(inAny, null, r('10.0.0.1', { method: 'POST' }))).toBe(403);
  });

  test('a negated line answers NEUTRAL when it does not match: alone in a RequireAll it cannot grant', () => {
    // Not a loadable tree (F2), evaluated anyway: NEUTRAL at the root is 403.
    expect(evaluate24(all(not('ip', ['10.9.9.9'])), null, r('10.0.0.1'))).toBe(403);
  });

  test('host provider: unresolvable client is denied, negation then neutral', () => {
    const tree = all(leaf('all', ['granted']), not('host', ['example.org']));
    expect(evaluate24(tree, null, r('10.0.0.1', { hostName: null }))).toBe(200);
    expect(evaluate24(tree, null, r('10.0.0.1', { hostName: 'www.example.org' }))).toBe(403);
  });

  test('expr is outside the model', () => {
    expect(() => evaluate24(leaf('expr', ['%{REMOTE_ADDR} == "1"']), null, r('10.0.0.1'))).toThrow();
  });
});

describe('checkRequireTree (§7.1, F*)', () => {
  test('loadable trees', () => {
    expect(checkRequireTree(all(leaf('all', ['granted']), not('ip', ['1.2.3.4'])))).toEqual([]);
    expect(checkRequireTree(any(leaf('ip', ['10.1', '::1']), leaf('valid-user', [], limit('POST'))))).toEqual([]);
    expect(checkRequireTree(null)).toEqual([]);
  });

  test.each([
    ['F1: Require not directly in the section', not('ip', ['127.0.0.5']), 'negative Require directive has no effect in <RequireAny> directive'],
    ['F5: Require not inside RequireAny', all(leaf('all', ['granted']), any(leaf('ip', ['10.1']), not('ip', ['1.2.3.4']))), 'negative Require directive has no effect in <RequireAny> directive'],
    ['F2: RequireAll with only negatives', any(leaf('ip', ['10.1']), all(not('ip', ['1.2.3.4']))), 'AH01624: <RequireAll> directive contains only negative authorization directives'],
    ['F4: RequireNone directly in the section', noneOf(leaf('ip', ['1.2.3.4'])), '<RequireNone> directive has no effect in <RequireAny> directive'],
    ['empty container', all(), '<RequireAll> directive contains no authorization directives'],
    ['F23', leaf('all', ['granted', 'denied']), "Argument for 'Require all' must be 'granted' or 'denied'"],
    ['F12', leaf('ip', ['127.0.0.1/33']), "ip address '127.0.0.1/33' appears to be invalid: The specified network mask is invalid."],
    ['F13', leaf('ip', ['foo.example']), "ip address 'foo.example' appears to be invalid"],
    ['F31', leaf('ip', ['127.0.0.1,127.0.0.5']), "ip address '127.0.0.1,127.0.0.5' appears to be invalid"],
    ['F25', leaf('ip', []), "'require ip' requires an argument"],
    ['unknown provider', leaf('frobnicate', ['x']), 'Unknown Authz provider: frobnicate'],
    ['TRACE in <Limit>', leaf('all', ['denied'], limit('TRACE')), 'TRACE cannot be controlled by <Limit>, see TraceEnable'],
  ])('%s', (_name, tree, error) => {
    expect(checkRequireTree(tree)).toContain(error);
  });
});
