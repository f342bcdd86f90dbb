/**
 * compileEffective + emitRequire on typical 2.2 access blocks: the exact 2.4
 * text, that httpd would load it (checkRequireTree), and that it answers like
 * 2.2 on a sweep of requests.
 */
import { merge22 } from '../src/semantics/access/merge22';
import { evaluate22 } from '../src/semantics/access/eval22';
import { checkRequireTree, evaluate24 } from '../src/semantics/access/eval24';
import { CompileResult, compileEffective } from '../src/semantics/access/compile';
import { emitRequire } from '../src/semantics/access/emit';
import {
  ALL_METHODS,
  AccessEntry,
  AuthRequire,
  Effective22,
  MethodMask,
  Order,
  Request,
  RequireNode,
  ScopeRules22,
} from '../src/semantics/access/types';
import { hostEntry, limit, limitExcept } from './support/access-model';

function entries(words: string, methods: MethodMask = ALL_METHODS): AccessEntry[] {
  return words.split(' ').map((word) => hostEntry(word, methods));
}

interface Block {
  order?: Order;
  allow?: string;
  deny?: string;
  /** Extra entries with their own masks. */
  allows?: AccessEntry[];
  denys?: AccessEntry[];
  orders?: { order: Order; methods: MethodMask }[];
  require?: (string | AuthRequire)[];
  satisfy?: 'any' | 'all';
  satisfyFor?: { value: 'any' | 'all'; methods: MethodMask }[];
  authType?: string | null;
  dbm?: boolean;
  authoritative?: ScopeRules22['authoritative'];
}

function effective(b: Block): Effective22 {
  const hasHost = b.order || b.allow || b.deny || b.allows || b.denys || b.orders;
  const rules: ScopeRules22 = {
    host: hasHost
      ? {
          orders: b.orders ?? (b.order ? [{ order: b.order, methods: ALL_METHODS }] : []),
          allows: [...(b.allow ? entries(b.allow) : []), ...(b.allows ?? [])],
          denys: [...(b.deny ? entries(b.deny) : []), ...(b.denys ?? [])],
        }
      : null,
    requires: b.require ? b.require.map((r) => (typeof r === 'string' ? { words: r.split(' '), methods: ALL_METHODS } : r)) : null,
    satisfy: [...(b.satisfy ? [{ value: b.satisfy, methods: ALL_METHODS }] : []), ...(b.satisfyFor ?? [])],
    authType: b.authType === undefined ? (b.require ? 'Basic' : null) : b.authType,
    dbmGroups: b.dbm ?? null,
    authoritative: b.authoritative ?? {},
  };
  return merge22([rules]);
}

const UNIVERSE = ['GET', 'POST', 'PUT'];

function text(tree: RequireNode | null): string {
  return emitRequire(tree)
    .map((l) => '  '.repeat(l.depth) + l.text)
    .join('\n');
}

// A sweep of requests touching every spec used below, inside and outside.
const IPS = ['10.0.0.1', '10.1.2.3', '10.1.9.9', '10.2.0.1', '192.168.1.7', '192.168.2.7', '1.2.3.4', '127.0.0.1', '::1', 'fe80::1'];
const HOSTS = [null, 'www.example.org', 'example.org', 'other.net'];
const ENVS = [[], ['lan'], ['bot', 'blocked']];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'];
const CREDS: Request['credentials'][] = [
  { kind: 'none' },
  { kind: 'bad' },
  { kind: 'user', user: 'alice', groups: ['admins'] },
  { kind: 'user', user: 'bob', groups: [] },
  { kind: 'user', user: 'carol', groups: ['staff'] },
];

function* sweep(): Generator<Request> {
  for (const ip of IPS)
    for (const hostName of HOSTS)
      for (const env of ENVS)
        for (const method of METHODS)
          for (const credentials of CREDS) yield { ip, hostName, env, method, credentials, file: { owner: 'bob', group: 'staff' } };
}

/** Compiles, checks loadability and equivalence on the sweep, returns the emitted text and notes. */
function compiled(b: Block): { text: string; notes: string[] } {
  const eff = effective(b);
  const result: CompileResult = compileEffective(eff, UNIVERSE);
  if ('unsupported' in result) throw new Error(`unsupported: ${result.unsupported}`);
  expect(checkRequireTree(result.tree)).toEqual([]);
  for (const req of sweep()) {
    const want = evaluate22(eff, req);
    const got = evaluate24(result.tree, eff.authType, req);
    if (got !== want) throw new Error(`${JSON.stringify(req)}: 2.2 ${want}, compiled ${got}\n${text(result.tree)}`);
  }
  return { text: text(result.tree), notes: result.notes };
}

