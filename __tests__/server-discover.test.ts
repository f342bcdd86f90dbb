import { CORPUS_DIR } from './support/corpus';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { discover } from '../src/server/discover';
import { RealPaths } from '../src/server/real-paths';
import { Discovery, ServerTree } from '../src/server/types';

const CORPUS = path.join(CORPUS_DIR, 'trees');
const DEBIAN = path.join(CORPUS, 'debian-wheezy-2.2.22');
const UPSTREAM = path.join(CORPUS, 'upstream-2.2-defaults');

type Entry = string | Buffer | { symlink: string } | { hardlink: string };

let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'server-discover-')));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Builds files, symlinks and hardlinks under `root` (created in order). */
function build(root: string, entries: Record<string, Entry>): string {
  for (const [rel, entry] of Object.entries(entries)) {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    if (typeof entry === 'string' || Buffer.isBuffer(entry)) fs.writeFileSync(p, entry);
    else if ('symlink' in entry) fs.symlinkSync(entry.symlink, p);
    else fs.linkSync(path.join(root, entry.hardlink), p);
  }
  return root;
}

/** Copies a corpus tree, makes it writable, and turns its symlink stubs back into symlinks. */
function copyTree(source: string, dest: string): string {
  fs.cpSync(source, dest, { recursive: true });
  const makeWritable = (p: string): void => {
    const stat = fs.lstatSync(p);
    fs.chmodSync(p, stat.isDirectory() ? 0o755 : 0o644);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) makeWritable(path.join(p, name));
  };
  makeWritable(dest);
  // The corpus stores a2enmod/a2ensite symlinks as small files holding the link target.
  for (const dir of ['mods-enabled', 'sites-enabled']) {
    const full = path.join(dest, dir);
    if (!fs.existsSync(full)) continue;
    for (const name of fs.readdirSync(full)) {
      const p = path.join(full, name);
      const target = fs.readFileSync(p, 'latin1').trim();
      if (!target.includes('\n') && fs.existsSync(path.resolve(full, target))) {
        fs.unlinkSync(p);
        fs.symlinkSync(target, p);
      }
    }
  }
  return dest;
}

const ids = (d: Discovery): string[] => d.servers.map((s) => s.id);
const shown = (s: ServerTree): string[] => s.files.map((f) => f.displayPath);
const allFiles = (d: Discovery) => d.servers.flatMap((s) => s.files);
const byId = (d: Discovery, id: string): ServerTree => {
  const s = d.servers.find((x) => x.id === id);
  if (!s) throw new Error(`no server ${id} in ${ids(d).join(', ')}`);
  return s;
};

