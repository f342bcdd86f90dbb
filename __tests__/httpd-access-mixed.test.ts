/**
 * Real httpd 2.4: configs that mix 2.2 rules (Order/Allow/Deny/Satisfy) with
 * 2.4 Require rules, in one scope and across parent/child scopes. Baseline =
 * the mixed config itself on 2.4 + mod_access_compat (what it does today);
 * migrated = the access-to-require transform's output on 2.4 without compat.
 * Every request of the harness matrix must get the same status; zero widened.
 *
 * A negative control shows the naive migration (rewrite only the old lines,
 * leave the 2.4 lines as they are) is caught: it opens access.
 *
 * With ACCESS_MEASURE_OUT=FILE the baseline statuses are written to FILE as a
 * markdown digest (docs/research/access-measurements.md, section "m").
 */
import * as fs from 'fs';
import { transformText } from '../src/run/runner';
import { TRANSFORMS } from '../transforms';
import {
  AUTH,
  AccessCase,
  Result,
  dir,
  formatResult,
  loc,
  runDifferential,
  stopAllDifferentialServers,
  sub,
} from './support/access-differential';

const accessOnly = TRANSFORMS.filter((t) => t.id === 'access-to-require');

/** [id, description, mixed 2.2 + 2.4 text]. */
export const MIXED: [string, string, string][] = [
  ['M1', 'same scope: Allow from a network AND Require ip', dir('Order allow,deny', 'Allow from 127.0.0.0/24', 'Require ip 127.0.0.1 127.0.1.9')],
  [
    'M2',
    'same scope, Satisfy Any: Allow from .5 OR (Require valid-user / Require ip)',
    dir('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5', ...AUTH, 'Require valid-user', 'Require ip 127.0.1.9', 'Satisfy Any'),
  ],
  ['M3', 'old parent Deny from all, new child Require all granted (upgrade notes: NOT WORKING)', [dir('Order deny,allow', 'Deny from all'), sub('Require all granted')].join('\n')],
  ['M4', 'new parent Require all denied, old child Allow (upgrade notes: "WORKING", measured 403)', [dir('Require all denied'), sub('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.1')].join('\n')],
  [
    'M5',
    'old+new parent, child AuthMerging Or + Require ip',
    [dir('Order allow,deny', 'Allow from 127.0.0.0/16', ...AUTH, 'Require valid-user'), sub('AuthMerging Or', 'Require ip 127.0.0.5')].join('\n'),
  ],
  [
    'M6',
    'new RequireAny parent, old child Deny from one address',
    [dir(...AUTH, '<RequireAny>', '    Require valid-user', '    Require ip 127.0.0.5', '</RequireAny>'), sub('Order deny,allow', 'Deny from 127.0.0.5')].join('\n'),
  ],
  [
    'M7',
    'old parent Satisfy Any + Allow, new child RequireAll valid-user and not ip',
    [
      dir('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5', 'Satisfy Any', ...AUTH, 'Require valid-user'),
      sub('<RequireAll>', '    Require valid-user', '    Require not ip 127.0.1.9', '</RequireAll>'),
    ].join('\n'),
  ],
  [
    'M8',
    'child with only Satisfy Any under old parent (compat resets the host rules), 2.4 rule beside',
    [dir('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5', ...AUTH, 'Require valid-user', 'Require ip 127.0.0.0/24'), sub('Satisfy Any')].join('\n'),
  ],
  ['M9', 'old <Limit POST> Deny from all beside new Require ip', dir('<Limit POST>', '    Order deny,allow', '    Deny from all', '</Limit>', 'Require ip 127.0.0.0/24')],
  [
    'M10',
    'dual-version idiom parent, old child',
    [
      dir('<IfModule mod_authz_core.c>', '    Require all granted', '</IfModule>', '<IfModule !mod_authz_core.c>', '    Order allow,deny', '    Allow from all', '</IfModule>'),
      sub('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.1'),
    ].join('\n'),
  ],
  [
    'M11',
    'old+new parent, child AuthMerging And + Require valid-user',
    [dir('Order allow,deny', 'Allow from 127.0.0.0/16', 'Require ip 127.0.0.1 127.0.0.5'), sub('AuthMerging And', ...AUTH, 'Require valid-user')].join('\n'),
  ],
  [
    'M12',
    'new Directory, Location merged after it with old and new rules',
    [dir('Require all granted'), loc('/sub', 'Order deny,allow', 'Deny from all', 'Allow from 127.0.1.9 127.0.0.5', 'Require not ip 127.0.0.5', 'Require all granted').replace(
      '    Require not ip 127.0.0.5\n    Require all granted',
      '    <RequireAll>\n        Require all granted\n        Require not ip 127.0.0.5\n    </RequireAll>',
    )].join('\n'),
  ],
  ['M13', 'Satisfy Any with Require env (new) and an old network', dir('Order allow,deny', 'Allow from 127.0.0.0/24', 'Require env trigger', 'Satisfy Any')],
  ['M14', 'Satisfy Any, Deny from all, Require valid-user only for POST beside Require ip', dir('Order deny,allow', 'Deny from all', 'Satisfy Any', ...AUTH, '<Limit POST>', '    Require valid-user', '</Limit>', 'Require ip 127.0.0.1')],
  [
    'M15',
    'old record in parent, new child with its own Require only (compat record inherited)',
    [dir('Order allow,deny', 'Allow from 127.0.0.0/24', 'Deny from 127.0.0.5'), sub(...AUTH, 'Require group admins', 'Require ip 127.0.1.9')].join('\n'),
  ],
  [
    'M16',
    'old rules inside <IfModule mod_authz_host.c> beside 2.4 Require',
    dir('<IfModule mod_authz_host.c>', '    Order deny,allow', '    Deny from all', '    Allow from 127.0.0.1 127.0.0.5', '</IfModule>', 'Require not ip 127.0.0.5', 'Require all granted').replace(
      '    Require not ip 127.0.0.5\n    Require all granted',
      '    <RequireAll>\n        Require all granted\n        Require not ip 127.0.0.5\n    </RequireAll>',
    ),
  ],
  ['M17', 'new Directory, old Location that may or may not inherit its Require (same outcome either way)', [dir('Require all granted'), loc('/sub', 'Order deny,allow', 'Deny from all', 'Allow from 127.0.1.9')].join('\n')],
];