function unsupported(b: Block): string {
  const result = compileEffective(effective(b), UNIVERSE);
  if (!('unsupported' in result)) throw new Error(`expected unsupported, got:\n${text(result.tree)}`);
  return result.unsupported;
}

describe('host rules', () => {
  test('Order allow,deny + Allow from all', () => {
    expect(compiled({ order: 'allow,deny', allow: 'all' }).text).toBe('Require all granted');
  });

  test('Order deny,allow + Deny from all', () => {
    expect(compiled({ order: 'deny,allow', deny: 'all' }).text).toBe('Require all denied');
  });

  test('Order deny,allow + Deny from all + Allow from 10.0.0.0/8 192.168.1', () => {
    expect(compiled({ order: 'deny,allow', deny: 'all', allow: '10.0.0.0/8 192.168.1' }).text).toBe('Require ip 10.0.0.0/8 192.168.1');
  });

  test('Allow,Deny with Allow from all + Deny from 1.2.3.4', () => {
    expect(compiled({ order: 'allow,deny', allow: 'all', deny: '1.2.3.4' }).text).toBe(
      ['<RequireAll>', '  Require all granted', '  Require not ip 1.2.3.4', '</RequireAll>'].join('\n'),
    );
  });

  test('Deny,Allow with only Deny lines: everyone but them', () => {
    expect(compiled({ deny: '1.2.3.4 .example.org' }).text).toBe(
      ['<RequireAll>', '  Require all granted', '  Require not ip 1.2.3.4', '  Require not host .example.org', '</RequireAll>'].join('\n'),
    );
  });

  test('one line per kind, kinds in order of first appearance', () => {
    expect(compiled({ order: 'deny,allow', deny: 'all', allow: '10.1 env=lan .example.org 192.168.1' }).text).toBe(
      ['Require ip 10.1 192.168.1', 'Require env lan', 'Require host .example.org'].join('\n'),
    );
  });

  test('Allow,Deny with both sides restricted', () => {
    expect(compiled({ order: 'allow,deny', allow: '10.0.0.0/8', deny: '10.1.2.3 env=blocked' }).text).toBe(
      ['<RequireAll>', '  Require ip 10.0.0.0/8', '  Require not ip 10.1.2.3', '  Require not env blocked', '</RequireAll>'].join('\n'),
    );
  });

  test('Mutual-failure is Allow,Deny', () => {
    expect(compiled({ order: 'mutual-failure', allow: '10.1', deny: '10.1.2.3' }).text).toBe(
      ['<RequireAll>', '  Require ip 10.1', '  Require not ip 10.1.2.3', '</RequireAll>'].join('\n'),
    );
  });

  test('Deny,Allow with both sides restricted: allowed or not denied', () => {
    expect(compiled({ order: 'deny,allow', allow: '10.1.2.3', deny: '10.1' }).text).toBe(
      ['Require ip 10.1.2.3', '<RequireAll>', '  Require all granted', '  Require not ip 10.1', '</RequireAll>'].join('\n'),
    );
  });

  test('env=! takes the 2.4 compat meaning, with a note', () => {
    const out = compiled({ order: 'deny,allow', deny: 'all', allow: 'env=!bot' });
    expect(out.text).toBe(['<RequireAll>', '  Require all granted', '  Require not env bot', '</RequireAll>'].join('\n'));
    expect(out.notes.join('\n')).toMatch(/env=!bot/);
  });

  test('a never-matching word is dropped, with a note', () => {
    const out = compiled({ order: 'deny,allow', deny: 'all', allow: '127.0.0.x 10.1' });
    expect(out.text).toBe('Require ip 10.1');
    expect(out.notes.join('\n')).toMatch(/127\.0\.0\.x/);
  });

  test('G6: <Limit GET> Deny from all </Limit> + Allow from 127.0.0.1', () => {
    expect(compiled({ denys: entries('all', limit('GET')), allow: '127.0.0.1' }).text).toBe(
      ['<Limit GET>', '  Require ip 127.0.0.1', '</Limit>'].join('\n'),
    );
  });

  test('G5: <Limit POST PUT> Order deny,allow + Deny from all </Limit>', () => {
    expect(compiled({ orders: [{ order: 'deny,allow', methods: limit('POST', 'PUT') }], denys: entries('all', limit('POST', 'PUT')) }).text).toBe(
      ['<Limit POST PUT>', '  Require all denied', '</Limit>'].join('\n'),
    );
  });

  test('<LimitExcept GET> Deny from all', () => {
    expect(compiled({ denys: entries('all', limitExcept('GET')) }).text).toBe(
      ['<LimitExcept GET>', '  Require all denied', '</LimitExcept>'].join('\n'),
    );
  });

  test('a method named only in the rules (not in the universe) gets its own class', () => {
    expect(compiled({ denys: entries('all', limit('DELETE')) }).text).toBe(['<Limit DELETE>', '  Require all denied', '</Limit>'].join('\n'));
  });

  test('nothing in effect: no tree', () => {
    const result = compileEffective(effective({}), UNIVERSE);
    expect(result).toEqual({ tree: null, notes: [] });
  });
});