describe('Debian layout (debian-wheezy-2.2.22)', () => {
  let root: string;
  beforeEach(() => {
    root = copyTree(DEBIAN, path.join(tmp, 'apache2'));
    expect(fs.lstatSync(path.join(root, 'sites-enabled/000-default')).isSymbolicLink()).toBe(true);
  });

  it('groups apache2.conf and its includes into one server, each file once', () => {
    const d = discover(['.'], { cwd: root });
    expect(d.errors).toEqual([]);
    const server = d.servers[0];
    expect(server.id).toBe('apache2.conf');
    expect(server.main?.role).toBe('main');
    expect(server.serverRoot).toBe(root);

    // what the Include lines reach; the rest of the tree is placed as if included (below)
    const files = server.files.filter((f) => f.asIf === undefined).map((f) => f.displayPath);
    const enabledMods = fs.readdirSync(path.join(root, 'mods-enabled'));
    const conf = fs.readdirSync(path.join(root, 'conf.d'));
    expect(files).toHaveLength(1 + enabledMods.length + 1 + conf.length + 1);
    expect(new Set(files).size).toBe(files.length);
    expect(files[0]).toBe('apache2.conf');
    // symlinked files show under their real name, once
    expect(files.filter((f) => f.startsWith('mods-enabled/') || f.startsWith('sites-enabled/'))).toEqual([]);
    expect(files).toContain('mods-available/alias.load');
    expect(files).toContain('mods-available/alias.conf');
    // include order: *.load, *.conf, ports.conf, conf.d/ (sorted), sites-enabled/
    const at = (f: string) => files.indexOf(f);
    expect(at('mods-available/status.load')).toBeLessThan(at('mods-available/alias.conf'));
    expect(at('mods-available/status.conf')).toBeLessThan(at('ports.conf'));
    expect(files.slice(at('ports.conf'))).toEqual([
      'ports.conf',
      'conf.d/charset',
      'conf.d/localized-error-pages',
      'conf.d/other-vhosts-access-log',
      'conf.d/security',
      'sites-available/default',
    ]);
    expect(server.files.slice(1).every((f) => f.role === 'included')).toBe(true);
    // the twin of each *-enabled Include line comes right after what that line reached
    const placed = shown(server);
    expect(placed.indexOf('sites-available/default-ssl')).toBe(placed.indexOf('sites-available/default') + 1);
    expect(placed.indexOf('mods-available/ssl.load')).toBeLessThan(placed.indexOf('mods-available/alias.conf'));

    const mainIncludes = server.includes.get(path.join(root, 'apache2.conf')) ?? [];
    expect(mainIncludes).toContain(path.join(root, 'mods-available/alias.load'));
    expect(mainIncludes[mainIncludes.length - 1]).toBe(path.join(root, 'sites-available/default'));
  });

  it('places the files no Include reaches as if a2ensite / a2enmod had linked them, and reports the rest as skipped', () => {
    const d = discover(['.'], { cwd: root });
    const real = allFiles(d).map((f) => f.realPath);
    expect(new Set(real).size).toBe(real.length);
    expect(ids(d)).toEqual(['apache2.conf']);
    const ssl = d.servers[0].files.find((f) => f.displayPath === 'sites-available/default-ssl');
    expect(ssl?.role).toBe('included');
    expect(ssl?.asIf).toMatch(/^as if included by line \d+ of apache2\.conf: sites-available\/, the files a2en\* would link into sites-enabled\//);
    const load = d.servers[0].files.find((f) => f.displayPath === 'mods-available/ssl.load');
    expect(load?.asIf).toMatch(/mods-available\/\*\.load, the files a2en\* would link into mods-enabled\/\*\.load/);
    expect(d.servers[0].files.find((f) => f.displayPath === 'mods-available/alias.load')?.asIf).toBeUndefined();
    // 89 files in mods-available, 2 sites, 4 conf.d, ports.conf, apache2.conf: all once
    expect(real).toHaveLength(89 + 2 + 4 + 1 + 1);
    expect(d.skipped).toEqual([
      { path: 'envvars', reason: 'not a configuration file name' },
      { path: 'magic', reason: 'not a configuration file name' },
    ]);
  });

  it('finds the same server from apache2.conf alone, showing the paths as included', () => {
    const whole = discover(['.'], { cwd: root });
    const alone = discover(['apache2.conf'], { cwd: root });
    expect(ids(alone)).toEqual(['apache2.conf']);
    const real = (s: ServerTree) => s.files.filter((f) => f.asIf === undefined).map((f) => f.realPath);
    expect(real(alone.servers[0])).toEqual(real(whole.servers[0]));
    // alone, nothing else of the tree was found: nothing is placed as if included
    expect(alone.servers[0].files.every((f) => f.asIf === undefined)).toBe(true);
    // only the symlinks were seen: they are the paths shown
    expect(shown(alone.servers[0])).toContain('mods-enabled/alias.load');
    expect(shown(alone.servers[0])).toContain('sites-enabled/000-default');
  });

  it('shows the symlink path when only the symlink was seen', () => {
    const d = discover(['sites-enabled/000-default'], { cwd: root });
    expect(d.servers).toHaveLength(1);
    expect(d.servers[0].files[0].displayPath).toBe('sites-enabled/000-default');
    expect(d.servers[0].files[0].realPath).toBe(path.join(root, 'sites-available/default'));
  });

  it('is deterministic', () => {
    const summary = (d: Discovery) => JSON.stringify([d.servers.map((s) => [s.id, shown(s), [...s.includes]]), d.skipped]);
    expect(summary(discover(['.'], { cwd: root }))).toBe(summary(discover(['.'], { cwd: root })));
  });
});

describe('upstream layout (upstream-2.2-defaults)', () => {
  it('maps ServerRoot "/usr/local/apache2" onto the tree and places the files of commented-out Includes where those lines stand', () => {
    const d = discover(['.'], { cwd: UPSTREAM });
    expect(d.errors).toEqual([]);
    expect(ids(d)).toEqual(['conf/httpd.conf']);
    const server = d.servers[0];
    expect(server.serverRoot).toBe(UPSTREAM);
    expect(server.files.filter((f) => f.asIf === undefined).map((f) => f.displayPath)).toEqual(['conf/httpd.conf']);
    expect(server.includes.get(path.join(UPSTREAM, 'conf/httpd.conf'))).toEqual([]);
    // in the order of the #Include lines of httpd.conf
    expect(shown(server)).toEqual([
      'conf/httpd.conf',
      'conf/extra/httpd-mpm.conf',
      'conf/extra/httpd-multilang-errordoc.conf',
      'conf/extra/httpd-autoindex.conf',
      'conf/extra/httpd-languages.conf',
      'conf/extra/httpd-userdir.conf',
      'conf/extra/httpd-info.conf',
      'conf/extra/httpd-vhosts.conf',
      'conf/extra/httpd-manual.conf',
      'conf/extra/httpd-dav.conf',
      'conf/extra/httpd-default.conf',
      'conf/extra/httpd-ssl.conf',
    ]);
    const dav = server.files.find((f) => f.displayPath === 'conf/extra/httpd-dav.conf');
    expect(dav?.asIf).toMatch(/^as if included by line \d+ of conf\/httpd\.conf: #Include conf\/extra\/httpd-dav\.conf \(commented out\)$/);
  });

  it('follows an uncommented relative Include and an absolute one under the configured ServerRoot', () => {
    const root = copyTree(UPSTREAM, path.join(tmp, 'apache'));
    const conf = path.join(root, 'conf/httpd.conf');
    const text = fs
      .readFileSync(conf, 'latin1')
      .replace('#Include conf/extra/httpd-mpm.conf', 'Include conf/extra/httpd-mpm.conf')
      .replace('#Include conf/extra/httpd-ssl.conf', 'Include /usr/local/apache2/conf/extra/httpd-ssl.conf');
    fs.writeFileSync(conf, text, 'latin1');
    const d = discover(['.'], { cwd: root });
    expect(d.errors).toEqual([]);
    expect(d.servers[0].serverRoot).toBe(root);
    expect(d.servers[0].files.filter((f) => f.asIf === undefined).map((f) => f.displayPath)).toEqual([
      'conf/httpd.conf',
      'conf/extra/httpd-mpm.conf',
      'conf/extra/httpd-ssl.conf',
    ]);
    expect(d.servers).toHaveLength(1);
    expect(d.servers[0].files).toHaveLength(12);
  });
});

describe('Include resolution', () => {
  it('follows an absolute-path Include outside the scanned directory', () => {
    const other = build(path.join(tmp, 'elsewhere'), { 'vhosts.conf': 'ServerName example.org\n' });
    const root = build(path.join(tmp, 'site'), { 'httpd.conf': `Include ${other}/vhosts.conf\n` });
    const d = discover(['.'], { cwd: root });
    expect(ids(d)).toEqual(['httpd.conf']);
    expect(shown(d.servers[0])).toEqual(['httpd.conf', `${other}/vhosts.conf`]);
    expect(d.servers[0].includes.get(path.join(root, 'httpd.conf'))).toEqual([path.join(other, 'vhosts.conf')]);
  });

  it('includes a directory recursively, sorted, without backups', () => {
    const root = build(tmp, {
      'httpd.conf': 'Include conf.d/\n',
      'conf.d/b': 'B\n',
      'conf.d/a.conf': 'A\n',
      'conf.d/a.conf~': 'old\n',
      'conf.d/a.conf.bak': 'old\n',
      'conf.d/a.conf.dpkg-old': 'old\n',
      'conf.d/sub/c.conf': 'C\n',
      'conf.d/z.conf': 'Z\n',
    });
    const d = discover(['httpd.conf'], { cwd: root });
    expect(d.errors).toEqual([]);
    expect(shown(d.servers[0])).toEqual(['httpd.conf', 'conf.d/a.conf', 'conf.d/b', 'conf.d/sub/c.conf', 'conf.d/z.conf']);
  });

  it('records nothing for a glob matching nothing or a missing file', () => {
    const root = build(tmp, {
      'httpd.conf': 'Include missing/*.conf\nIncludeOptional nothere.conf\nInclude empty/*.conf\n',
      'empty/.keep': '',
    });
    const d = discover(['.'], { cwd: root });
    expect(d.errors).toEqual([]);
    expect(shown(d.servers[0])).toEqual(['httpd.conf']);
    expect(d.servers[0].includes.get(path.join(root, 'httpd.conf'))).toEqual([]);
  });

  it('expands globs in the last component and in directories, sorted, skipping dotfiles and backups', () => {
    const root = build(tmp, {
      'main.conf': 'ServerRoot "/srv/nowhere"\nInclude sites/*/site.conf\nInclude mods/[ab]?.load\nInclude mods/*.conf\n',
      'sites/b/site.conf': '',
      'sites/a/site.conf': '',
      'sites/a/other.conf': '',
      'mods/b1.load': '',
      'mods/a1.load': '',
      'mods/c1.load': '',
      'mods/x.conf': '',
      'mods/.hidden.conf': '',
      'mods/y.conf~': '',
    });
    const d = discover(['main.conf'], { cwd: root });
    expect(d.servers[0].serverRoot).toBe(root);
    expect(shown(d.servers[0])).toEqual([
      'main.conf',
      'sites/a/site.conf',
      'sites/b/site.conf',
      'mods/a1.load',
      'mods/b1.load',
      'mods/x.conf',
    ]);
  });

  it('follows Include lines nested in sections, in file order', () => {
    const root = build(tmp, {
      'httpd.conf': [
        '<IfModule mod_ssl.c>',
        '  Include ssl.conf',
        '</IfModule>',
        '#Include commented.conf',
        '<VirtualHost *:80>',
        '  IncludeOptional "vhost.conf"',
        '</VirtualHost>',
        '',
      ].join('\n'),
      'ssl.conf': '',
      'vhost.conf': '',
      'commented.conf': '',
    });
    const d = discover(['httpd.conf'], { cwd: root });
    expect(shown(d.servers[0])).toEqual(['httpd.conf', 'ssl.conf', 'vhost.conf']);
  });

  it('survives a cycle (A includes B includes A)', () => {
    const root = build(tmp, { 'httpd.conf': 'Include b.conf\n', 'b.conf': 'Include httpd.conf\n' });
    const d = discover(['.'], { cwd: root });
    expect(ids(d)).toEqual(['httpd.conf']);
    expect(shown(d.servers[0])).toEqual(['httpd.conf', 'b.conf']);
    expect(d.servers[0].includes.get(path.join(root, 'b.conf'))).toEqual([path.join(root, 'httpd.conf')]);
  });

  it('picks the first by path as main when two files include each other', () => {
    const root = build(tmp, { 'b.conf': 'Include a.conf\n', 'a.conf': 'Include b.conf\n' });
    const d = discover(['.'], { cwd: root });
    expect(ids(d)).toEqual(['a.conf']);
    expect(shown(d.servers[0])).toEqual(['a.conf', 'b.conf']);
  });

  it('treats a file that includes a main config as the main', () => {
    const root = build(tmp, { 'wrapper.conf': 'Include conf/httpd.conf\n', 'conf/httpd.conf': 'Listen 80\n' });
    const d = discover(['.'], { cwd: root });
    expect(ids(d)).toEqual(['wrapper.conf']);
    expect(d.servers[0].files.map((f) => [f.displayPath, f.role])).toEqual([
      ['wrapper.conf', 'main'],
      ['conf/httpd.conf', 'included'],
    ]);
  });

  it('gives a file included by two mains to the first by path', () => {
    const shared = build(path.join(tmp, 'shared'), { 'common.conf': '' });
    const root = build(path.join(tmp, 'servers'), {
      'a/httpd.conf': `Include ${shared}/common.conf\n`,
      'b/httpd.conf': `Include ${shared}/common.conf\n`,
    });
    const d = discover(['.'], { cwd: root });
    expect(ids(d)).toEqual(['a/httpd.conf', 'b/httpd.conf']);
    expect(shown(d.servers[0])).toEqual(['a/httpd.conf', `${shared}/common.conf`]);
    expect(shown(d.servers[1])).toEqual(['b/httpd.conf']);
  });

  it('maps an absolute ServerRoot that does not hold the config, and honours options.serverRoot', () => {
    const root = build(tmp, {
      'etc/httpd.conf': 'ServerRoot "/opt/web"\nInclude /opt/web/etc/extra/*.conf\nInclude etc/local.conf\n',
      'etc/extra/one.conf': '',
      'etc/local.conf': '',
      'alt/etc/local.conf': '',
    });
    const mapped = discover(['etc/httpd.conf'], { cwd: root });
    expect(mapped.servers[0].serverRoot).toBe(root);
    expect(shown(mapped.servers[0])).toEqual(['etc/httpd.conf', 'etc/extra/one.conf', 'etc/local.conf']);

    const forced = discover(['etc/httpd.conf'], { cwd: root, serverRoot: 'alt' });
    expect(forced.servers[0].serverRoot).toBe(path.join(root, 'alt'));
    expect(shown(forced.servers[0])).toEqual(['etc/httpd.conf', 'alt/etc/local.conf']);
  });

  it('expands ${APACHE_*} from envvars and skips unresolvable Include lines silently', () => {
    const root = build(tmp, {
      'apache2.conf': [
        'Include ${APACHE_EXTRA}/x.conf',
        'Include ${APACHE_CONFDIR}/y.conf',
        'Include ${APACHE_UNSET}/z.conf',
        'Include ${APACHE_SUFFIXED}/z.conf',
        'Include @exp_sysconfdir@/z.conf',
        '',
      ].join('\n'),
      envvars: `export APACHE_EXTRA=${tmp}/extra\nexport APACHE_SUFFIXED=/etc/x$SUFFIX\n`,
      'extra/x.conf': '',
      'y.conf': '',
      'z.conf': '',
    });
    const d = discover(['apache2.conf'], { cwd: root });
    expect(d.errors).toEqual([]);
    expect(shown(d.servers[0])).toEqual(['apache2.conf', 'extra/x.conf', 'y.conf']);

    fs.unlinkSync(path.join(root, 'envvars'));
    expect(shown(discover(['apache2.conf'], { cwd: root }).servers[0])).toEqual(['apache2.conf']);
  });

  it('passes over a binary file reached by Include, and un-skips a non-config file an Include reaches', () => {
    const root = build(tmp, {
      'httpd.conf': 'Include blob.conf\nInclude extra/vhosts.txt\n',
      'blob.conf': Buffer.from([0x41, 0x00, 0x42]),
      'extra/vhosts.txt': 'ServerName a\n',
      'README': 'text\n',
    });
    const d = discover(['.'], { cwd: root });
    expect(d.errors).toEqual([]);
    expect(shown(d.servers[0])).toEqual(['httpd.conf', 'extra/vhosts.txt']);
    expect(d.skipped).toEqual([
      { path: 'README', reason: 'not a configuration file name' },
      { path: 'blob.conf', reason: 'binary file (contains NUL bytes)' },
    ]);
  });
});

describe('scanning and input errors', () => {
  it('does not descend a symlinked directory', () => {
    build(tmp, { 'real/hidden.conf': '', 'scan/own.conf': '', 'scan/link': { symlink: '../real' } });
    const d = discover(['scan'], { cwd: tmp });
    expect(ids(d)).toEqual(['scan/own.conf']);
    expect(d.skipped).toEqual([{ path: 'scan/link', reason: 'symbolic link to a directory (not followed)' }]);
  });

  it('skips a binary file while scanning but reports it when named', () => {
    build(tmp, { 'dir/bin.conf': Buffer.from('Listen 80\n\0\0\0'), 'dir/ok.conf': 'Listen 80\n' });
    const scanned = discover(['dir'], { cwd: tmp });
    expect(scanned.errors).toEqual([]);
    expect(ids(scanned)).toEqual(['dir/ok.conf']);
    expect(scanned.skipped).toEqual([{ path: 'dir/bin.conf', reason: 'binary file (contains NUL bytes)' }]);

    const named = discover(['dir/bin.conf', 'dir/ok.conf'], { cwd: tmp });
    expect(named.errors).toEqual([{ path: 'dir/bin.conf', message: 'binary file (contains NUL bytes)' }]);
    expect(ids(named)).toEqual(['dir/ok.conf']);
  });

  it('skips editor backups, node_modules and .git while scanning', () => {
    build(tmp, {
      'a.conf': '',
      'a.conf~': '',
      'b.conf.orig': '',
      '.a.conf.swp': '',
      'node_modules/x/y.conf': '',
      '.git/config.conf': '',
    });
    const d = discover(['.'], { cwd: tmp });
    expect(ids(d)).toEqual(['a.conf']);
    expect(d.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['.a.conf.swp', 'editor backup'],
      ['a.conf~', 'editor backup'],
      ['b.conf.orig', 'editor backup'],
    ]);
  });

  it('reports a missing path and proceeds with the others', () => {
    build(tmp, { 'ok.conf': 'Listen 80\n' });
    const d = discover(['nope.conf', 'ok.conf', path.join(tmp, 'nodir')], { cwd: tmp });
    expect(d.errors).toEqual([
      { path: 'nope.conf', message: 'no such file or directory' },
      { path: 'nodir', message: 'no such file or directory' },
    ]);
    expect(ids(d)).toEqual(['ok.conf']);
  });

  it('reports a path that cannot be opened as a file', () => {
    // Tests run as root, for whom chmod 000 does not stop reading: a path
    // through a regular file fails the same way an unreadable one would.
    build(tmp, { 'ok.conf': '' });
    const d = discover(['ok.conf/inner.conf'], { cwd: tmp });
    expect(d.errors).toEqual([{ path: 'ok.conf/inner.conf', message: 'not a directory' }]);
    expect(d.servers).toEqual([]);
  });

  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  (asRoot ? it.skip : it)('reports an unreadable file (not as root)', () => {
    build(tmp, { 'locked.conf': 'Listen 80\n' });
    fs.chmodSync(path.join(tmp, 'locked.conf'), 0o000);
    const d = discover(['locked.conf'], { cwd: tmp });
    expect(d.errors).toEqual([{ path: 'locked.conf', message: 'permission denied' }]);
  });

  it('gives a .htaccess file to the server whose tree holds it, and keeps one no server reads on its own', () => {
    // ServerRoot (no line: the directory above conf/) holds www/, not the other tree
    build(tmp, { 'srv/conf/httpd.conf': 'Listen 80\n', 'srv/www/blog/.htaccess': 'Order deny,allow\n', 'elsewhere/.htaccess': 'Deny from all\n' });
    const d = discover(['srv', 'elsewhere'], { cwd: tmp });
    expect(ids(d)).toEqual(['srv/conf/httpd.conf', 'elsewhere/.htaccess']);
    expect(d.servers[0].files.map((f) => [f.displayPath, f.role, f.directory])).toEqual([
      ['srv/conf/httpd.conf', 'main', undefined],
      ['srv/www/blog/.htaccess', 'htaccess', path.join(tmp, 'srv/www/blog')],
    ]);
    const ht = byId(d, 'elsewhere/.htaccess');
    expect(ht.main).toBeNull();
    expect(ht.serverRoot).toBeNull();
    expect(ht.files.map((f) => f.role)).toEqual(['htaccess']);
  });

  it('reads a .htaccess file the scan met under the real path of a DocumentRoot the config names through a symlink', () => {
    // the scan does not descend the symlink: it meets the file only as data/site/.htaccess
    build(tmp, {
      'data/site/.htaccess': 'Deny from all\n',
      'data/other/.htaccess': 'Deny from all\n',
      'srv/www': { symlink: path.join(tmp, 'data') },
    });
    build(tmp, { 'srv/conf/httpd.conf': `ServerRoot ${tmp}/srv\nDocumentRoot ${tmp}/srv/www/site\n` });
    const d = discover(['srv', 'data'], { cwd: tmp });
    expect(ids(d)).toEqual(['srv/conf/httpd.conf', 'data/other/.htaccess']);
    // read for the directory as the config names it
    expect(d.servers[0].files.map((f) => [f.displayPath, f.role, f.directory])).toEqual([
      ['srv/conf/httpd.conf', 'main', undefined],
      ['data/site/.htaccess', 'htaccess', path.join(tmp, 'srv/www/site')],
    ]);
  });

  it('dedupes a hardlink pair and a file named twice through a symlink', () => {
    build(tmp, {
      'a.conf': 'Listen 80\n',
      'b.conf': { hardlink: 'a.conf' },
      'c.conf': 'Listen 81\n',
      'link.conf': { symlink: 'c.conf' },
    });
    const d = discover(['link.conf', '.', 'c.conf'], { cwd: tmp });
    expect(ids(d)).toEqual(['a.conf', 'c.conf']);
    expect(d.servers[1].files[0].realPath).toBe(path.join(tmp, 'c.conf'));
    expect(d.servers[0].files[0].original).toBe('Listen 80\n');
  });

  it('shows paths outside cwd as absolute, with forward slashes', () => {
    build(tmp, { 'x/site.conf': '' });
    const d = discover([path.join(tmp, 'x')], { cwd: path.join(tmp, 'elsewhere') });
    expect(ids(d)).toEqual([`${tmp}/x/site.conf`]);
  });
});

describe('AccessFileName', () => {
  // per-directory files, wherever they were placed (in the server that reads them, or on their own)
  const roles = (d: Discovery): [string, string][] =>
    d.servers
      .flatMap((s) => s.files.filter((f) => f.role === 'htaccess' || (s.main === null && f === s.files[0])).map((f): [string, string] => [f.displayPath, f.role]))
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

  it('reads every name AccessFileName gives, in the directories the server serves', () => {
    const root = build(tmp, {
      'conf/httpd.conf': [
        'ServerRoot "/usr/local/apache2"',
        'DocumentRoot "/usr/local/apache2/htdocs"',
        '# AccessFileName .commented',
        'AccessFileName .acl .htaccess',
        'Include conf/extra/*.conf',
        '',
      ].join('\n'),
      'conf/extra/vhosts.conf': '<VirtualHost *:80>\r\n  AccessFileName  ".my acl"\tsub/.x\r\n</VirtualHost>\r\n',
      'htdocs/.acl': 'Order deny,allow\n',
      'htdocs/blog/.htaccess': 'Deny from all\n',
      'htdocs/files/.my acl': 'Deny from all\n',
      'htdocs/files/sub/.x': 'Deny from all\n',
      'htdocs/files/.x': 'not read: the name is sub/.x\n',
      'htdocs/.commented': 'not read\n',
      'htdocs/.ACL': 'not read: names are case-sensitive\n',
      'htdocs/.htpasswd': 'user:hash\n',
      'htdocs/index.html': '<p>hi</p>\n',
    });
    const d = discover(['.'], { cwd: root });
    expect(d.errors).toEqual([]);
    expect(ids(d)[0]).toBe('conf/httpd.conf');
    expect(shown(d.servers[0]).slice(0, 2)).toEqual(['conf/httpd.conf', 'conf/extra/vhosts.conf']);
    // read for the directory the config names (ServerRoot /usr/local/apache2 is mapped onto the tree)
    expect(d.servers[0].files.find((f) => f.displayPath === 'htdocs/files/.my acl')?.directory).toBe('/usr/local/apache2/htdocs/files');
    expect(roles(d)).toEqual([
      ['htdocs/.acl', 'htaccess'],
      ['htdocs/blog/.htaccess', 'htaccess'],
      ['htdocs/files/.my acl', 'htaccess'],
      ['htdocs/files/sub/.x', 'htaccess'],
    ]);
    expect(d.servers[0].files.find((f) => f.displayPath === 'htdocs/.acl')?.original).toBe('Order deny,allow\n');
    expect(d.skipped).toEqual([
      { path: 'htdocs/.ACL', reason: 'not a configuration file name' },
      { path: 'htdocs/.commented', reason: 'not a configuration file name' },
      { path: 'htdocs/.htpasswd', reason: 'not a configuration file name' },
      { path: 'htdocs/files/.x', reason: 'not a configuration file name' },
      { path: 'htdocs/index.html', reason: 'not a configuration file name' },
    ]);
  });

  it('changes nothing for a tree without AccessFileName', () => {
    const root = build(tmp, {
      'httpd.conf': 'DocumentRoot "/var/www"\n',
      'www/.htaccess': 'Deny from all\n',
      'www/.acl': 'Deny from all\n',
    });
    const d = discover(['.'], { cwd: root });
    expect(roles(d)).toEqual([['www/.htaccess', 'htaccess']]);
    expect(d.skipped).toEqual([{ path: 'www/.acl', reason: 'not a configuration file name' }]);
  });

  it('takes names literally: `.ht*` is no pattern', () => {
    const root = build(tmp, {
      'httpd.conf': 'AccessFileName .ht*\n',
      'www/.htpasswd': 'user:hash\n',
      'www/.htgroup': 'admins: user\n',
      'www/.ht*': 'Deny from all\n',
    });
    const d = discover(['.'], { cwd: root });
    expect(roles(d)).toEqual([['www/.ht*', 'htaccess']]);
    expect(d.skipped.map((s) => s.path)).toEqual(['www/.htgroup', 'www/.htpasswd']);
  });

  it('keeps .htaccess a per-directory file even when AccessFileName names only others', () => {
    const root = build(tmp, { 'httpd.conf': 'AccessFileName .acl\n', 'www/.htaccess': 'Deny from all\n', 'www/.acl': '' });
    expect(roles(discover(['.'], { cwd: root }))).toEqual([
      ['www/.acl', 'htaccess'],
      ['www/.htaccess', 'htaccess'],
    ]);
  });

  it("does not apply one server's names to another server's tree, nor to a tree without a main config", () => {
    const root = build(path.join(tmp, 'servers'), {
      'a/httpd.conf': '<Directory />\n  AllowOverride None\n</Directory>\nAccessFileName .acl\n',
      'a/www/.acl': 'Deny from all\n',
      'b/httpd.conf': 'Listen 80\n',
      'b/www/.acl': 'Deny from all\n',
    });
    const other = build(path.join(tmp, 'elsewhere'), { 'www/.acl': 'Deny from all\n', 'www/.htaccess': '' });
    const d = discover(['.', other], { cwd: root });
    expect(ids(d).slice(0, 2)).toEqual(['a/httpd.conf', 'b/httpd.conf']);
    // absolute paths sort first
    expect(roles(d)).toEqual([
      [`${other}/www/.htaccess`, 'htaccess'],
      ['a/www/.acl', 'htaccess'],
    ]);
    expect(d.skipped.map((s) => s.path)).toEqual([`${other}/www/.acl`, 'b/www/.acl']);
  });

  it('reads the names in a DocumentRoot, Alias or <Directory> scanned beside the config', () => {
    const site = build(path.join(tmp, 'srv'), {
      'docs/.acl': '',
      'docs/deep/er/.acl': '',
      'icons/.acl': '',
      'users/alice/web/.acl': '',
      'users/alice/mail/.acl': '',
      'unserved/.acl': '',
    });
    const conf = build(path.join(tmp, 'etc'), {
      'apache2.conf': [
        'AccessFileName ${APACHE_ACCESS}',
        `DocumentRoot ${site}/docs`,
        `Alias /icons/ "${site}/icons/"`,
        `<Directory ${site}/users/*/web>`,
        '</Directory>',
        `<Directory ~ "${site}/unserved">`,
        '</Directory>',
        '',
      ].join('\n'),
      envvars: 'export APACHE_ACCESS=.acl\n',
    });
    const d = discover([conf, site], { cwd: tmp });
    // a <Directory> with a wildcard counts up to its first wildcard
    expect(roles(d)).toEqual([
      ['srv/docs/.acl', 'htaccess'],
      ['srv/docs/deep/er/.acl', 'htaccess'],
      ['srv/icons/.acl', 'htaccess'],
      ['srv/users/alice/mail/.acl', 'htaccess'],
      ['srv/users/alice/web/.acl', 'htaccess'],
    ]);
    expect(d.skipped).toEqual([
      { path: 'etc/envvars', reason: 'not a configuration file name' },
      { path: 'srv/unserved/.acl', reason: 'not a configuration file name' },
    ]);
    // the same docroot scanned without its config: the name means nothing
    const alone = discover([site], { cwd: tmp });
    expect(alone.servers).toEqual([]);
    expect(alone.skipped).toHaveLength(6);
  });

  it('classifies a named file too, and a config-named one', () => {
    const root = build(tmp, {
      'httpd.conf': 'AccessFileName .acl local.conf\n',
      'www/.acl': 'Deny from all\n',
      'www/local.conf': 'Deny from all\n',
    });
    expect(roles(discover(['httpd.conf', 'www/.acl'], { cwd: root }))).toEqual([['www/.acl', 'htaccess']]);
    expect(roles(discover(['www/.acl'], { cwd: root }))).toEqual([['www/.acl', 'fragment']]);
    expect(roles(discover(['.'], { cwd: root }))).toEqual([
      ['www/.acl', 'htaccess'],
      ['www/local.conf', 'htaccess'],
    ]);
  });

  it('leaves a file an Include reaches in its server, and skips a binary one', () => {
    const root = build(tmp, {
      'httpd.conf': 'AccessFileName .acl\nInclude www/.acl\n',
      'www/.acl': 'Options None\n',
      'www/bin/.acl': Buffer.from([0x41, 0x00, 0x42]),
      'www/link/.acl': { symlink: '../.acl' },
    });
    const d = discover(['.'], { cwd: root });
    expect(d.errors).toEqual([]);
    expect(ids(d)).toEqual(['httpd.conf']);
    expect(shown(d.servers[0])).toEqual(['httpd.conf', 'www/.acl']);
    expect(d.skipped).toEqual([{ path: 'www/bin/.acl', reason: 'binary file (contains NUL bytes)' }]);
  });
});

describe('RealPaths', () => {
  it('resolves a symlink in any component, once, and answers null below a missing directory', () => {
    build(tmp, { 'data/a/b/file': '', 'link': { symlink: path.join(tmp, 'data') } });
    const real = new RealPaths();
    expect(real.resolve(path.join(tmp, 'link/a/b'))).toBe(path.join(tmp, 'data/a/b'));
    expect(real.resolve(path.join(tmp, 'link/a/b/file'))).toBe(path.join(tmp, 'data/a/b/file'));
    expect(real.resolve(path.join(tmp, 'data/a'))).toBe(path.join(tmp, 'data/a'));
    expect(real.resolve(path.join(tmp, 'missing/deeper/still'))).toBeNull();
    expect(real.orSelf(path.join(tmp, 'link/missing'))).toBe(path.join(tmp, 'link/missing'));
    expect(real.resolve('/')).toBe('/');
    // answers are kept: a change on disk after the first question is not seen (one discovery's view)
    fs.rmSync(path.join(tmp, 'data/a/b/file'));
    expect(real.resolve(path.join(tmp, 'link/a/b/file'))).toBe(path.join(tmp, 'data/a/b/file'));
  });
});
