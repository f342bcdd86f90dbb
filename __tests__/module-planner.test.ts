/**
 * The module planner on the bundled 2.2 trees, checked by the real httpd 2.4:
 * after rename-module-references + load-modules, `apache2 -t` on a copy of the
 * tree finds no "Invalid command" for any directive 2.4 has (lines 2.4 removed
 * altogether belong to other transforms and are set aside), loads no built-in
 * twice, and loads no module file that does not exist. Without the planner the
 * same check fails (negative control).
 */
import * as fs from 'fs';
import * as path from 'path';
import { APACHE2, tempDir } from './support/httpd';
import { configtestSettingAside, copyTree, linkModules, migrate, replaceInTree } from './support/modules-harness';
import { renameModuleReferences } from '../transforms/rename-module-references';
import { stubSslFiles } from './support/whole-server';

const EXAMPLES = path.join(__dirname, '..', 'examples');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const d = tempDir('codemod-planner-');
  dirs.push(d);
  return d;
}

/** A copy of examples/upstream-2.2 whose ServerRoot is the copy (paths mapped after migration, test-side). */
function upstreamCopy(): { root: string; conf: string } {
  const root = scratch();
  copyTree(path.join(EXAMPLES, 'upstream-2.2'), root);
  return { root, conf: path.join(root, 'conf', 'httpd.conf') };
}

function prepareUpstream(root: string): void {
  replaceInTree(root, '/usr/local/apache2', root);
  replaceInTree(root, 'Listen 80', 'Listen 127.0.0.1:8');
  linkModules(root);
  for (const d of ['logs', 'htdocs', 'cgi-bin', 'manual', 'icons', 'error']) fs.mkdirSync(path.join(root, d), { recursive: true });
  stubSslFiles(root); // httpd-ssl.conf is included: certificate, CA file, CRL directory
}

function debianEnv(root: string): NodeJS.ProcessEnv {
  // sites-enabled/default-ssl: its certificate, CA file and CRL live under /etc; map them into the copy
  replaceInTree(root, '/etc/ssl/', `${root}/ssl/`);
  replaceInTree(root, '/etc/apache2/', `${root}/`);
  stubSslFiles(root);
  for (const d of ['run', 'lock', 'log']) fs.mkdirSync(path.join(root, d), { recursive: true });
  return {
    APACHE_RUN_USER: 'www-data',
    APACHE_RUN_GROUP: 'www-data',
    APACHE_PID_FILE: path.join(root, 'run', 'apache2.pid'),
    APACHE_RUN_DIR: path.join(root, 'run'),
    APACHE_LOCK_DIR: path.join(root, 'lock'),
    APACHE_LOG_DIR: path.join(root, 'log'),
  };
}

