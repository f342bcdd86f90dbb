/**
 * Real httpd 2.4: configs that mix 2.2 rules (Order/Allow/Deny/Satisfy) with
 * 2.4 Require rules, in one scope and across parent/child scopes.
 *
 * The migration decides them by one rule: among 2.2-style sections 2.2's
 * inheritance holds; across the boundary between 2.2-style and 2.4-style
 * sections the nearer section replaces the inherited rules, as 2.4 does by
 * default; a section holding both joins them as one section does (Satisfy).
 * Each case carries that meaning written out by hand in plain syntax (for
 * same-section cases, the case itself), and:
 * 1. the migration on 2.4 WITHOUT compat answers every request like the
 *    meaning (on 2.4 + compat): zero mismatches, zero widened;
 * 2. against what the mixed config does today (itself on 2.4 + compat), the
 *    migration differs exactly in the cases it reports `access-mixed-differs`.
 *
 * Negative control: a migration that ANDs the inherited 2.4 rule into an old
 * child (what compat does) is caught against the meaning.
 *
 * With ACCESS_MEASURE_OUT=FILE the today statuses are written to FILE as a
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

/** [id, description, mixed 2.2 + 2.4 text, its meaning in plain syntax (omitted: the case itself, one section)]. */
export const MIXED: [string, string, string, string?][] = [
  ['M1', 'same scope: Allow from a network AND Require ip', dir('Order allow,deny', 'Allow from 127.0.0.0/24', 'Require ip 127.0.0.1 127.0.1.9')],
  [
    'M2',
    'same scope, Satisfy Any: Allow from .5 OR (Require valid-user / Require ip)',
    dir('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5', ...AUTH, 'Require valid-user', 'Require ip 127.0.1.9', 'Satisfy Any'),
  ],
  ['M3', 'old parent Deny from all, new child Require all granted (upgrade notes: NOT WORKING)', [dir('Order deny,allow', 'Deny from all'), sub('Require all granted')].join('\n'),
    [dir('Order deny,allow', 'Deny from all'), sub('Order allow,deny', 'Allow from all')].join('\n'),
  ],
  ['M4', 'new parent Require all denied, old child Allow (upgrade notes: "WORKING", measured 403)', [dir('Require all denied'), sub('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.1')].join('\n'),
    [dir('Order deny,allow', 'Deny from all'), sub('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.1')].join('\n'),
  ],
  [
    'M5',
    'old+new parent, child AuthMerging Or + Require ip',
    [dir('Order allow,deny', 'Allow from 127.0.0.0/16', ...AUTH, 'Require valid-user'), sub('AuthMerging Or', 'Require ip 127.0.0.5')].join('\n'),
    [dir(...AUTH, '<RequireAll>', '    Require ip 127.0.0.0/16', '    Require valid-user', '</RequireAll>'), sub('AuthMerging Or', 'Require ip 127.0.0.5')].join('\n'),
  ],
  [
    'M6',
    'new RequireAny parent, old child Deny from one address',
    [dir(...AUTH, '<RequireAny>', '    Require valid-user', '    Require ip 127.0.0.5', '</RequireAny>'), sub('Order deny,allow', 'Deny from 127.0.0.5')].join('\n'),
    [dir(...AUTH, '<RequireAny>', '    Require valid-user', '    Require ip 127.0.0.5', '</RequireAny>'), sub('<RequireAll>', '    Require all granted', '    Require not ip 127.0.0.5', '</RequireAll>')].join('\n'),
  ],
  [
    'M7',
    'old parent Satisfy Any + Allow, new child RequireAll valid-user and not ip',
    [
      dir('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5', 'Satisfy Any', ...AUTH, 'Require valid-user'),
      sub('<RequireAll>', '    Require valid-user', '    Require not ip 127.0.1.9', '</RequireAll>'),
    ].join('\n'),
    [dir('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5', 'Satisfy Any', ...AUTH, 'Require valid-user'), sub('Order allow,deny', 'Allow from all', 'Deny from 127.0.1.9', 'Satisfy All', 'Require valid-user')].join('\n'),
  ],
  [
    'M8',
    'child with only Satisfy Any under old parent (compat resets the host rules), 2.4 rule beside',
    [dir('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5', ...AUTH, 'Require valid-user', 'Require ip 127.0.0.0/24'), sub('Satisfy Any')].join('\n'),
    [dir('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5', ...AUTH, 'Require valid-user', 'Require ip 127.0.0.0/24'), sub()].join('\n'),
  ],
  ['M9', 'old <Limit POST> Deny from all beside new Require ip', dir('<Limit POST>', '    Order deny,allow', '    Deny from all', '</Limit>', 'Require ip 127.0.0.0/24')],
  [
    'M10',
    'dual-version idiom parent, old child',
    [
      dir('<IfModule mod_authz_core.c>', '    Require all granted', '</IfModule>', '<IfModule !mod_authz_core.c>', '    Order allow,deny', '    Allow from all', '</IfModule>'),
      sub('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.1'),
    ].join('\n'),
    [dir('Require all granted'), sub('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.1')].join('\n'),
  ],
  [
    'M11',
    'old+new parent, child AuthMerging And + Require valid-user',
    [dir('Order allow,deny', 'Allow from 127.0.0.0/16', 'Require ip 127.0.0.1 127.0.0.5'), sub('AuthMerging And', ...AUTH, 'Require valid-user')].join('\n'),
    [dir('Require ip 127.0.0.1 127.0.0.5'), sub('AuthMerging And', ...AUTH, 'Require valid-user')].join('\n'),
  ],
  [
    'M12',
    'new Directory, Location merged after it with old and new rules',
    [dir('Require all granted'), loc('/sub', 'Order deny,allow', 'Deny from all', 'Allow from 127.0.1.9 127.0.0.5', 'Require not ip 127.0.0.5', 'Require all granted').replace(
      '    Require not ip 127.0.0.5\n    Require all granted',
      '    <RequireAll>\n        Require all granted\n        Require not ip 127.0.0.5\n    </RequireAll>',
    )].join('\n'),
    [dir('Require all granted'), loc('/sub', 'Require ip 127.0.1.9')].join('\n'),
  ],
  ['M13', 'Satisfy Any with Require env (new) and an old network', dir('Order allow,deny', 'Allow from 127.0.0.0/24', 'Require env trigger', 'Satisfy Any')],
  ['M14', 'Satisfy Any, Deny from all, Require valid-user only for POST beside Require ip', dir('Order deny,allow', 'Deny from all', 'Satisfy Any', ...AUTH, '<Limit POST>', '    Require valid-user', '</Limit>', 'Require ip 127.0.0.1')],
  [
    'M15',
    'old record in parent, new child with its own Require only (compat record inherited)',
    [dir('Order allow,deny', 'Allow from 127.0.0.0/24', 'Deny from 127.0.0.5'), sub(...AUTH, 'Require group admins', 'Require ip 127.0.1.9')].join('\n'),
    [dir('Order allow,deny', 'Allow from 127.0.0.0/24', 'Deny from 127.0.0.5'), sub(...AUTH, 'Order deny,allow', 'Deny from all', 'Allow from 127.0.1.9', 'Require group admins', 'Satisfy Any')].join('\n'),
  ],
  [
    'M16',
    'old rules inside <IfModule mod_authz_host.c> beside 2.4 Require',
    dir('<IfModule mod_authz_host.c>', '    Order deny,allow', '    Deny from all', '    Allow from 127.0.0.1 127.0.0.5', '</IfModule>', 'Require not ip 127.0.0.5', 'Require all granted').replace(
      '    Require not ip 127.0.0.5\n    Require all granted',
      '    <RequireAll>\n        Require all granted\n        Require not ip 127.0.0.5\n    </RequireAll>',
    ),
  ],
  ['M17', 'new Directory, old Location that may or may not inherit its Require (same outcome either way)', [dir('Require all granted'), loc('/sub', 'Order deny,allow', 'Deny from all', 'Allow from 127.0.1.9')].join('\n'),
    [dir('Require all granted'), loc('/sub', 'Require ip 127.0.1.9')].join('\n'),
  ],
];