describe('host rules with Require', () => {
  test('Satisfy All + Deny from all + valid-user: nobody gets in', () => {
    expect(compiled({ order: 'deny,allow', deny: 'all', require: ['valid-user'] }).text).toBe('Require all denied');
  });

  test('Satisfy All + allowed network + valid-user: RequireAll', () => {
    expect(compiled({ order: 'deny,allow', deny: 'all', allow: '10.1', require: ['valid-user'] }).text).toBe(
      ['<RequireAll>', '  Require ip 10.1', '  Require valid-user', '</RequireAll>'].join('\n'),
    );
  });

  test('Satisfy Any + allowed network + valid-user: the implicit RequireAny', () => {
    expect(compiled({ order: 'deny,allow', deny: 'all', allow: '10.1', require: ['valid-user'], satisfy: 'any' }).text).toBe(
      ['Require ip 10.1', 'Require valid-user'].join('\n'),
    );
  });

  test('Satisfy Any + Deny from all + valid-user: authentication decides', () => {
    expect(compiled({ order: 'deny,allow', deny: 'all', require: ['valid-user'], satisfy: 'any' }).text).toBe('Require valid-user');
  });

  test('Satisfy Any + Allow from all + valid-user: open', () => {
    expect(compiled({ order: 'allow,deny', allow: 'all', require: ['valid-user'], satisfy: 'any' }).text).toBe('Require all granted');
  });

  test('Satisfy All + "everyone but" + valid-user', () => {
    expect(compiled({ deny: '1.2.3.4', require: ['valid-user'] }).text).toBe(
      ['<RequireAll>', '  Require not ip 1.2.3.4', '  Require valid-user', '</RequireAll>'].join('\n'),
    );
  });

  test('Satisfy Any + "everyone but" + valid-user', () => {
    expect(compiled({ deny: '1.2.3.4', order: 'allow,deny', allow: '10.0.0.0/8', require: ['valid-user'], satisfy: 'any' }).text).toBe(
      ['<RequireAll>', '  Require ip 10.0.0.0/8', '  Require not ip 1.2.3.4', '</RequireAll>', 'Require valid-user'].join('\n'),
    );
  });

  test('<Limit POST PUT> Require valid-user under Satisfy All: shared RequireAll, masked remainder', () => {
    const require = [{ words: ['valid-user'], methods: limit('POST', 'PUT') }];
    expect(compiled({ order: 'deny,allow', deny: 'all', allow: '10.0.0.0/8', require }).text).toBe(
      ['<RequireAll>', '  Require ip 10.0.0.0/8', '  <Limit POST PUT>', '    Require valid-user', '  </Limit>', '</RequireAll>'].join('\n'),
    );
  });

  test('A11 shape (2.2): Satisfy Any + <Limit POST> Require valid-user: GET by address only', () => {
    const require = [{ words: ['valid-user'], methods: limit('POST') }];
    expect(compiled({ order: 'deny,allow', deny: 'all', allow: '10.1', require, satisfy: 'any' }).text).toBe(
      ['Require ip 10.1', '<Limit POST>', '  Require valid-user', '</Limit>'].join('\n'),
    );
  });

  test('G2: <Limit POST> Require valid-user alone', () => {
    expect(compiled({ require: [{ words: ['valid-user'], methods: limit('POST') }] }).text).toBe(
      ['<Limit POST>', '  Require valid-user', '</Limit>'].join('\n'),
    );
  });

  test('G10: <Limit POST> Satisfy Any', () => {
    expect(compiled({ order: 'deny,allow', deny: 'all', allow: '10.1', require: ['valid-user'], satisfyFor: [{ value: 'any', methods: limit('POST') }] }).text).toBe(
      ['<LimitExcept POST>', '  <RequireAll>', '    Require ip 10.1', '    Require valid-user', '  </RequireAll>', '</LimitExcept>', '<Limit POST>', '  Require ip 10.1', '  Require valid-user', '</Limit>'].join('\n'),
    );
  });

  test('AuthType without Require: Require all granted, with a note', () => {
    const out = compiled({ authType: 'Basic' });
    expect(out.text).toBe('Require all granted');
    expect(out.notes.join('\n')).toMatch(/AH01627/);
  });
});

