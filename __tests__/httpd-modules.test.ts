/**
 * Module knowledge and the module transforms, judged by the real httpd 2.4:
 *  - the `--httpd` probe finds Debian's built-ins and module directory (as `apache2 -l` says);
 *  - a 2.2 config using Require, AuthType, User, SSLSessionCache shmcb, a balancer and
 *    AddOutputFilterByType with only its 2.2 LoadModule lines fails on 2.4; planned, it passes
 *    `apache2 -t` without a warning, starts and answers (balancer modules only fail at start-up);
 *  - renamed modules: `<IfModule>` tests match again (DUMP_RUN_CFG), removed ones no longer break;
 *  - a module missing from the probed httpd's module directory is reported;
 *  - the committed directive table is what the generator makes from this httpd.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { probeHttpd } from '../src/modules/probe';
import { transformText } from '../src/run/runner';
import { APACHE2, MODULES_DIR, builtinModules, configtest, freePorts, startServerChecked, tempDir, localRequest } from './support/httpd';
import { MODULE_TRANSFORMS, linkModules } from './support/modules-harness';
import { RunOptions } from '../src/model/run-options';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const d = tempDir('codemod-modules-');
  dirs.push(d);
  fs.chmodSync(d, 0o755); // the children run as www-data
  linkModules(d);
  for (const sub of ['htdocs/private', 'logs']) fs.mkdirSync(path.join(d, sub), { recursive: true });
  fs.writeFileSync(path.join(d, 'htdocs', 'index.html'), 'hello\n');
  fs.writeFileSync(path.join(d, 'htdocs', 'private', 'index.html'), 'secret\n');
  fs.writeFileSync(path.join(d, 'passwd'), 'bob:not-a-hash\n');
  return d;
}

function migrateText(text: string, options: RunOptions = {}) {
  return transformText(text, MODULE_TRANSFORMS, options, 'httpd.conf', 'main');
}

const get = async (port: number, urlPath: string): Promise<number> => (await localRequest(port, urlPath)).status;

describe('--httpd probe', () => {
  test('finds the built-ins `apache2 -l` lists and the Debian module directory', () => {
    const probe = probeHttpd(APACHE2);
    const sources = [...builtinModules()];
    expect(sources.length).toBeGreaterThan(0);
    expect(probe.builtins.size).toBe(sources.length);
    expect([...probe.builtins].sort()).toEqual(['core', 'http', 'log_config', 'logio', 'so', 'unixd', 'version', 'watchdog']);
    expect(probe.moduleDir).toBe(MODULES_DIR);
    expect(probe.moduleFiles.has('mod_authz_core.so')).toBe(true);
    expect(probe.version).toMatch(/^Apache\/2\.4\./);
  });

  test('a not-httpd binary is reported, not fatal', () => {
    const r = migrateText('ServerRoot /x\nLoadModule rewrite_module modules/mod_rewrite.so\n', { httpd: '/bin/true' });
    expect(r.errors).toEqual([]);
    expect(r.findings.map((f) => [f.code, f.severity])).toContainEqual(['httpd-probe-failed', 'review']);
  });
});

/** A 2.2 config: its LoadModule lines are what 2.2 needed; 2.2 had the MPM, User and Require built in. */
// a 2.2 config: the Mutex line only points 2.4's mutexes into the test's directory; MaxClients (2.2's
// name) keeps the file a 2.2 one for the planner (a main config written for 2.4 is taken to run on a
// build with Debian's built-ins, src/semantics/era.ts)
function config22(dir: string, port: number, backend: number): string {
  return `ServerRoot "${dir}"
PidFile "${dir}/httpd.pid"
ErrorLog "${dir}/error.log"
Mutex file:${dir} default
MaxClients 10
Listen 127.0.0.1:${port}
ServerName 127.0.0.1
TypesConfig /etc/mime.types

LoadModule authn_file_module modules/mod_authn_file.so
LoadModule authz_user_module modules/mod_authz_user.so
LoadModule auth_basic_module modules/mod_auth_basic.so
LoadModule log_config_module modules/mod_log_config.so
LoadModule mime_module modules/mod_mime.so
LoadModule deflate_module modules/mod_deflate.so
LoadModule ssl_module modules/mod_ssl.so
LoadModule proxy_module modules/mod_proxy.so
LoadModule proxy_http_module modules/mod_proxy_http.so
LoadModule proxy_balancer_module modules/mod_proxy_balancer.so
LoadModule dir_module modules/mod_dir.so

User www-data
Group www-data
DocumentRoot "${dir}/htdocs"
DirectoryIndex index.html
SSLSessionCache shmcb:${dir}/logs/ssl_scache(512000)
AddOutputFilterByType DEFLATE text/html text/plain
<Proxy balancer://app>
    BalancerMember http://127.0.0.1:${backend}
</Proxy>
ProxyPass /app balancer://app/
<Directory "${dir}/htdocs/private">
    AuthType Basic
    AuthName "private"
    AuthUserFile ${dir}/passwd
    Require valid-user
</Directory>
<IfModule log_config_module>
    LogFormat "%h %r %>s" short
    CustomLog ${dir}/logs/access.log short
</IfModule>
`;
}