type MixedCase = AccessCase & { id: string; findings: string[]; source: string };

/** Against the meaning: the baseline is the case's meaning on 2.4 + compat. */
const CASES: MixedCase[] = MIXED.map(([id, name, source, meaning]) => {
  const result = transformText(source, accessOnly, {}, `${id}.conf`, 'main');
  return {
    id,
    name: `${id} ${name}`,
    source,
    original: meaning ?? source,
    migrated: result.output,
    paths: ['/', '/sub/', '/file.html'],
    findings: result.findings.map((f) => `${f.severity} ${f.code}: ${f.message}`),
  };
});

/** Against today: the baseline is the mixed config itself on 2.4 + compat. */
const TODAY: MixedCase[] = CASES.map((c) => ({ ...c, name: `today ${c.name}`, original: c.source }));

/** Deliberately wrong: M4's old child ANDed with the inherited `Require all denied`, as compat does. */
const COMPAT_LIKE: AccessCase = {
  name: 'NEGATIVE CONTROL: M4 migrated the way compat combines it',
  original: MIXED[3][3] as string,
  migrated: [dir('Require all denied'), sub('<RequireAll>', '    Require all denied', '    Require ip 127.0.0.1', '</RequireAll>')].join('\n'),
  paths: ['/', '/sub/'],
};

