/**
 * Helpers for the `--verify` tests: the built CLI run on temporary trees (with TMPDIR inside the
 * test's own directory, so the stages it creates and removes can be checked), a small 2.2 shop
 * tree whose access rules the request replay exercises (addresses inside and outside 127.0.0.0/8,
 * Basic authentication with users and groups, `<LimitExcept>`, `<Files>`, name-based virtual
 * hosts, per-directory files), and in-process migration for tests that plant a bug in the
 * migrated text before verifying it.
 */
import { spawnSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { selectTransforms } from '../../transforms';
import { fileResult, runServer } from '../../src/run/runner';
import { discover } from '../../src/server/discover';
import { ServerFileText } from '../../src/verify/stage-server';
import { APACHE2 } from './httpd';
import { copyTree, testPki } from './whole-server';

export const REPO = path.resolve(__dirname, '..', '..');
export const CLI = path.join(REPO, 'dist', 'src', 'cli.js');

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built CLI in `cwd`, with TMPDIR = `tmp` (the stages go there). */
export function runCli(args: readonly string[], cwd: string, tmp: string): CliRun {
  fs.mkdirSync(tmp, { recursive: true });
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'latin1', env: { ...process.env, TMPDIR: tmp }, timeout: 240000 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** sha1 of every regular file below `dir`, by relative path. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile()) out[path.relative(dir, p)] = createHash('sha1').update(fs.readFileSync(p)).digest('hex');
    }
  };
  visit(dir);
  return out;
}

/** Processes whose command line names `needle` (to check that no staged httpd outlives a run). */
export function processesNaming(needle: string): string[] {
  const r = spawnSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return (r.stdout ?? '').split('\n').filter((l) => l.includes(needle) && !l.includes('ps -eo'));
}

/**
 * A copy of examples/upstream-2.2 that this machine's httpd can start as it is: the files the
 * tree expects beside its config and a real install would hold (the SSL certificate and key, the
 * CA bundle, the CRL directory, mime.types) are put in, from the throw-away PKI and /etc/mime.types.
 */
export function upstreamTree(dest: string): string {
  copyTree(path.join(REPO, 'examples', 'upstream-2.2'), dest);
  const pki = testPki();
  const conf = path.join(dest, 'conf');
  fs.writeFileSync(path.join(conf, 'server.crt'), pki.serverCert);
  fs.writeFileSync(path.join(conf, 'server.key'), pki.serverKey);
  fs.mkdirSync(path.join(conf, 'ssl.crt'));
  fs.writeFileSync(path.join(conf, 'ssl.crt', 'ca-bundle.crt'), pki.caBundle);
  fs.mkdirSync(path.join(conf, 'ssl.crl'));
  fs.copyFileSync('/etc/mime.types', path.join(conf, 'mime.types'));
  return dest;
}

/** Debian's example tree without its SSL site (whose certificate lives in /etc/ssl, outside the tree). */
export function debianTree(dest: string): string {
  copyTree(path.join(REPO, 'examples', 'debian-2.2'), dest);
  fs.unlinkSync(path.join(dest, 'sites-enabled', 'default-ssl'));
  return dest;
}

const SHOP_MODULES = ['authz_host', 'authz_user', 'authz_groupfile', 'authn_file', 'auth_basic', 'alias', 'rewrite'];

/**
 * The shop: a 2.2 server written for ServerRoot /srv/shop (so the stage must map it), with
 * relative LoadModule paths (which the copy does not hold: the httpd's module directory stands in).
 */