const CASES: (AccessCase & { id: string; findings: string[]; source: string })[] = MIXED.map(([id, name, source]) => {
  const result = transformText(source, accessOnly, {}, `${id}.conf`, 'main');
  return {
    id,
    name: `${id} ${name}`,
    source,
    original: source,
    migrated: result.output,
    paths: ['/', '/sub/', '/file.html'],
    findings: result.findings.map((f) => `${f.severity} ${f.code}: ${f.message}`),
  };
});

/** Deliberately naive: only the old lines of M3's parent rewritten, the child's 2.4 line left as it was. */
const NAIVE: AccessCase = {
  name: 'NEGATIVE CONTROL: naive migration of M3',
  original: MIXED[2][2],
  migrated: [dir('Require all denied'), sub('Require all granted')].join('\n'),
  paths: ['/', '/sub/'],
};

describe('mixed 2.2/2.4 configs: original on 2.4 + compat vs migrated on 2.4 without compat', () => {
  let results: Map<string, Result>;

  beforeAll(async () => {
    const all = await runDifferential([...CASES, NAIVE]);
    results = new Map(all.map((r) => [r.name, r]));
    const out = process.env.ACCESS_MEASURE_OUT;
    if (out) fs.writeFileSync(out, digest(all.slice(0, CASES.length)));
  }, 120000);

  afterAll(() => stopAllDifferentialServers());

  test('the transform migrated every case: no old directive left, nothing kept', () => {
    for (const c of CASES) {
      const outside22 = stripTwoTwoBranches(c.migrated);
      expect({ id: c.id, left: /^\s*(order|allow|deny|satisfy)\b/im.test(outside22) }).toEqual({ id: c.id, left: false });
      expect({ id: c.id, kept: c.findings.filter((f) => f.includes('access-kept')) }).toEqual({ id: c.id, kept: [] });
    }
  });

  test.each(CASES.map((c) => [c.name]))('%s', (name) => {
    const r = results.get(name) as Result;
    const c = CASES.find((x) => x.name === name) as AccessCase;
    expect(r.error).toBeUndefined();
    expect(r.widened).toEqual([]);
    if (r.mismatches.length > 0) throw new Error(`${formatResult(r)}\n--- migrated ---\n${c.migrated}`);
    expect(r.requests).toBe(192);
  });

  test('the baseline shows the measured mixed semantics (not the upgrade notes\' table)', () => {
    const get = (id: string, request: string) => {
      const c = CASES.find((x) => x.id === id) as { name: string };
      return (results.get(c.name) as Result).observations.find((o) => o.request === request)?.baseline;
    };
    // M3: old parent Deny from all is not opened by a new child
    expect(get('M3', 'GET /sub/ from 127.0.0.1 as none')).toBe(403);
    // M4: the upgrade notes say 200 for 127.0.0.1; 2.4.71 says 403 (Require all denied inherited, ANDed)
    expect(get('M4', 'GET /sub/ from 127.0.0.1 as none')).toBe(403);
    // M1: AND in one scope
    expect(get('M1', 'GET / from 127.0.1.9 as none')).toBe(403);
    expect(get('M1', 'GET / from 127.0.0.1 as none')).toBe(200);
    // M8: a child with only Satisfy Any opens everything on compat
    expect(get('M8', 'GET /sub/ from 127.1.2.3 as none')).toBe(200);
    // M14: Satisfy Any + Deny from all: GET needs Require ip, POST valid-user or ip
    expect(get('M14', 'GET / from 127.1.2.3 as none')).toBe(403);
    expect(get('M14', 'GET / from 127.0.0.1 as none')).toBe(200);
    expect(get('M14', 'POST / from 127.1.2.3 as none')).toBe(401);
    // M5: AuthMerging Or
    expect(get('M5', 'GET /sub/ from 127.0.0.5 as none')).toBe(200);
    expect(get('M5', 'GET /sub/ from 127.0.0.1 as none')).toBe(401);
  });

  test('negative control: the naive migration is reported as widened', () => {
    const r = results.get(NAIVE.name) as Result;
    expect(r.error).toBeUndefined();
    expect(r.widened.length).toBeGreaterThan(0);
    expect(r.widened.every((o) => o.request.includes('/sub/') && o.baseline === 403 && o.migrated === 200)).toBe(true);
  });
});