describe('upstream 2.2 layout (examples/upstream-2.2)', () => {
  test('without planning, httpd 2.4 rejects it for module reasons (negative control)', () => {
    const { root, conf } = upstreamCopy();
    prepareUpstream(root);
    const r = configtestSettingAside(['-f', conf]);
    expect(r.ok).toBe(false);
    // the first module failure: a renamed/removed module file, a built-in loaded again, or no MPM
    expect(r.output).toMatch(/Cannot load .*mod_authn_default\.so|is built-in and can't be loaded|No MPM loaded|Invalid command/);
  });

  test('planned with --httpd: apache2 -t passes, built-ins guarded, every used directive has its module', () => {
    const { root, conf } = upstreamCopy();
    const result = migrate([conf], { httpd: APACHE2 });
    expect(result.errors).toEqual([]);
    const text = fs.readFileSync(conf, 'latin1');
    // built into Debian's 2.4: guarded, and no new line for them
    expect(text).toContain('<IfModule !log_config_module>\n    LoadModule log_config_module modules/mod_log_config.so\n</IfModule>');
    expect(text).not.toMatch(/LoadModule unixd_module/);
    expect(text).toMatch(/^#LoadModule authn_default_module/m);
    expect(text).toMatch(/^LoadModule mpm_prefork_module modules\/mod_mpm_prefork\.so$/m);
    expect(text).toMatch(/^LoadModule access_compat_module modules\/mod_access_compat\.so$/m);
    // with a probed httpd no guard is written around new lines
    expect(text).not.toMatch(/<IfModule !access_compat_module>/);
    prepareUpstream(root);
    const r = configtestSettingAside(['-f', conf]);
    expect(r.output).toContain('Syntax OK');
    expect(r.output).not.toMatch(/Invalid command|Cannot load|built-in|AH01574/);
    expect(r.ok).toBe(true);
    // what was set aside are 2.2 directives 2.4 removed (other transforms), never a module matter
    for (const line of r.setAside) expect(line).toMatch(/LockFile|AcceptMutex|SSLMutex|RewriteLog|DefaultType|Authz\w*Authoritative/);
    const codes = new Set(result.findings.map((f) => f.code));
    expect(codes).toEqual(new Set(['module-builtin-guarded', 'module-removed', 'mpm-loaded', 'module-loaded']));
  });

  test('planned without --httpd (guarded lines) also passes, and a second run changes nothing', () => {
    const { root, conf } = upstreamCopy();
    migrate([conf], {});
    const once = fs.readFileSync(conf, 'latin1');
    expect(once).toContain("<IfModule !access_compat_module>\n    LoadModule access_compat_module modules/mod_access_compat.so\n</IfModule>");
    const again = migrate([conf], {});
    expect(again.files.filter((f) => f.status === 'changed')).toEqual([]);
    prepareUpstream(root);
    const r = configtestSettingAside(['-f', conf]);
    expect(r.output).not.toMatch(/Invalid command|Cannot load|built-in|AH01574/);
    expect(r.ok).toBe(true);
  });
});

describe('Debian 2.2 layout (examples/debian-2.2)', () => {
  function debianCopy(): string {
    const root = scratch();
    copyTree(path.join(EXAMPLES, 'debian-2.2'), root);
    return root;
  }

  test('without planning, httpd 2.4 rejects it (negative control)', () => {
    const root = debianCopy();
    const r = configtestSettingAside(['-d', root, '-f', path.join(root, 'apache2.conf')], debianEnv(root));
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/Cannot load .*mod_authz_default\.so|No MPM loaded|Invalid command/);
  });

  test('planned: lines go beside `Include mods-enabled/*.load`, renamed .load files are rewritten in place, apache2 -t passes', () => {
    const root = debianCopy();
    const result = migrate([root], { httpd: APACHE2 });
    expect(result.errors).toEqual([]);
    const main = fs.readFileSync(path.join(root, 'apache2.conf'), 'latin1');
    const include = main.indexOf('Include mods-enabled/*.load\n');
    expect(include).toBeGreaterThan(0);
    const after = main.slice(include);
    // the MPM goes before the first <IfModule mpm_prefork_module>: IfModule is evaluated while the file is read
    const mpmLine = main.indexOf('LoadModule mpm_prefork_module /usr/lib/apache2/modules/mod_mpm_prefork.so\n');
    expect(mpmLine).toBeGreaterThan(0);
    expect(mpmLine).toBeLessThan(main.indexOf('<IfModule mpm_prefork_module>'));
    expect(after).toMatch(/^Include mods-enabled\/\*\.load\nLoadModule /);
    expect(after).toMatch(/LoadModule access_compat_module \/usr\/lib\/apache2\/modules\/mod_access_compat\.so\n/);
    // the enabled .load files keep one module each; disabled ones (separate fragments) are renamed in place
    expect(fs.readFileSync(path.join(root, 'mods-available', 'alias.load'), 'latin1')).toBe(
      fs.readFileSync(path.join(EXAMPLES, 'debian-2.2', 'mods-available', 'alias.load'), 'latin1'),
    );
    expect(fs.readFileSync(path.join(root, 'mods-available', 'disk_cache.load'), 'latin1')).toBe(
      '# Depends: cache\nLoadModule cache_disk_module /usr/lib/apache2/modules/mod_cache_disk.so\n',
    );
    expect(fs.readFileSync(path.join(root, 'mods-enabled', 'authz_default.load'), 'latin1')).toMatch(/^#LoadModule authz_default_module/);
    const loaded = result.findings.filter((f) => f.code === 'module-loaded' || f.code === 'mpm-loaded');
    expect(loaded.length).toBeGreaterThan(0);
    for (const f of loaded) expect(f.message).toMatch(/a2enmod/);
    const r = configtestSettingAside(['-d', root, '-f', path.join(root, 'apache2.conf')], debianEnv(root));
    expect(r.output).not.toMatch(/Invalid command|Cannot load|built-in|AH01574/);
    expect(r.ok).toBe(true);
  });

  test('the rename transform alone leaves the server without an MPM (the planner is what adds it)', () => {
    const root = debianCopy();
    migrate([root], {}, [renameModuleReferences]);
    const r = configtestSettingAside(['-d', root, '-f', path.join(root, 'apache2.conf')], debianEnv(root));
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/No MPM loaded|Invalid command/);
  });
});