export function shopTree(dest: string): string {
  const files: Record<string, string> = {
    'conf/httpd.conf': [
      'ServerRoot "/srv/shop"',
      ...SHOP_MODULES.map((m) => `LoadModule ${m}_module modules/mod_${m}.so`),
      'Listen 8080',
      'User www-data',
      'Group www-data',
      'ServerName shop.example.com',
      'PidFile logs/httpd.pid',
      'ErrorLog logs/error_log',
      'LockFile logs/accept.lock',
      'DocumentRoot "/srv/shop/htdocs"',
      '',
      '<Directory />',
      '    Order deny,allow',
      '    Deny from all',
      '</Directory>',
      '',
      '<Directory "/srv/shop/htdocs">',
      '    Order allow,deny',
      '    Allow from all',
      '</Directory>',
      '',
      '# the back office: the office network, or a login',
      '<Directory "/srv/shop/htdocs/admin">',
      '    Order deny,allow',
      '    Deny from all',
      '    Allow from 127.0.0.5 10.20.0.0/16',
      '    AuthType Basic',
      '    AuthName "back office"',
      '    AuthUserFile /srv/shop/conf/htpasswd',
      '    Require valid-user',
      '    Satisfy Any',
      '</Directory>',
      '',
      '# orders may be read by anyone, changed by nobody',
      '<Directory "/srv/shop/htdocs/orders">',
      '    <LimitExcept GET>',
      '        Order deny,allow',
      '        Deny from all',
      '    </LimitExcept>',
      '</Directory>',
      '',
      '# retired: mod_rewrite answers here, not the access rules',
      '<Directory "/srv/shop/htdocs/legacy">',
      '    RewriteEngine On',
      '    RewriteRule ^ - [F]',
      '</Directory>',
      '',
      '<Files "*.bak">',
      '    Order allow,deny',
      '    Deny from all',
      '    Satisfy All',
      '</Files>',
      '',
      'NameVirtualHost *:8080',
      '<VirtualHost *:8080>',
      '    ServerName shop.example.com',
      '    DocumentRoot /srv/shop/htdocs',
      '</VirtualHost>',
      '',
      '<VirtualHost *:8080>',
      '    ServerName staff.example.com',
      '    DocumentRoot /srv/shop/staff',
      '    <Directory /srv/shop/staff>',
      '        Order allow,deny',
      '        Allow from all',
      '        AuthType Basic',
      '        AuthName staff',
      '        AuthUserFile /srv/shop/conf/htpasswd',
      '        AuthGroupFile /srv/shop/conf/htgroups',
      '        Require group staff',
      '    </Directory>',
      '</VirtualHost>',
      '',
    ].join('\n'),
    'conf/htpasswd': 'alice:{SHA}secret-is-not-this\n',
    'conf/htgroups': 'staff: alice\n',
    'htdocs/index.html': 'shop\n',
    'htdocs/reports/.htaccess': 'Order deny,allow\nDeny from all\nAllow from 127.0.0.0/255.255.255.0\n',
    'htdocs/members/.htaccess': 'AuthType Basic\nAuthName members\nAuthUserFile /srv/shop/conf/htpasswd\nRequire valid-user\n',
    'staff/index.html': 'staff\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dest, rel)), { recursive: true });
    fs.writeFileSync(path.join(dest, rel), text);
  }
  fs.mkdirSync(path.join(dest, 'logs'));
  return dest;
}

export interface InProcessMigration {
  readonly main: ServerFileText;
  readonly files: ServerFileText[];
  readonly serverRoot: string;
  /** A per-directory file's migrated text, as its own run makes it. */
  readonly migratePerDirectory: (realPath: string) => string | null;
}

function migrateOne(file: string): string | null {
  const d = discover([file]);
  const server = d.servers[0];
  if (!server) return null;
  const run = runServer(server, selectTransforms([], []), { httpd: APACHE2 });
  const result = fileResult(server.files[0], run.failed.get(server.files[0].realPath));
  return result.status === 'changed' ? result.output : null;
}

/** Migrates the server whose main config is `mainConfig` in-process (nothing written), with its original and migrated texts. */
export function migrateInMemory(mainConfig: string): InProcessMigration {
  const d = discover([mainConfig]);
  const server = d.servers.find((s) => s.main?.realPath === fs.realpathSync(mainConfig));
  if (!server || !server.main || !server.serverRoot) throw new Error(`no server for ${mainConfig}`);
  const originals = new Map(server.files.map((f) => [f.realPath, f.original]));
  const run = runServer(server, selectTransforms([], []), { httpd: APACHE2 });
  const files = server.files.map((f) => ({
    realPath: f.realPath,
    displayPath: f.displayPath,
    role: f.role,
    original: originals.get(f.realPath) as string,
    migrated: fileResult(f, run.failed.get(f.realPath)).output,
  }));
  const main = files.find((f) => f.realPath === server.main?.realPath) as ServerFileText;
  return { main, files, serverRoot: server.serverRoot, migratePerDirectory: migrateOne };
}

/** The migration with one replacement in one file's migrated text (which must occur exactly once). */
export function plant(m: InProcessMigration, fileEnd: string, from: string, to: string): InProcessMigration {
  const files = m.files.map((f) => {
    if (!f.realPath.endsWith(fileEnd)) return f;
    const count = f.migrated.split(from).length - 1;
    if (count !== 1) throw new Error(`${fileEnd}: expected one ${JSON.stringify(from)} in the migrated text, found ${count}:\n${f.migrated}`);
    return { ...f, migrated: f.migrated.replace(from, to) };
  });
  return { ...m, files, main: files.find((f) => f.realPath === m.main.realPath) as ServerFileText };
}