function stripTwoTwoBranches(text: string): string {
  return text.replace(/<IfModule !mod_authz_core\.c>[\s\S]*?<\/IfModule>/g, '');
}

const COLUMNS = [
  'GET / from 127.0.0.1 as none',
  'GET / from 127.0.0.5 as none',
  'GET / from 127.1.2.3 as none',
  'GET / from 127.1.2.3 as alice',
  'POST / from 127.1.2.3 as none',
  'GET /sub/ from 127.0.0.1 as none',
  'GET /sub/ from 127.0.0.5 as none',
  'GET /sub/ from 127.0.1.9 as none',
  'GET /sub/ from 127.1.2.3 as none',
  'GET /sub/ from 127.1.2.3 as alice',
  'GET /sub/ from 127.1.2.3 as bob',
  'GET /file.html from 127.1.2.3 as none',
  'GET / from 127.1.2.3 as none +X-Trigger',
];

function digest(all: readonly Result[]): string {
  const short = (c: string) => c.replace(/ from 127\./, ' .').replace(/ as none/, '').replace(/ as /, ' +').replace('+X-Trigger', 'hdr');
  const rows = all.map((r, i) => {
    const cells = COLUMNS.map((col) => String(r.observations.find((o) => o.request === col)?.baseline ?? '—'));
    return `| ${MIXED[i][0]} | ${MIXED[i][1]} | ${cells.join(' | ')} |`;
  });
  const configs = MIXED.map(([id, , text]) => `**${id}**\n\n\`\`\`apache\n${text}\n\`\`\`\n`);
  return [`| id | case | ${COLUMNS.map(short).join(' | ')} |`, `|---|---|${COLUMNS.map(() => '---').join('|')}|`, ...rows, '', ...configs].join('\n');
}
