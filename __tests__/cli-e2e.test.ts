/**
 * End to end: spawn the built `codemod` bin on temporary copies of trees and
 * check exit codes, output, and the bytes on disk.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TRANSFORMS } from '../transforms';

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'dist', 'src', 'cli.js');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function codemod(cwd: string, ...args: string[]): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'latin1', env: { ...process.env, CI: 'true' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under dir (symlinks as their link text) → bytes as latin1. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      const rel = path.relative(dir, p);
      if (entry.isSymbolicLink()) out[rel] = '-> ' + fs.readlinkSync(p);
      else if (entry.isDirectory()) walk(p);
      else out[rel] = fs.readFileSync(p).toString('latin1');
    }
  };
  walk(dir);
  return out;
}

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'codemod-e2e-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function copyExamples(): string {
  const dest = path.join(tmp, 'examples');
  fs.cpSync(path.join(ROOT, 'examples'), dest, { recursive: true, verbatimSymlinks: true });
  return dest;
}

function write(rel: string, text: string, mode?: number): string {
  const p = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, Buffer.from(text, 'latin1'));
  if (mode !== undefined) fs.chmodSync(p, mode);
  return p;
}

describe('dry run', () => {
  test('prints a git-applicable diff, leaves files untouched, exits 1', () => {
    copyExamples();
    const before = snapshot(tmp);
    const r = codemod(tmp, 'examples');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^diff --git a\/examples\/upstream-2\.2\/conf\/extra\/httpd-mpm\.conf b\/examples\/upstream-2\.2\/conf\/extra\/httpd-mpm\.conf$/m);
    expect(r.stdout).toMatch(/^-    MaxClients          150$/m);
    expect(r.stdout).toMatch(/^\+    MaxRequestWorkers   150$/m);
    expect(r.stderr).toMatch(/\d+ to change, \d+ unchanged, \d+ skipped, \d+ need review, \d+ need manual action, 0 errors/);
    expect(snapshot(tmp)).toEqual(before);

    fs.writeFileSync(path.join(tmp, 'out.patch'), Buffer.from(r.stdout, 'latin1'));
    const check = spawnSync('git', ['apply', '--check', 'out.patch'], { cwd: tmp, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  test('applying the patch gives the same bytes as --write', () => {
    copyExamples();
    const patch = codemod(tmp, 'examples').stdout;
    fs.writeFileSync(path.join(tmp, 'out.patch'), Buffer.from(patch, 'latin1'));
    const applied = spawnSync('git', ['apply', 'out.patch'], { cwd: tmp, encoding: 'utf8' });
    expect(applied.status).toBe(0);
    fs.rmSync(path.join(tmp, 'out.patch'));
    const viaPatch = snapshot(tmp);

    fs.rmSync(path.join(tmp, 'examples'), { recursive: true });
    copyExamples();
    expect(codemod(tmp, '--write', 'examples').status).toBe(0);
    expect(snapshot(tmp)).toEqual(viaPatch);
  });

  test('--patch FILE writes the patch and prints no diff', () => {
    copyExamples();
    const r = codemod(tmp, '--patch', 'review.patch', 'examples');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(fs.readFileSync(path.join(tmp, 'review.patch'), 'latin1')).toMatch(/^diff --git a\/examples\//);
  });

  test('CRLF and non-UTF-8 bytes survive the patch round trip', () => {
    const text = '# caf\xe9 \xff\r\nMaxClients 10\r\nServerName h\xf4te\r\n';
    write('latin.conf', text);
    const r = codemod(tmp, 'latin.conf');
    expect(r.status).toBe(1);
    fs.writeFileSync(path.join(tmp, 'p.patch'), Buffer.from(r.stdout, 'latin1'));
    expect(spawnSync('git', ['apply', 'p.patch'], { cwd: tmp }).status).toBe(0);
    expect(fs.readFileSync(path.join(tmp, 'latin.conf')).toString('latin1')).toBe(
      '# caf\xe9 \xff\r\nMaxRequestWorkers 10\r\nServerName h\xf4te\r\n',
    );
  });
});

describe('--write and --check', () => {
  test('--write applies, then --check exits 0 and a second --write changes nothing', () => {
    copyExamples();
    const w = codemod(tmp, '--write', 'examples');
    expect(w.stderr).toMatch(/ changed, /);
    expect(w.status).toBe(0);
    const mpm = fs.readFileSync(path.join(tmp, 'examples/upstream-2.2/conf/extra/httpd-mpm.conf'), 'latin1');
    expect(mpm).toMatch(/^    MaxRequestWorkers   150$/m);
    expect(mpm).not.toMatch(/MaxClients  /);
    const after = snapshot(tmp);
    const c = codemod(tmp, '--check', 'examples');
    expect(c.status).toBe(0);
    expect(c.stdout).toBe('');
    expect(codemod(tmp, '--write', 'examples').status).toBe(0);
    expect(snapshot(tmp)).toEqual(after);
  });

  test('--check exits 1 and names the files that would change, without a diff', () => {
    write('a.conf', 'MaxClients 5\n');
    write('b.conf', 'ServerName x\n');
    const r = codemod(tmp, '--check', 'a.conf', 'b.conf');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^would change: a\.conf$/m);
    expect(r.stderr).not.toMatch(/b\.conf/);
  });

  test('keeps the mode, writes through a symlink once, keeps hard links together', () => {
    const real = write('real/site.conf', 'MaxClients 5\n', 0o640);
    fs.mkdirSync(path.join(tmp, 'enabled'));
    fs.symlinkSync('../real/site.conf', path.join(tmp, 'enabled/site.conf'));
    const hard = write('hard-a.conf', 'KeepAlive 1\n');
    fs.linkSync(hard, path.join(tmp, 'hard-b.conf'));
    const r = codemod(tmp, '--write', 'enabled', 'real', 'hard-a.conf', 'hard-b.conf');
    expect(r.stderr).toMatch(/0 errors/);
    expect(r.status).toBe(0);
    expect(fs.lstatSync(path.join(tmp, 'enabled/site.conf')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'latin1')).toBe('MaxRequestWorkers 5\n');
    expect(fs.statSync(real).mode & 0o777).toBe(0o640);
    expect(fs.statSync(hard).nlink).toBe(2);
    expect(fs.readFileSync(path.join(tmp, 'hard-b.conf'), 'latin1')).toBe('KeepAlive On\n');
  });
});

describe('errors', () => {
  test('a missing path: one line naming it, exit 2, other files still processed', () => {
    write('ok.conf', 'MaxClients 5\n');
    const r = codemod(tmp, '--write', 'nope.conf', 'ok.conf');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: nope\.conf: .*no such file/im);
    expect(fs.readFileSync(path.join(tmp, 'ok.conf'), 'latin1')).toBe('MaxRequestWorkers 5\n');
  });

  test('a binary file named on the command line: exit 2, file untouched', () => {
    const bin = write('blob.conf', 'MaxClients 5\n\0\x01\x02');
    const r = codemod(tmp, '--write', 'blob.conf');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: blob\.conf: .*binary/im);
    expect(fs.readFileSync(bin, 'latin1')).toBe('MaxClients 5\n\0\x01\x02');
  });

  test('an unbalanced section: file and line, exit 2, file byte-identical, the rest written', () => {
    const broken = '<VirtualHost *:80>\r\n  MaxClients 5\r\n<Directory /x>\r\n</VirtualHost>\r\n';
    write('broken.conf', broken);
    write('good.conf', 'MaxClients 5\n');
    const r = codemod(tmp, '--write', 'broken.conf', 'good.conf');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: broken\.conf:4: expected <\/Directory> but saw <\/VirtualHost> \(<Directory> opened on line 3\)$/m);
    expect(fs.readFileSync(path.join(tmp, 'broken.conf'), 'latin1')).toBe(broken);
    expect(fs.readFileSync(path.join(tmp, 'good.conf'), 'latin1')).toBe('MaxRequestWorkers 5\n');
  });

  test('usage errors exit 2', () => {
    write('a.conf', 'MaxClients 5\n');
    expect(codemod(tmp, '--write', '--check', 'a.conf').status).toBe(2);
    expect(codemod(tmp, '--only', 'no-such-transform', 'a.conf').status).toBe(2);
    expect(codemod(tmp, '--no-such-flag', 'a.conf').status).toBe(2);
    expect(codemod(tmp).status).toBe(2);
    expect(fs.readFileSync(path.join(tmp, 'a.conf'), 'latin1')).toBe('MaxClients 5\n');
  });
});

describe('selection and listing', () => {
  test('--only and --skip pick transforms by id', () => {
    write('a.conf', 'MaxClients 5\nKeepAlive 1\n');
    const only = codemod(tmp, '--only', 'rename-max-clients', 'a.conf');
    expect(only.stdout).toMatch(/^\+MaxRequestWorkers 5$/m);
    expect(only.stdout).not.toMatch(/KeepAlive On/);
    const skip = codemod(tmp, '--skip', 'rename-max-clients,remove-default-type', 'a.conf');
    expect(skip.stdout).not.toMatch(/MaxRequestWorkers/);
    expect(skip.stdout).toMatch(/^\+KeepAlive On$/m);
  });

  test('--list-transforms prints the registry in order', () => {
    const r = codemod(tmp, '--list-transforms');
    expect(r.status).toBe(0);
    const ids = r.stdout.split('\n').filter((l) => /^\S/.test(l)).map((l) => l.split(/\s+/)[0]);
    expect(ids).toEqual(TRANSFORMS.map((t) => t.id));
    expect(ids[0]).toBe('byte-order-mark');
    expect(ids[ids.length - 1]).toBe('load-modules');
  });

  test('--format json reports files, findings and the summary', () => {
    write('a.conf', 'NameVirtualHost *:80\nDefaultType text/plain\n');
    const r = codemod(tmp, '--format', 'json', 'a.conf');
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.summary).toMatchObject({ changed: 1, errors: 0, needReview: 1 });
    expect(report.findings.map((f: { code: string; line: number }) => [f.code, f.line])).toEqual([
      ['name-virtual-host-removed', 1],
      ['default-type-removed', 2],
    ]);
    expect(report.patch).toMatch(/^-NameVirtualHost \*:80$/m);
  });
});

/** A small fleet: several servers of both layouts, plus fragments and a per-directory file. */
function buildFleet(): string {
  const fleet = path.join(tmp, 'fleet');
  for (let i = 0; i < 6; i++) {
    const layout = i % 2 === 0 ? 'debian-2.2' : 'upstream-2.2';
    fs.cpSync(path.join(ROOT, 'examples', layout), path.join(fleet, `host${i}`), { recursive: true, verbatimSymlinks: true });
  }
  write('fleet/loose/site.conf', '<Directory /srv/x>\n    Order deny,allow\n    Deny from all\n</Directory>\nMaxClients 5\n');
  write('fleet/loose/broken.conf', '<Directory /srv/y>\nMaxClients 5\n');
  return fleet;
}

