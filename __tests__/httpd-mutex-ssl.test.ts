/**
 * Real httpd 2.4.71 for the mutex, SSL and removed-auth-directive transforms:
 * - every fixture output of replace-mutex-directives, ssl-revocation-check, ssl-drop-sslv2,
 *   remove-auth-digest-options and remove-authz-authoritative passes `apache2 -t` without a
 *   warning, and every input that the transform had to fix fails (negative control);
 * - `apache2 -L` with every module loaded: which of the 2.2 directives still exist;
 * - a started server keeps the migrated file-based mutexes in the directories the 2.2 LockFile /
 *   SSLMutex named;
 * - a started HTTPS server with a CRL: the 2.2 lines alone accept a revoked client certificate,
 *   the migrated lines refuse it and still accept clients of a CA without a CRL (as 2.2 did),
 *   which plain `SSLCARevocationCheck chain` would refuse;
 * - the cipher suites the SSLv2 words were removed from select the same ciphers (openssl ciphers).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { directives, parse } from '../src/cst';
import { transformText } from '../src/run/runner';
import { TRANSFORMS } from '../transforms';
import { RunOptions } from '../src/model/run-options';
import { baseConfig, configtest, freePorts, startServerChecked, tempDir } from './support/httpd';
import { allModuleLines, httpsStatus, listDirectives, fixtureServer, makePki } from './support/mutex-ssl';

const FIXTURES = path.join(__dirname, 'fixtures');
const IDS = ['replace-mutex-directives', 'ssl-revocation-check', 'ssl-drop-sslv2', 'remove-auth-digest-options', 'remove-authz-authoritative'];
const MODULES = [
  'ssl',
  'socache_shmcb',
  'rewrite',
  'authn_core',
  'authn_file',
  'auth_basic',
  'auth_digest',
  'authz_user',
  'authz_groupfile',
  'authz_owner',
  'ldap',
  'authnz_ldap',
  'headers',
];
/** Outputs that keep lines the transform could not rewrite (its `manual` findings say so): httpd still refuses them. */
const STILL_FAILING: Record<string, RegExp> = {
  'replace-mutex-directives/unknown-and-vhost': /Invalid command 'AcceptMutex'/,
  'ssl-drop-sslv2/protocol-manual': /SSLv2 is no longer supported/,
};
/** Inputs httpd 2.4 accepts as they are (the change is about meaning, shown by the server tests below). */
const INPUT_PASSES = new Set([
  'ssl-revocation-check/vhost-ssl',
  'ssl-revocation-check/crlf-continuation-no-final-newline',
  'ssl-drop-sslv2/ciphers',
  'ssl-drop-sslv2/htaccess-ciphers',
  'ssl-drop-sslv2/debian-ssl',
  'ssl-drop-sslv2/crlf-continuation-vhost',
]);
const WARNING = /\[[a-z_]+:(warn|error|crit|alert|emerg)\]|AH\d{5}/;

const read = (file: string) => fs.readFileSync(file).toString('latin1');

interface Case {
  readonly key: string;
  readonly input: string;
  readonly output: string;
  readonly options: RunOptions;
  readonly htaccess: boolean;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const id of IDS) {
    const dir = path.join(FIXTURES, id);
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.input.conf')).sort()) {
      const base = name.replace(/\.input\.conf$/, '');
      const outputFile = path.join(dir, `${base}.output.conf`);
      if (!fs.existsSync(outputFile)) continue;
      const optionsFile = path.join(dir, `${base}.options.json`);
      out.push({
        key: `${id}/${base}`,
        input: read(path.join(dir, name)),
        output: read(outputFile),
        options: fs.existsSync(optionsFile) ? JSON.parse(fs.readFileSync(optionsFile, 'utf8')) : {},
        htaccess: base.startsWith('htaccess-'),
      });
    }
  }
  return out;
}

/** A main config around a fixture text, with the test's modules and the fixture's MPM. */
function serverWith(dir: string, body: string, options: RunOptions, htaccess: boolean, name: string): string {
  return fixtureServer(dir, body, name, { modules: MODULES, mpm: options.mpm, htaccess });
}