describe('a 2.2 config using Require, AuthType, User, SSLSessionCache shmcb, a balancer, AddOutputFilterByType', () => {
  test('unplanned, with just an MPM added and the built-in log_config guarded, httpd 2.4 rejects it (negative control)', async () => {
    const dir = scratch();
    const [port, backend] = await freePorts(2);
    const text = config22(dir, port, backend)
      .replace('LoadModule authn_file_module', `LoadModule mpm_prefork_module modules/mod_mpm_prefork.so\nLoadModule authn_file_module`)
      .replace(/^(LoadModule log_config_module .*)$/m, '<IfModule !log_config_module>\n$1\n</IfModule>');
    const file = path.join(dir, 'unplanned.conf');
    fs.writeFileSync(file, text);
    const r = configtest(file);
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/'shmcb' session cache not supported|Invalid command '(AddOutputFilterByType|AuthType|Require)'/);
  });

  test.each(['authz_core', 'authn_core', 'socache_shmcb', 'filter', 'mpm_prefork'])(
    'each planned line is needed: without %s, apache2 -t fails',
    async (module) => {
      const dir = scratch();
      const [port, backend] = await freePorts(2);
      const planned = migrateText(config22(dir, port, backend), { httpd: APACHE2 }).output;
      const without = planned.replace(new RegExp(`^LoadModule ${module}_module .*\\n`, 'm'), '');
      expect(without).not.toBe(planned);
      const file = path.join(dir, 'without.conf');
      fs.writeFileSync(file, without);
      const r = configtest(file);
      expect(r.ok).toBe(false);
      expect(r.output).toMatch(/Invalid command|session cache not supported|No MPM loaded/);
    },
  );

  test.each([
    ['without --httpd (guarded lines)', { mpm: 'prefork' } as RunOptions],
    ['with --httpd /usr/sbin/apache2', { httpd: APACHE2 } as RunOptions],
  ])('planned %s: apache2 -t is silent, the server starts and answers', async (_label, options) => {
    const dir = scratch();
    const [port, backend] = await freePorts(2);
    const result = migrateText(config22(dir, port, backend), options);
    expect(result.errors).toEqual([]);
    const planned = result.output;
    const loaded = [...planned.matchAll(/^\s*LoadModule (\w+)_module/gm)].map((m) => m[1]);
    for (const m of ['mpm_prefork', 'authz_core', 'authn_core', 'socache_shmcb', 'filter', 'slotmem_shm', 'lbmethod_byrequests']) {
      expect(loaded).toContain(m);
    }
    if (options.httpd) {
      expect(loaded).not.toContain('unixd');
      expect(planned).not.toMatch(/<IfModule !(?!log_config_module)\w+>/);
    } else {
      expect(planned).toContain('<IfModule !unixd_module>\n    LoadModule unixd_module modules/mod_unixd.so\n</IfModule>');
    }
    expect(planned).toContain('<IfModule !log_config_module>\n    LoadModule log_config_module modules/mod_log_config.so\n</IfModule>');
    const file = path.join(dir, 'planned.conf');
    fs.writeFileSync(file, planned);
    const t = configtest(file);
    expect(t.output.trim()).toBe('Syntax OK');
    expect(t.ok).toBe(true);
    // idempotent
    expect(migrateText(planned, options).output).toBe(planned);

    const server = await startServerChecked(file, port, dir);
    try {
      expect(await get(port, '/')).toBe(200);
      expect(await get(port, '/private/')).toBe(401);
      expect(await get(port, '/app/')).toBe(503); // balancer up (slotmem + lbmethod), its only member down
    } finally {
      await server.stop();
    }
  }, 30000);

  test.each([['slotmem_shm', /AH01177/], ['lbmethod_byrequests', /AH02432/]])(
    'without the planned %s line the server does not start (apache2 -t does not notice)',
    async (module, message) => {
      const dir = scratch();
      const [port, backend] = await freePorts(2);
      const planned = migrateText(config22(dir, port, backend), { httpd: APACHE2 }).output;
      const without = planned.replace(new RegExp(`^LoadModule ${module}_module .*\\n`, 'm'), '');
      expect(without).not.toBe(planned);
      const file = path.join(dir, 'without.conf');
      fs.writeFileSync(file, without);
      expect(configtest(file).ok).toBe(true);
      await expect(startServerChecked(file, port, dir, 8000)).rejects.toThrow(message);
    },
    30000,
  );
});