describe('--jobs', () => {
  test('diff, findings, summary and exit code are the same for 1, 2 and 3 jobs', () => {
    buildFleet();
    const runs = ['1', '2', '3'].map((n) => codemod(tmp, '--jobs', n, 'fleet'));
    expect(runs[0].status).toBe(2); // broken.conf
    expect(runs[0].stdout).toMatch(/^diff --git a\/fleet\/host0\//m);
    expect(runs[0].stderr).toMatch(/error: fleet\/loose\/broken\.conf:1: /);
    for (const r of runs.slice(1)) {
      expect(r.status).toBe(runs[0].status);
      expect(r.stdout).toBe(runs[0].stdout);
      expect(r.stderr).toBe(runs[0].stderr);
    }
    const json = ['1', '3'].map((n) => codemod(tmp, '--jobs', n, '--format', 'json', 'fleet').stdout);
    expect(json[1]).toBe(json[0]);
  });

  test('--write with 2 jobs gives the same bytes as with 1', () => {
    buildFleet();
    fs.cpSync(path.join(tmp, 'fleet'), path.join(tmp, 'fleet1'), { recursive: true, verbatimSymlinks: true });
    codemod(tmp, '--write', '--jobs', '2', 'fleet');
    codemod(tmp, '--write', '--jobs', '1', 'fleet1');
    expect(snapshot(path.join(tmp, 'fleet'))).toEqual(snapshot(path.join(tmp, 'fleet1')));
  });

  test('--jobs must be a whole number of at least 1', () => {
    write('a.conf', 'MaxClients 5\n');
    expect(codemod(tmp, '--jobs', '0', 'a.conf').status).toBe(2);
    expect(codemod(tmp, '--jobs', '1.5', 'a.conf').status).toBe(2);
  });
});

describe('--format json servers', () => {
  test('one entry per server with a stable id, its main config, status, files, findings and module plan', () => {
    buildFleet();
    const r = codemod(tmp, '--format', 'json', 'fleet');
    const report = JSON.parse(r.stdout);
    const byMain = new Map(report.servers.map((s: { main: string | null; id: string }) => [s.main ?? s.id, s]));
    const debian = byMain.get('fleet/host0/apache2.conf') as Record<string, unknown> & { files: { path: string; role: string }[]; modules: { module: string; action: string }[]; findings: unknown[] };
    expect(debian).toMatchObject({ main: 'fleet/host0/apache2.conf', status: 'review' });
    expect(debian.id).toMatch(/^fleet-host0-apache2\.conf-[0-9a-f]{8}$/);
    expect(debian.files[0]).toEqual({ path: 'fleet/host0/apache2.conf', role: 'main', status: 'changed' });
    expect(debian.files.some((f) => f.role === 'included')).toBe(true);
    expect(debian.modules).toEqual(expect.arrayContaining([expect.objectContaining({ module: 'mpm_prefork', action: 'load' })]));
    expect(debian.findings.length).toBeGreaterThan(0);
    const broken = report.servers.find((s: { id: string }) => s.id.startsWith('fleet-loose-broken.conf-'));
    expect(broken).toMatchObject({ main: null, status: 'error' });
    expect(broken.errors[0].message).toBe('<Directory> is never closed');
    const loose = report.servers.find((s: { id: string }) => s.id.startsWith('fleet-loose-site.conf-'));
    expect(loose).toMatchObject({ main: null, status: expect.stringMatching(/^(migrated|review)$/) });
    // ids are stable across runs and distinct
    const again = JSON.parse(codemod(tmp, '--format', 'json', 'fleet').stdout);
    expect(again.servers.map((s: { id: string }) => s.id)).toEqual(report.servers.map((s: { id: string }) => s.id));
    expect(new Set(report.servers.map((s: { id: string }) => s.id)).size).toBe(report.servers.length);
    // the flat fields stay, and agree with the servers
    expect(report.files.length).toBe(report.servers.reduce((n: number, s: { files: unknown[] }) => n + s.files.length, 0));
    expect(report.findings.length).toBe(report.servers.reduce((n: number, s: { findings: unknown[] }) => n + s.findings.length, 0));
  });
});

describe('--context', () => {
  const CONTEXT = [
    'ServerRoot "{{ROOT}}/ctx"',
    'LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so',
    'LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so',
    'LoadModule authz_host_module /usr/lib/apache2/modules/mod_authz_host.so',
    '<Directory />',
    '    AllowOverride None',
    '    Require all denied',
    '</Directory>',
    '',
  ].join('\n');
  const SITE = ['<VirtualHost *:80>', '    DocumentRoot /srv/shop', '    <Directory /srv/shop>', '        Order allow,deny', '        Allow from all', '    </Directory>', '</VirtualHost>', ''].join('\n');

  test('supplies the parents of the files given after it, and is never written', () => {
    fs.mkdirSync(path.join(tmp, 'ctx'));
    fs.mkdirSync(path.join(tmp, 'sites'));
    const context = CONTEXT.replace('{{ROOT}}', tmp);
    fs.writeFileSync(path.join(tmp, 'ctx/httpd.conf'), context);
    fs.writeFileSync(path.join(tmp, 'sites/shop.conf'), SITE);
    const r = codemod(tmp, '--write', '--context', 'ctx/httpd.conf', 'sites');
    expect(r.stderr).toMatch(/sites\/shop\.conf:3: review \[access-mixed-differs\] GET a file matched by <Directory \/srv\/shop> from 198\.51\.100\.7, without credentials: httpd 2\.4 \+ mod_access_compat answers 403 today, the migrated config 200/);
    expect(r.stderr).not.toMatch(/access-context-assumed|module-needed/);
    expect(fs.readFileSync(path.join(tmp, 'ctx/httpd.conf'), 'latin1')).toBe(context);
    expect(fs.readFileSync(path.join(tmp, 'sites/shop.conf'), 'latin1')).toBe(SITE.replace('        Order allow,deny\n        Allow from all\n', '        Require all granted\n'));
    // negative control: without the context the same site is migrated under the assumed stock main config
    fs.writeFileSync(path.join(tmp, 'sites/shop.conf'), SITE);
    const alone = codemod(tmp, 'sites');
    expect(alone.stderr).toMatch(/access-context-assumed/);
    expect(alone.stderr).not.toMatch(/access-mixed-differs/);
  });

  test('reports what the context lacks against it instead of writing it', () => {
    fs.mkdirSync(path.join(tmp, 'ctx'));
    fs.mkdirSync(path.join(tmp, 'sites'));
    const context = CONTEXT.replace('{{ROOT}}', tmp).replace(/LoadModule authz_host_module .*\n/, '');
    fs.writeFileSync(path.join(tmp, 'ctx/httpd.conf'), context);
    fs.writeFileSync(path.join(tmp, 'sites/shop.conf'), SITE.replace('Allow from all', 'Allow from 10.0.0.0/8'));
    const r = codemod(tmp, '--write', '--context', 'ctx/httpd.conf', 'sites');
    expect(r.stderr).toMatch(/ctx\/httpd\.conf: manual \[module-needed\] the migrated files need authz_host_module on 2\.4/);
    expect(r.status).toBe(1);
    expect(fs.readFileSync(path.join(tmp, 'ctx/httpd.conf'), 'latin1')).toBe(context);
  });
});
