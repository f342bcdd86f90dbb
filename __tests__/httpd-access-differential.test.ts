/**
 * Real httpd 2.4: hand-written 2.4 migrations of 2.2 access configs answer
 * every request exactly like the 2.2 text does on 2.4 + mod_access_compat
 * (see docs/research/access-semantics.md). These migrated texts are the
 * expected output of a correct codemod; the harness is
 * __tests__/support/access-differential.ts.
 */
import {
  AccessCase,
  configtestMigrated,
  formatResult,
  Result,
  runDifferential,
  stopAllDifferentialServers,
} from './support/access-differential';

const AUTH = ['AuthType Basic', 'AuthName "restricted"', 'AuthUserFile {{HTPASSWD}}', 'AuthGroupFile {{GROUPS}}'].join('\n');

function dir(...lines: string[]): string {
  return ['<Directory {{DOCROOT}}>', ...lines.map((l) => `    ${l}`), '</Directory>'].join('\n');
}

const CASES: AccessCase[] = [
  {
    name: 'Order allow,deny + Allow from all',
    original: dir('Order allow,deny', 'Allow from all'),
    migrated: dir('Require all granted'),
  },
  {
    name: 'Deny from all',
    original: dir('Order deny,allow', 'Deny from all'),
    migrated: dir('Require all denied'),
  },
  {
    name: 'Deny,Allow: Deny all, Allow from one address and a partial address',
    original: dir('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5 127.0.1'),
    migrated: dir('Require ip 127.0.0.5 127.0.1'),
  },
  {
    name: 'Allow,Deny: netmask and CIDR',
    original: dir('Order allow,deny', 'Allow from 127.0.0.0/255.255.255.0', 'Allow from 127.1.0.0/16'),
    migrated: dir('Require ip 127.0.0.0/255.255.255.0 127.1.0.0/16'),
  },
  {
    name: 'Allow,Deny: Allow from all, Deny one address',
    original: dir('Order allow,deny', 'Allow from all', 'Deny from 127.0.0.5'),
    migrated: dir('<RequireAll>', '    Require all granted', '    Require not ip 127.0.0.5', '</RequireAll>'),
  },
  {
    name: 'Allow from env=trigger',
    original: dir('Order deny,allow', 'Deny from all', 'Allow from env=trigger'),
    migrated: dir('Require env trigger'),
  },
  {
    name: 'Satisfy Any: valid-user or Allow from 127.0.0.5',
    original: dir('Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5', AUTH, 'Require valid-user', 'Satisfy Any'),
    migrated: dir(AUTH, '<RequireAny>', '    Require ip 127.0.0.5', '    Require valid-user', '</RequireAny>'),
  },
  {
    name: 'Satisfy All: Deny from all + valid-user is 403 even with good credentials',
    original: dir('Order deny,allow', 'Deny from all', AUTH, 'Require valid-user', 'Satisfy All'),
    migrated: dir(AUTH, 'Require all denied'),
  },
  {
    name: 'Require group admins (+ Allow from all)',
    original: dir('Order allow,deny', 'Allow from all', AUTH, 'Require group admins'),
    migrated: dir(AUTH, 'Require group admins'),
  },
  {
    name: '<Limit POST> Deny from all',
    original: dir('<Limit POST>', '    Order deny,allow', '    Deny from all', '</Limit>'),
    migrated: dir('<Limit POST>', '    Require all denied', '</Limit>'),
  },
  {
    name: 'child Location with only Allow: default Order applies, parent Order does not',
    original: [dir('Order allow,deny', 'Allow from 127.0.0.1'), '<Location /sub>', '    Allow from 127.0.0.5', '</Location>'].join('\n'),
    migrated: [dir('Require ip 127.0.0.1'), '<Location /sub>', '    Require all granted', '</Location>'].join('\n'),
  },
  {
    name: '.htaccess with Order/Allow under 2.2 default AllowOverride All',
    original: dir('Order allow,deny', 'Allow from all'),
    // 2.4 reads the .htaccess but allows nothing in it unless AllowOverride is set: make 2.2's default explicit.
    migrated: dir('AllowOverride All', 'Require all granted'),
    htaccess: {
      sub: {
        original: 'Order deny,allow\nDeny from all\nAllow from 127.0.0.1 127.0.1.9\n',
        migrated: 'Require ip 127.0.0.1 127.0.1.9\n',
      },
    },
  },
];

/** Deliberately wrong: the Deny is dropped. The harness must report it as widened. */
const NEGATIVE_CONTROL: AccessCase = {
  name: 'NEGATIVE CONTROL: Deny dropped',
  original: dir('Order allow,deny', 'Allow from all', 'Deny from 127.0.0.5'),
  migrated: dir('Require all granted'),
};

function status(r: Result, request: string): number | string | undefined {
  return r.observations.find((o) => o.request === request)?.baseline;
}