describe('mixed 2.2/2.4 configs: the meaning (nearer section replaces) on 2.4 + compat vs migrated on 2.4 without compat', () => {
  let results: Map<string, Result>;

  beforeAll(async () => {
    const all = await runDifferential([...CASES, ...TODAY, COMPAT_LIKE]);
    results = new Map(all.map((r) => [r.name, r]));
    const out = process.env.ACCESS_MEASURE_OUT;
    if (out) fs.writeFileSync(out, digest(all.slice(CASES.length, 2 * CASES.length)));
  }, 180000);

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

  test.each(TODAY.map((c) => [c.name]))('%s: access-mixed-differs is reported exactly where httpd answers differently', (name) => {
    const r = results.get(name) as Result;
    const c = TODAY.find((x) => x.name === name) as MixedCase;
    expect(r.error).toBeUndefined();
    const reported = c.findings.some((f) => f.includes('access-mixed-differs'));
    expect({ id: c.id, reported, differs: r.mismatches.length > 0 }).toEqual({ id: c.id, reported: r.mismatches.length > 0, differs: r.mismatches.length > 0 });
  });

  test('what the mixed configs do today on 2.4 + compat is measured (not the upgrade notes\' table)', () => {
    const get = (id: string, request: string) => {
      const c = TODAY.find((x) => x.id === id) as { name: string };
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

  test('the decided meaning opens what 2.2 served and compat refuses (M4: the old child replaces the 2.4 parent)', () => {
    const r = results.get((CASES[3] as MixedCase).name) as Result;
    expect(r.observations.find((o) => o.request === 'GET /sub/ from 127.0.0.1 as none')).toMatchObject({ baseline: 200, migrated: 200 });
    const today = results.get((TODAY[3] as MixedCase).name) as Result;
    expect(today.observations.find((o) => o.request === 'GET /sub/ from 127.0.0.1 as none')).toMatchObject({ baseline: 403, migrated: 200 });
  });

  test('negative control: a migration that combines the way compat does is caught', () => {
    const r = results.get(COMPAT_LIKE.name) as Result;
    expect(r.error).toBeUndefined();
    expect(r.mismatches.length).toBeGreaterThan(0);
    expect(r.mismatches.every((o) => o.request.includes('/sub/') && o.baseline === 200 && o.migrated === 403)).toBe(true);
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