describe('renamed and removed modules', () => {
  const base = (dir: string) => `ServerRoot "${dir}"
PidFile "${dir}/httpd.pid"
ErrorLog "${dir}/error.log"
ServerName 127.0.0.1
LoadModule cache_module modules/mod_cache.so
LoadModule disk_cache_module modules/mod_disk_cache.so
LoadModule authn_alias_module modules/mod_authn_alias.so
LoadModule authn_file_module modules/mod_authn_file.so
LoadModule authz_default_module modules/mod_authz_default.so
LoadModule authn_default_module modules/mod_authn_default.so
LoadModule mem_cache_module modules/mod_mem_cache.so
<IfModule mod_disk_cache.c>
    Define DISK_CACHE_ON
    CacheRoot ${dir}/cache
</IfModule>
<IfModule !disk_cache_module>
    Define NO_DISK_CACHE
</IfModule>
<IfModule mod_authn_alias.c>
    Define AUTHN_ALIAS_ON
    <AuthnProviderAlias file office>
        AuthUserFile ${dir}/passwd
    </AuthnProviderAlias>
</IfModule>
`;

  function dump(file: string): string {
    const r = spawnSync(APACHE2, ['-t', '-f', file, '-D', 'DUMP_RUN_CFG'], { encoding: 'utf8' });
    return `${r.stdout}${r.stderr}`;
  }

  test('the 2.2 lines cannot load on 2.4 (negative control)', () => {
    const dir = scratch();
    const file = path.join(dir, 'old.conf');
    fs.writeFileSync(file, base(dir).replace('LoadModule cache_module', 'LoadModule mpm_prefork_module modules/mod_mpm_prefork.so\nLoadModule cache_module'));
    expect(configtest(file).output).toMatch(/Cannot load modules\/mod_disk_cache\.so/);
  });

  test('renaming only the LoadModule line leaves the old <IfModule> names false (negative control)', () => {
    const dir = scratch();
    const file = path.join(dir, 'half.conf');
    const text = base(dir)
      .replace('LoadModule cache_module', 'LoadModule mpm_prefork_module modules/mod_mpm_prefork.so\nLoadModule cache_module')
      .replace('LoadModule disk_cache_module modules/mod_disk_cache.so', 'LoadModule cache_disk_module modules/mod_cache_disk.so')
      .replace(/^LoadModule (authn_alias|authz_default|authn_default|mem_cache)_module.*\n/gm, '');
    fs.writeFileSync(file, text);
    const out = dump(file);
    expect(out).not.toMatch(/DISK_CACHE_ON|AUTHN_ALIAS_ON/);
    expect(out).toMatch(/Define: NO_DISK_CACHE/);
  });

  test('migrated: loads, and the renamed <IfModule> tests hold on 2.4', () => {
    const dir = scratch();
    const result = migrateText(base(dir), { httpd: APACHE2 });
    expect(result.errors).toEqual([]);
    const file = path.join(dir, 'new.conf');
    fs.writeFileSync(file, result.output);
    expect(result.output).toMatch(/^LoadModule cache_disk_module modules\/mod_cache_disk\.so$/m);
    expect(result.output).toMatch(/^#LoadModule authz_default_module/m);
    const t = configtest(file);
    expect(t.output.trim()).toBe('Syntax OK');
    const out = dump(file);
    expect(out).toMatch(/Define: DISK_CACHE_ON/);
    expect(out).toMatch(/Define: AUTHN_ALIAS_ON/);
    expect(out).not.toMatch(/NO_DISK_CACHE/);
    const codes = result.findings.map((f) => `${f.code}:${f.severity}`);
    expect(codes).toEqual(
      expect.arrayContaining(['module-renamed:info', 'module-removed:info', 'module-removed:review', 'ifmodule-renamed:info', 'mpm-loaded:review']),
    );
  });
});

describe('a module missing from the probed httpd', () => {
  test('is reported for an existing LoadModule line and for a planned one', () => {
    // a prefix with the real binary and a module directory that lacks two modules
    const prefix = tempDir('codemod-prefix-');
    dirs.push(prefix);
    fs.mkdirSync(path.join(prefix, 'bin'));
    fs.mkdirSync(path.join(prefix, 'modules'));
    const bin = path.join(prefix, 'bin', 'httpd');
    fs.writeFileSync(bin, `#!/bin/sh\nexec ${APACHE2} "$@"\n`, { mode: 0o755 });
    for (const f of fs.readdirSync(MODULES_DIR)) {
      if (f !== 'mod_deflate.so' && f !== 'mod_slotmem_shm.so') fs.symlinkSync(path.join(MODULES_DIR, f), path.join(prefix, 'modules', f));
    }
    const probe = probeHttpd(bin);
    expect(probe.moduleDir).toBe(path.join(prefix, 'modules'));
    const text = 'ServerRoot /srv\nLoadModule proxy_module modules/mod_proxy.so\nLoadModule deflate_module modules/mod_deflate.so\nBalancerMember http://127.0.0.1:1\n';
    const r = migrateText(text, { httpd: bin });
    const missing = r.findings.filter((f) => f.code === 'module-not-installed');
    expect(missing.map((f) => [f.severity, f.line])).toEqual([
      ['manual', 3],
      ['manual', 0],
    ]);
    expect(missing[0].message).toContain('mod_deflate.so');
    expect(missing[1].message).toContain('mod_slotmem_shm.so');
  });
});

describe('the directive → module table', () => {
  test('is what scripts/gen-directive-modules.sh --compact makes from this httpd', () => {
    const committed = fs.readFileSync(path.join(__dirname, '..', 'src', 'modules', 'directive-modules.generated.json'), 'utf8');
    const fresh = execFileSync('bash', [path.join(__dirname, '..', 'scripts', 'gen-directive-modules.sh'), '--compact', APACHE2, MODULES_DIR], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 170000,
    });
    if (JSON.parse(fresh).generatedFrom !== JSON.parse(committed).generatedFrom) return; // another httpd: nothing to compare
    expect(fresh).toBe(committed);
  }, 180000);
});