describe('access-control migrations: 2.2 text on 2.4+compat vs 2.4 text without compat', () => {
  let results: Map<string, Result>;

  beforeAll(async () => {
    const all = await runDifferential([...CASES, NEGATIVE_CONTROL]);
    results = new Map(all.map((r) => [r.name, r]));
  }, 45000);

  afterAll(() => stopAllDifferentialServers());

  test.each(CASES.map((c) => [c.name]))('%s: identical statuses', (name) => {
    const r = results.get(name);
    expect(r).toBeDefined();
    if (!r) return;
    // On failure the diff shows every mismatching request and the vhosts' error logs.
    expect(formatResult(r)).toBe(`${name}: 128 requests, 0 mismatches, 0 widened`);
  });

  test('the baseline really exercises the intended semantics', () => {
    const get = (name: string) => results.get(name) as Result;
    // Satisfy All + Deny: no prompt, 403 even with good credentials.
    expect(status(get(CASES[7].name), 'GET / from 127.0.0.1 as alice')).toBe(403);
    // Satisfy Any: host pass ignores bad credentials; otherwise credentials are needed.
    expect(status(get(CASES[6].name), 'GET / from 127.0.0.5 as alice-bad')).toBe(200);
    expect(status(get(CASES[6].name), 'GET / from 127.0.0.1 as none')).toBe(401);
    expect(status(get(CASES[6].name), 'GET / from 127.0.0.1 as bob')).toBe(200);
    // Group: bob authenticates but is not in admins.
    expect(status(get(CASES[8].name), 'GET / from 127.0.0.1 as bob')).toBe(401);
    expect(status(get(CASES[8].name), 'GET / from 127.0.0.1 as alice')).toBe(200);
    // env= and partial/CIDR addresses.
    expect(status(get(CASES[5].name), 'GET / from 127.0.0.1 as none')).toBe(403);
    expect(status(get(CASES[5].name), 'GET / from 127.0.0.1 as none +X-Trigger')).toBe(200);
    expect(status(get(CASES[2].name), 'GET / from 127.0.1.9 as none')).toBe(200);
    expect(status(get(CASES[2].name), 'GET / from 127.1.2.3 as none')).toBe(403);
    expect(status(get(CASES[3].name), 'GET / from 127.1.2.3 as none')).toBe(200);
    expect(status(get(CASES[3].name), 'GET / from 127.0.1.9 as none')).toBe(403);
    // <Limit POST>: GET open, POST denied.
    expect(status(get(CASES[9].name), 'GET / from 127.0.0.1 as none')).toBe(200);
    expect(status(get(CASES[9].name), 'POST / from 127.0.0.1 as none')).toBe(403);
    // Child with only Allow: everyone allowed below, only 127.0.0.1 above.
    expect(status(get(CASES[10].name), 'GET /sub/ from 127.1.2.3 as none')).toBe(200);
    expect(status(get(CASES[10].name), 'GET / from 127.1.2.3 as none')).toBe(403);
    // .htaccess is honoured by the baseline.
    expect(status(get(CASES[11].name), 'GET /sub/ from 127.0.0.5 as none')).toBe(403);
    expect(status(get(CASES[11].name), 'GET /sub/ from 127.0.1.9 as none')).toBe(200);
  });

  test('negative control: a dropped Deny is reported as widened', () => {
    const r = results.get(NEGATIVE_CONTROL.name) as Result;
    expect(r.error).toBeUndefined();
    expect(r.widened.length).toBeGreaterThan(0);
    expect(r.widened.every((o) => o.request.includes('from 127.0.0.5') && o.migrated === 200 && o.baseline === 403)).toBe(true);
    expect(r.mismatches).toEqual(r.widened);
    // 2 paths x 4 credentials x 2 methods x 2 header variants from 127.0.0.5
    expect(r.widened).toHaveLength(32);
  });

  test('every migrated text is valid 2.4 without mod_access_compat', () => {
    for (const c of CASES) {
      const r = configtestMigrated(c.migrated);
      expect({ name: c.name, ok: r.ok, output: r.ok ? '' : r.output }).toEqual({ name: c.name, ok: true, output: '' });
    }
    expect(configtestMigrated(dir('Order deny,allow', 'Deny from all')).output).toMatch(/Invalid command 'Order'/);
  });
});

describe('harness failure reporting', () => {
  afterAll(() => stopAllDifferentialServers());

  test('a migrated text that is not valid 2.4 yields an error with httpd output, and the other cases still run', async () => {
    const [bad, good] = await runDifferential([
      { name: 'still 2.2 syntax', original: dir('Order deny,allow', 'Deny from all'), migrated: dir('Order deny,allow', 'Deny from all') },
      CASES[0],
    ]);
    expect(bad.error).toMatch(/migrated config rejected by apache2 -t:[\s\S]*Invalid command 'Order'/);
    expect(bad.requests).toBe(0);
    expect(good.error).toBeUndefined();
    expect(good.requests).toBe(128);
    expect(good.mismatches).toEqual([]);
  }, 15000);

  test('a config that escapes its vhost is caught by the isolation control', async () => {
    const [leak, neighbour] = await runDifferential([
      {
        name: 'breaks out of its <VirtualHost>',
        original: ['</VirtualHost>', '<Location />', '    Require all denied', '</Location>', '<VirtualHost 127.0.0.1:1>'].join('\n'),
        migrated: dir('Require all granted'),
      },
      CASES[0],
    ]);
    for (const r of [leak, neighbour]) expect(r.error).toMatch(/isolation control vhost did not answer 200/);
  }, 15000);
});