describe('Require lines (§4)', () => {
  test('valid-user dominates', () => {
    expect(compiled({ require: ['user bob', 'valid-user', 'group admins'] }).text).toBe('Require valid-user');
  });

  test('authoritative user lines make group lines irrelevant', () => {
    expect(compiled({ require: ['user bob carol', 'group admins'] }).text).toBe('Require user bob carol');
  });

  test('AuthzUserAuthoritative Off: users or groups', () => {
    expect(compiled({ require: ['user bob', 'group admins', 'user carol'], authoritative: { user: false } }).text).toBe(
      ['Require user bob carol', 'Require group admins'].join('\n'),
    );
  });

  test('group lines alone; AuthDBMGroupFile makes them dbm-group', () => {
    expect(compiled({ require: ['group admins staff'] }).text).toBe('Require group admins staff');
    expect(compiled({ require: ['group admins'], dbm: true }).text).toBe('Require dbm-group admins');
  });

  test('file-owner / file-group (dbm-file-group with AuthDBMGroupFile)', () => {
    expect(compiled({ require: ['file-owner'] }).text).toBe('Require file-owner');
    expect(compiled({ require: ['file-group'] }).text).toBe('Require file-group');
    expect(compiled({ require: ['file-group'], dbm: true }).text).toBe('Require dbm-file-group');
  });

  test('Authoritative Off down to the group module, default On: same grants, 401 otherwise', () => {
    expect(compiled({ require: ['group admins'], authoritative: { groupFile: false } }).text).toBe('Require group admins');
  });
});

describe('unsupported: a human must look', () => {
  test.each<[string, Block, RegExp]>([
    ['Require without AuthType', { require: ['valid-user'], authType: null }, /AuthType/],
    ['AuthzDefaultAuthoritative Off with a fall-through', { require: ['group admins'], authoritative: { groupFile: false, default: false } }, /500/],
    ['a word no 2.2 module owns', { require: ['ldap-group cn=admins'] }, /ldap-group/],
    ['file-owner beside user', { require: ['file-owner', 'user bob'] }, /hook order/],
    ['Require user with no names', { require: ['user'] }, /refuses everyone/],
  ])('%s', (_name, block, reason) => {
    expect(unsupported(block)).toMatch(reason);
  });

  test('Require without AuthType is fine where authentication is never reached', () => {
    expect(compiled({ order: 'deny,allow', deny: 'all', require: ['valid-user'], authType: null }).text).toBe('Require all denied');
  });
});

describe('emitRequire', () => {
  test('a null tree emits nothing', () => {
    expect(emitRequire(null)).toEqual([]);
  });

  test('depths, RequireNone, quoting, HEAD folded into GET, shared <Limit> for adjacent lines', () => {
    const tree: RequireNode = {
      kind: 'any',
      children: [
        { kind: 'require', provider: 'env', args: ['has space', ''], negate: false },
        { kind: 'require', provider: 'user', args: ['a'], negate: false, methods: limit('GET', 'HEAD', 'POST') },
        { kind: 'require', provider: 'group', args: ['g'], negate: false, methods: limit('POST', 'GET') },
        {
          kind: 'all',
          children: [
            { kind: 'require', provider: 'all', args: ['granted'], negate: false },
            { kind: 'none', children: [{ kind: 'require', provider: 'ip', args: ['1.2.3.4'], negate: false }] },
          ],
        },
      ],
    };
    expect(emitRequire(tree)).toEqual([
      { text: 'Require env "has space" ""', depth: 0 },
      { text: '<Limit GET POST>', depth: 0 },
      { text: 'Require user a', depth: 1 },
      { text: 'Require group g', depth: 1 },
      { text: '</Limit>', depth: 0 },
      { text: '<RequireAll>', depth: 0 },
      { text: 'Require all granted', depth: 1 },
      { text: '<RequireNone>', depth: 1 },
      { text: 'Require ip 1.2.3.4', depth: 2 },
      { text: '</RequireNone>', depth: 1 },
      { text: '</RequireAll>', depth: 0 },
    ]);
  });

  test('a root that is not a RequireAny is written as its own block', () => {
    expect(text({ kind: 'all', children: [{ kind: 'require', provider: 'valid-user', args: [], negate: false }, { kind: 'require', provider: 'ip', args: ['10.1'], negate: false }], methods: limitExcept('GET') })).toBe(
      ['<LimitExcept GET>', '  <RequireAll>', '    Require valid-user', '    Require ip 10.1', '  </RequireAll>', '</LimitExcept>'].join('\n'),
    );
  });
});