describe('apache2 -t on the fixtures', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('codemod-mutex-ssl-');
    fs.mkdirSync(path.join(dir, 'logs'));
    fs.mkdirSync(path.join(dir, 'htdocs'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const all = cases();
  test('there are fixture pairs to check', () => {
    expect(all.length).toBeGreaterThanOrEqual(20);
  });

  test.each(all.map((c) => [c.key, c] as const))('%s', (key, c) => {
    // the fixture output is what the transform writes today
    const transform = TRANSFORMS.find((t) => key.startsWith(t.id + '/'))!;
    const role = c.htaccess ? 'htaccess' : key.includes('/main-') ? 'main' : 'fragment';
    expect(transformText(c.input, [transform], c.options, 'x.conf', role).output).toBe(c.output);

    const after = configtest(serverWith(dir, c.output, c.options, c.htaccess, 'after'));
    if (STILL_FAILING[key]) {
      expect(after.ok).toBe(false);
      expect(after.output).toMatch(STILL_FAILING[key]);
    } else {
      expect(after.output).not.toMatch(WARNING);
      expect(after.ok).toBe(true);
    }
    const before = configtest(serverWith(dir, c.input, c.options, c.htaccess, 'before'));
    if (INPUT_PASSES.has(key)) {
      expect(before.ok).toBe(true);
    } else {
      expect(before.ok).toBe(false);
      expect(before.output).toMatch(/Invalid command|SSLv2 is no longer supported/);
    }
  });
});

describe('apache2 -L with every module loaded', () => {
  test('the removed 2.2 directives are gone, the ones that stay exist', () => {
    const dir = tempDir('codemod-mutex-ssl-');
    try {
      const file = path.join(dir, 'all.conf');
      fs.writeFileSync(file, `ServerRoot "${dir}"\nErrorLog "${dir}/error.log"\nServerName localhost\n${allModuleLines()}`);
      const names = new Set(listDirectives(file).map((n) => n.toLowerCase()));
      expect(names.size).toBeGreaterThan(500);
      for (const gone of [
        'AcceptMutex',
        'LockFile',
        'SSLMutex',
        'SSLStaplingMutex',
        'RewriteLock',
        'WatchdogMutexPath',
        'AuthDigestNonceFormat',
        'AuthzUserAuthoritative',
        'AuthzGroupFileAuthoritative',
        'AuthzDBMAuthoritative',
        'AuthzOwnerAuthoritative',
        'AuthzDefaultAuthoritative',
        'AuthzLDAPAuthoritative',
      ]) {
        expect([gone, names.has(gone.toLowerCase())]).toEqual([gone, false]);
      }
      // these stay: the transforms must not touch them
      for (const kept of ['Mutex', 'AuthDigestNcCheck', 'AuthBasicAuthoritative', 'AuthFormAuthoritative', 'AuthLDAPBindAuthoritative', 'SSLCARevocationCheck', 'SSLProxyCARevocationCheck']) {
        expect([kept, names.has(kept.toLowerCase())]).toEqual([kept, true]);
      }
      // the only *Authoritative directives of 2.4.71 are the three about authentication
      expect([...names].filter((n) => n.endsWith('authoritative')).sort()).toEqual(['authbasicauthoritative', 'authformauthoritative', 'authldapbindauthoritative']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('Mutex: the measured rules the transform relies on', () => {
    const dir = tempDir('codemod-mutex-ssl-');
    try {
      fs.mkdirSync(path.join(dir, 'locks'));
      const check = (line: string, mpm = 'prefork') => {
        const file = path.join(dir, 'm.conf');
        fs.writeFileSync(file, baseConfig(dir, 8, ['ssl', 'rewrite']).replace(/mpm_prefork/g, `mpm_${mpm}`) + line + '\n');
        return configtest(file);
      };
      expect(check(`Mutex fcntl:${dir}/locks mpm-accept`).ok).toBe(true);
      expect(check(`Mutex default:${dir}/locks rewrite-map`).ok).toBe(true);
      expect(check(`Mutex default:${dir}/locks watchdog-callback`).ok).toBe(true);
      expect(check(`Mutex default:locks mpm-accept`).ok).toBe(true); // relative to ServerRoot
      expect(check(`Mutex file:${dir}/locks/accept.lock mpm-accept`).output).toMatch(/Invalid Mutex directory/);
      expect(check(`Mutex sysvsem:${dir}/missing mpm-accept`).output).toMatch(/Invalid Mutex directory/);
      expect(check('Mutex none ssl-cache').output).toMatch(/None is not allowed for mutex type ssl-cache/);
      expect(check('Mutex sem SSL-Cache').output).toMatch(/Mutex type SSL-Cache is not valid/);
      expect(check('Mutex fcntl mpm-accept', 'event').output).toMatch(/Mutex type mpm-accept is not valid/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

const MIGRATE = TRANSFORMS.filter((t) => IDS.includes(t.id));
function migrate(text: string, options: RunOptions = {}): string {
  const result = transformText(text, MIGRATE, options, 'httpd.conf', 'main');
  expect(result.errors).toEqual([]);
  return result.output;
}

/** Paths of the files an httpd process holds open (lock files are unlinked after creation: `… (deleted)`). */
function openFiles(pid: number): string[] {
  const fdDir = `/proc/${pid}/fd`;
  return fs.readdirSync(fdDir).flatMap((fd) => {
    try {
      return [fs.readlinkSync(path.join(fdDir, fd))];
    } catch {
      return [];
    }
  });
}

describe('started servers', () => {
  let dir: string;
  let pki: ReturnType<typeof makePki>;
  beforeAll(() => {
    dir = tempDir('codemod-mutex-ssl-run-');
    fs.chmodSync(dir, 0o755); // the children run as www-data and serve from here
    pki = makePki(path.join(dir, 'pki'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('migrated AcceptMutex/LockFile and SSLMutex keep their lock files in the 2.2 directories', async () => {
    const run = path.join(dir, 'mutex');
    fs.mkdirSync(path.join(run, 'locks'), { recursive: true });
    fs.mkdirSync(path.join(run, 'ssl'), { recursive: true });
    const [port, sslPort] = await freePorts(2);
    const legacy = [
      'AcceptMutex fcntl',
      `LockFile ${run}/locks/accept.lock`,
      `SSLMutex file:${run}/ssl/ssl_mutex`,
      `SSLSessionCache shmcb:${run}/ssl/scache(51200)`,
      `Listen 127.0.0.1:${sslPort} https`,
      `<VirtualHost 127.0.0.1:${sslPort}>`,
      '    SSLEngine on',
      `    SSLCertificateFile ${pki.serverCert}`,
      `    SSLCertificateKeyFile ${pki.serverKey}`,
      '</VirtualHost>',
      '',
    ].join('\n');
    const file = path.join(run, 'httpd.conf');
    const base = baseConfig(run, port, ['ssl', 'socache_shmcb']);
    fs.writeFileSync(file, base + legacy);
    expect(configtest(file).output).toMatch(/Invalid command 'AcceptMutex'/); // negative control

    const migrated = migrate(legacy);
    expect(migrated).toContain(`Mutex fcntl:${run}/locks mpm-accept`);
    expect(migrated).toContain(`Mutex file:${run}/ssl ssl-cache`);
    fs.writeFileSync(file, base + migrated);
    const server = await startServerChecked(file, port, run);
    try {
      const pid = Number(fs.readFileSync(path.join(run, 'httpd.pid'), 'utf8').trim());
      const files = openFiles(pid);
      // 2.4 names the files after the mutex; the directories are the ones 2.2 used
      expect(files.some((f) => f.startsWith(`${run}/locks/mpm-accept`))).toBe(true);
      expect(files.some((f) => f.startsWith(`${run}/ssl/ssl-cache`))).toBe(true);
    } finally {
      await server.stop();
    }
  });

  async function crlServer(name: string, lines: string): Promise<{ status: (c: 'good' | 'revoked' | 'nocrl') => string; stop: () => Promise<void>; log: () => string }> {
    const run = path.join(dir, name);
    fs.mkdirSync(run, { recursive: true });
    fs.mkdirSync(path.join(run, 'htdocs'), { recursive: true });
    fs.writeFileSync(path.join(run, 'htdocs', 'index.html'), 'ok\n');
    const [port] = await freePorts(1);
    const file = path.join(run, 'httpd.conf');
    fs.writeFileSync(file, baseConfig(run, port, ['ssl', 'socache_shmcb']) + `DocumentRoot "${run}/htdocs"\n` + lines);
    const server = await startServerChecked(file, port, run);
    return {
      status: (c) => httpsStatus(port, pki, pki.clients[c]),
      stop: () => server.stop(),
      log: () => fs.readFileSync(path.join(run, 'error.log'), 'utf8'),
    };
  }

  test('CRL checking: 2.2 lines accept a revoked client on 2.4, the migrated ones refuse it and keep 2.2 behaviour for CAs without a CRL', async () => {
    const legacy = [
      '<IfModule mod_ssl.c>',
      'SSLEngine on',
      `SSLCertificateFile ${pki.serverCert}`,
      `SSLCertificateKeyFile ${pki.serverKey}`,
      `SSLCACertificateFile ${pki.caBundle}`,
      'SSLVerifyClient require',
      'SSLVerifyDepth 2',
      `SSLCARevocationFile ${pki.crl}`,
      '</IfModule>',
      '',
    ].join('\n');
    const migrated = migrate(legacy);
    expect(migrated).toContain(`SSLCARevocationFile ${pki.crl}\nSSLCARevocationCheck chain no_crl_for_cert_ok\n`);

    // negative control: the unmigrated 2.2 lines run on 2.4 but ignore the CRL
    const old = await crlServer('crl-old', legacy);
    try {
      expect(old.status('good')).toBe('200');
      expect(old.status('revoked')).toBe('200');
      expect(old.status('nocrl')).toBe('200');
      expect(old.log()).toMatch(/AH01902: .*CRL checking \(SSLCARevocationCheck\) is not enabled/);
    } finally {
      await old.stop();
    }

    const now = await crlServer('crl-migrated', migrated);
    try {
      expect(now.status('good')).toBe('200');
      expect(now.status('revoked')).toBe('tls-error');
      expect(now.status('nocrl')).toBe('200'); // 2.2 accepted clients of CAs without a CRL
      expect(now.log()).toMatch(/AH02039: Certificate Verification: Error \(23\): certificate revoked/);
      expect(now.log()).not.toMatch(/AH01902/);
    } finally {
      await now.stop();
    }

    // why the flag: plain `chain` (the upgrade notes' advice) also refuses the client of the CA without a CRL
    const plain = await crlServer('crl-plain-chain', migrated.replace(' no_crl_for_cert_ok', ''));
    try {
      expect(plain.status('good')).toBe('200');
      expect(plain.status('revoked')).toBe('tls-error');
      expect(plain.status('nocrl')).toBe('tls-error');
      expect(plain.log()).toMatch(/Error \(3\): unable to get certificate CRL/);
    } finally {
      await plain.stop();
    }
  });

  test('a cipher suite that selects only SSLv2 ciphers stops 2.4 at startup, which -t does not see', async () => {
    const run = path.join(dir, 'ciphers');
    fs.mkdirSync(run, { recursive: true });
    const [port] = await freePorts(1);
    const file = path.join(run, 'httpd.conf');
    fs.writeFileSync(
      file,
      baseConfig(run, port, ['ssl', 'socache_shmcb']) +
        ['SSLEngine on', `SSLCertificateFile ${pki.serverCert}`, `SSLCertificateKeyFile ${pki.serverKey}`, 'SSLCipherSuite SSLv2:+HIGH', ''].join('\n'),
    );
    expect(configtest(file).ok).toBe(true);
    await expect(startServerChecked(file, port, run)).rejects.toThrow(/AH01898: Unable to configure permitted SSL ciphers/);
  });
});

describe('openssl ciphers', () => {
  const ciphers = (spec: string) => spawnSync('openssl', ['ciphers', '-v', spec], { encoding: 'utf8' });
  const pairs: [string, string][] = [];
  for (const c of cases().filter((x) => x.key.startsWith('ssl-drop-sslv2/'))) {
    const suites = (text: string) => [...directives(parse(text), 'SSLCipherSuite', 'SSLProxyCipherSuite')].map((d) => d.values[d.values.length - 1]);
    const before = suites(c.input);
    const after = suites(c.output);
    expect(after.length).toBe(before.length);
    before.forEach((spec, i) => {
      if (after[i] !== spec) pairs.push([spec, after[i]]);
    });
  }

  test('every changed cipher suite is checked', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(6);
  });

  test.each(pairs)('%s selects the same ciphers as %s', (before, after) => {
    const a = ciphers(before);
    const b = ciphers(after);
    expect(b.status).toBe(0);
    expect(b.stdout.length).toBeGreaterThan(0);
    expect(a.stdout).toBe(b.stdout);
  });

  test('a suite of SSLv2 words only selects nothing on OpenSSL 3 (why those lines stay manual)', () => {
    expect(ciphers('SSLv2:+HIGH').status).not.toBe(0);
    expect(ciphers('!SSLv2').status).not.toBe(0);
  });
});
