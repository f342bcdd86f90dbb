/**
 * The URL-space model on small configs: which <Location> may / surely meet which <Directory>, and the lines
 * it names when it cannot know. The real-httpd check of these rules is __tests__/httpd-url-space.test.ts.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse, Section, sections } from '../src/cst';
import { SourceFile } from '../src/server/types';
import { buildUrlSpace, FsPattern, Meeting, UrlPattern, UrlSpaceOptions, Version } from '../src/semantics/url-space';
import { CORPUS_DIR } from './support/corpus';
import { discover } from '../src/server/discover';

function file(name: string, text: string, role: SourceFile['role'] = 'main'): SourceFile {
  return { realPath: `/srv/conf/${name}`, displayPath: name, role, original: text, tree: parse(text) };
}

interface Asked {
  readonly files: SourceFile[];
  meet(loc: string | UrlPattern, dir: string | FsPattern, where?: { loc?: Section | null; dir?: Section | null }): Meeting;
  vhost(serverName: string): Section;
}

function server(texts: string | string[], options: UrlSpaceOptions = {}): Asked {
  const list = (Array.isArray(texts) ? texts : [texts]).map((t, i) => file(i === 0 ? 'httpd.conf' : `extra${i}.conf`, t, i === 0 ? 'main' : 'included'));
  return fromFiles(list, options);
}

function fromFiles(files: SourceFile[], options: UrlSpaceOptions = {}): Asked {
  const space = buildUrlSpace(files, options);
  const asPattern = (loc: string | UrlPattern): UrlPattern => (typeof loc === 'string' ? { kind: 'prefix', path: loc } : loc);
  const asFs = (dir: string | FsPattern): FsPattern => (typeof dir === 'string' ? { kind: 'dir', path: dir } : dir);
  return {
    files,
    meet: (loc, dir, where = {}) => space.meets(asPattern(loc), where.loc ?? null, asFs(dir), where.dir ?? null),
    vhost: (name) => {
      for (const f of files) {
        for (const v of sections(f.tree, 'VirtualHost')) {
          if (v.body.some((n) => n.kind === 'directive' && n.is('ServerName') && n.values[0] === name)) return v;
        }
      }
      throw new Error(`no vhost ${name}`);
    },
  };
}

/** may/surely only. */
function ms(m: Meeting): string {
  return `${m.may ? 'may' : 'never'}${m.surely ? '+surely' : ''}`;
}

/** The lines named, as `line: start of reason`. */
function why(m: Meeting): string[] {
  return m.unknown.map((c) => `${c.file.displayPath}:${c.line} ${c.why.split(':')[0]}`);
}

const exact = { unknown: [], approximate: false };

describe("Apache's own 2.2 default tree (the issue's case)", () => {
  const conf = path.resolve(__dirname, '..', 'examples', 'upstream-2.2', 'conf');
  const read = (name: string, role: SourceFile['role']): SourceFile => {
    const text = fs.readFileSync(path.join(conf, name), 'latin1');
    return { realPath: path.join(conf, name), displayPath: name, role, original: text, tree: parse(text) };
  };

  it('httpd.conf + httpd-info.conf + httpd-dav.conf: /server-status never meets the DAV uploads directory, surely meets htdocs', () => {
    const s = fromFiles([read('httpd.conf', 'main'), read('extra/httpd-info.conf', 'included'), read('extra/httpd-dav.conf', 'included')]);
    expect(s.meet('/server-status', '/usr/local/apache2/uploads')).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/server-info', '/usr/local/apache2/uploads')).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/server-status', '/usr/local/apache2/htdocs')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/server-status', '/')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/server-status', '/usr/local/apache2/cgi-bin')).toEqual({ may: false, surely: false, ...exact });
    // the DAV Location-less directory is reached through Alias /uploads only
    expect(s.meet('/uploads', '/usr/local/apache2/uploads')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/uploads', '/usr/local/apache2/htdocs')).toEqual({ may: false, surely: false, ...exact });
    expect(ms(s.meet('/', '/usr/local/apache2/uploads'))).toBe('may');
  });

  it('with every extra switched on (vhosts, ssl, userdir, manual, autoindex…) /server-status still never meets uploads', () => {
    const extras = fs.readdirSync(path.join(conf, 'extra')).filter((n) => n.endsWith('.conf'));
    const s = fromFiles([read('httpd.conf', 'main'), ...extras.map((n) => read(`extra/${n}`, 'included'))]);
    expect(s.meet('/server-status', '/usr/local/apache2/uploads')).toEqual({ may: false, surely: false, ...exact });
    // in the dummy virtual hosts /server-status maps into their own DocumentRoots: not surely htdocs any more
    expect(s.meet('/server-status', '/usr/local/apache2/htdocs')).toEqual({ may: true, surely: false, ...exact });
    expect(s.meet('/server-status', '/usr/local/apache2/docs/dummy-host.example.com')).toEqual({ may: true, surely: false, ...exact });
    // UserDir public_html (relative to each home): the model cannot know where /~user goes
    const user = s.meet('/~bob', '/usr/local/apache2/uploads');
    expect(ms(user)).toBe('may');
    expect(why(user)).toEqual(['extra/httpd-userdir.conf:10 UserDir public_html']);
    // the manual is an AliasMatch with a non-prefix shape: its directory is met, not surely (2.2 //manual)
    expect(ms(s.meet('/manual', '/usr/local/apache2/manual'))).toBe('may');
    expect(s.meet('/manual', '/usr/local/apache2/uploads').may).toBe(false);
  });

  it("the corpus copy of 2.2.x's substituted default files says the same", () => {
    const dir = path.join(CORPUS_DIR, 'apache-2.2-defaults');
    const pick = (name: string, role: SourceFile['role']): SourceFile => {
      const text = fs.readFileSync(path.join(dir, `apache__httpd__SUBSTITUTED__2.2.x__docs__conf__${name}`), 'latin1');
      return { realPath: path.join(dir, name), displayPath: name, role, original: text, tree: parse(text) };
    };
    const s = fromFiles([pick('httpd.conf', 'main'), pick('extra__httpd-info.conf', 'included'), pick('extra__httpd-dav.conf', 'included')]);
    const root = /DocumentRoot "([^"]+)"/.exec(s.files[0].original)![1];
    const dav = /Alias \/uploads "([^"]+)"/.exec(s.files[2].original)![1];
    expect(s.meet('/server-status', dav)).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/server-status', root)).toEqual({ may: true, surely: true, ...exact });
  });
});

describe('<Location> matching', () => {
  const s = server('DocumentRoot /www\n');

  it('is segment-aware: /foo is not a prefix of /foobar; /foo/ does not take /foo', () => {
    expect(s.meet('/foo', '/www/foo')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/foo', '/www/foobar')).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/foo/', '/www/foo')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/foo', '/www/foo/x')).toEqual({ may: true, surely: false, ...exact });
  });

  it('a configured path with repeated slashes never matches (httpd compares it with merged URL-paths)', () => {
    expect(s.meet('//foo', '/')).toEqual({ may: false, surely: true, ...exact });
  });

  it('regex and wildcard Locations are read as their literal prefix and say so', () => {
    expect(s.meet({ kind: 'regex', source: '^/foo/[0-9]+$' }, '/www/foo')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet({ kind: 'regex', source: '^/foo/[0-9]+$' }, '/www/bar')).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet({ kind: 'regex', source: '\\.php$' }, '/www/foo')).toEqual({ may: true, surely: false, unknown: [], approximate: true });
    expect(s.meet('/a/*', '/www/a')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/a/*', '/www/a/x')).toEqual({ may: true, surely: false, unknown: [], approximate: true });
  });
});

describe('mod_alias', () => {
  it('Alias takes its URL-path and below, repeated slashes and all; the rest goes to the DocumentRoot', () => {
    const s = server('DocumentRoot /www\nAlias /icons /usr/share/icons\n');
    expect(s.meet('/icons', '/usr/share/icons')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/icons', '/www')).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/iconsx', '/www')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/', '/www/icons')).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/', '/usr/share/icons/small')).toEqual({ may: true, surely: false, ...exact });
  });

  it('Alias /x/ leaves /x itself to the DocumentRoot (measured: URL /al reached it beside Alias /al/)', () => {
    const s = server('DocumentRoot /www\nAlias /al/ /srv/al/\n');
    expect(s.meet('/al', '/www/al')).toEqual({ may: true, surely: false, ...exact });
    expect(s.meet('/al/', '/www/al')).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/al/', '/srv/al')).toEqual({ may: true, surely: true, ...exact });
  });

  it('Alias /x/ /target without slash appends the rest to the name: /x/y → /targety', () => {
    const s = server('DocumentRoot /www\nAlias /alx/ /srv/al\n');
    expect(s.meet('/alx/x', '/srv/alx')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/alx/', '/srv/al')).toEqual({ may: true, surely: false, ...exact });
    expect(s.meet('/alx/x', '/srv/al')).toEqual({ may: false, surely: false, ...exact });
    expect(ms(s.meet('/alx/', '/srv'))).toBe('may+surely');
  });

  it('the virtual host’s aliases come before the main server’s; both apply in the host', () => {
    const s = server(
      'DocumentRoot /www\nAlias /shared /srv/main-shared\nAlias /only-main /srv/only\n<VirtualHost *:80>\nServerName v.test\nAlias /shared /srv/v-shared\n</VirtualHost>\n',
    );
    const v = s.vhost('v.test');
    expect(s.meet('/shared', '/srv/v-shared', { loc: v })).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/shared', '/srv/main-shared', { loc: v })).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/only-main', '/srv/only', { loc: v })).toEqual({ may: true, surely: true, ...exact });
    // a main-server Location applies in both hosts
    expect(s.meet('/shared', '/srv/main-shared')).toEqual({ may: true, surely: false, ...exact });
    // a Directory inside the vhost only meets the vhost's requests
    expect(s.meet('/shared', '/srv/main-shared', { dir: v })).toEqual({ may: false, surely: false, ...exact });
  });

  it('AliasMatch of the prefix shape maps like Alias; 2.2 let //am escape the regex to the DocumentRoot', () => {
    const conf = 'DocumentRoot /www\nAliasMatch "^/am/(.*)$" /srv/b/$1\n';
    expect(server(conf).meet('/am/x', '/srv/b/x')).toEqual({ may: true, surely: false, ...exact });
    expect(server(conf).meet('/am/x', '/www')).toEqual({ may: true, surely: false, ...exact });
    expect(server(conf, { version: '2.4' }).meet('/am/x', '/srv/b/x')).toEqual({ may: true, surely: true, ...exact });
    expect(server(conf, { version: '2.4' }).meet('/am/x', '/www')).toEqual({ may: false, surely: false, ...exact });
    expect(server(conf, { version: '2.2' }).meet('/am/x', '/www')).toEqual({ may: true, surely: false, ...exact });
  });

  it('AliasMatch of another shape: its target is read as the literal part and named', () => {
    const s = server('DocumentRoot /www\nAliasMatch "^/manual(?:/(?:de|en))?(/.*)?$" /srv/manual$1\n', { version: '2.4' });
    const m = s.meet('/manual', '/srv/manual/en');
    expect(ms(m)).toBe('may');
    expect(why(m)).toEqual(['httpd.conf:2 AliasMatch ^/manual(?', 'httpd.conf:2 AliasMatch ^/manual(?']);
    expect(s.meet('/manual', '/srv/other').may).toBe(false);
  });

  it('ScriptAlias maps like Alias', () => {
    const s = server('DocumentRoot /www\nScriptAlias /cgi-bin/ /srv/cgi/\n');
    expect(s.meet('/cgi-bin/', '/srv/cgi')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/cgi-bin', '/srv/cgi')).toEqual({ may: true, surely: false, ...exact });
  });

  it('a redirected URL meets no directory, not even /', () => {
    const s = server('DocumentRoot /www\nRedirect /old http://example.com/\nRedirect gone /gone\nRedirectPermanent /perm /new\nRedirect 301 /num http://x/\n');
    for (const p of ['/old', '/gone', '/perm', '/num']) expect([p, s.meet(p, '/')]).toEqual([p, { may: false, surely: false, ...exact }]);
    expect(s.meet('/oldx', '/www')).toEqual({ may: true, surely: true, ...exact });
  });

  it('RedirectMatch: 2.2 let //rm through to the DocumentRoot; 2.4 merges slashes first', () => {
    const conf = 'DocumentRoot /www\nRedirectMatch "^/rm(.*)$" http://example.com/rm$1\n';
    expect(server(conf).meet('/rm', '/www')).toEqual({ may: true, surely: false, ...exact });
    expect(server(conf, { version: '2.4' }).meet('/rm', '/www')).toEqual({ may: false, surely: false, ...exact });
  });

  it('one-argument Redirect / Alias inside <Location> (2.4 expressions)', () => {
    const s = server('DocumentRoot /www\n<Location /r>\nRedirect "http://x/"\n</Location>\n<Location /a>\nAlias "/srv/%{REQUEST_URI}"\n</Location>\n<Location /two>\nRedirect /two/x http://y/\n</Location>\n');
    expect(s.meet('/r', '/')).toEqual({ may: false, surely: false, ...exact });
    const a = s.meet('/a', '/www');
    expect(ms(a)).toBe('may');
    expect(why(a)).toEqual(['httpd.conf:6 Alias /srv/%{REQUEST_URI}']);
    // a two-argument Redirect inside <Location> runs in fixups, after the walk
    expect(s.meet('/two', '/www')).toEqual({ may: true, surely: true, ...exact });
  });
});

describe('DocumentRoot', () => {
  it('a virtual host without one inherits the main server’s; one with its own does not', () => {
    const s = server('DocumentRoot /www\n<VirtualHost *:80>\nServerName a.test\n</VirtualHost>\n<VirtualHost *:80>\nServerName b.test\nDocumentRoot /srv/b\n</VirtualHost>\n');
    expect(s.meet('/x', '/www', { loc: s.vhost('a.test') })).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/x', '/www', { loc: s.vhost('b.test') })).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/x', '/www')).toEqual({ may: true, surely: false, ...exact });
    expect(s.meet('/x', '/srv/b', { loc: s.vhost('a.test'), dir: s.vhost('b.test') })).toEqual({ may: false, surely: false, ...exact });
  });

  it('not set: the compiled-in default is unknown, named on the main config', () => {
    const s = server('Alias /a /srv/a\n');
    const m = s.meet('/x', '/srv/b');
    expect(ms(m)).toBe('may');
    expect(why(m)).toEqual(['httpd.conf:0 DocumentRoot is not set']);
    expect(s.meet('/a', '/srv/b')).toEqual({ may: false, surely: false, ...exact });
  });

  it('relative to ServerRoot; the last line wins', () => {
    const s = server('ServerRoot /opt/httpd\nDocumentRoot /first\nDocumentRoot htdocs\n');
    expect(s.meet('/x', '/opt/httpd/htdocs')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/x', '/first').may).toBe(false);
  });

  it('under <IfDefine>: either line may decide, and the condition is named', () => {
    const s = server('DocumentRoot /a\n<IfDefine PROD>\nDocumentRoot /b\n</IfDefine>\n');
    const a = s.meet('/x', '/a');
    expect(ms(a)).toBe('may');
    expect(why(a)).toEqual(['httpd.conf:2 <IfDefine PROD>']);
    expect(s.meet('/x', '/c').may).toBe(false);
  });

  it('<IfModule> of a loaded module is certain; of a module not loaded, uncertain', () => {
    const loaded = server('LoadModule alias_module modules/mod_alias.so\nDocumentRoot /www\n<IfModule alias_module>\nAlias /a /srv/a\n</IfModule>\n');
    expect(loaded.meet('/a', '/srv/a')).toEqual({ may: true, surely: true, ...exact });
    const unknown = server('DocumentRoot /www\n<IfModule mod_alias.c>\nAlias /a /srv/a\n</IfModule>\n');
    const m = unknown.meet('/a', '/www');
    expect(ms(m)).toBe('may');
    expect(why(m)).toEqual(['httpd.conf:2 <IfModule mod_alias.c>']);
    const never = server('LoadModule alias_module modules/mod_alias.so\nDocumentRoot /www\n<IfModule !alias_module>\nAlias /a /srv/a\n</IfModule>\n');
    expect(never.meet('/a', '/www')).toEqual({ may: true, surely: true, ...exact });
  });

  it('ServerPath strips its prefix before the DocumentRoot', () => {
    const s = server('DocumentRoot /www\n<VirtualHost *:80>\nServerName p.test\nServerPath /sub\nDocumentRoot /srv/p\n</VirtualHost>\n');
    const v = s.vhost('p.test');
    expect(s.meet('/sub/x', '/srv/p/x', { loc: v })).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/sub/x', '/srv/p/sub', { loc: v })).toEqual({ may: false, surely: false, ...exact });
  });

  it('VirtualDocumentRoot is read up to its first %, and named', () => {
    const s = server('DocumentRoot /www\nVirtualDocumentRoot /srv/vhosts/%0\n');
    const m = s.meet('/x', '/srv/vhosts/a.test');
    expect(ms(m)).toBe('may');
    expect(why(m)).toEqual(['httpd.conf:2 VirtualDocumentRoot /srv/vhosts/%0']);
    expect(s.meet('/x', '/srv/vhosts')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/x', '/www').may).toBe(false);
  });
});

describe('UserDir', () => {
  it('an absolute path: /~user/rest → path/user/rest; 2.2 sent //~user to the DocumentRoot', () => {
    const conf = 'DocumentRoot /www\nUserDir /srv/users\n';
    expect(server(conf).meet('/~bob', '/srv/users/bob')).toEqual({ may: true, surely: false, ...exact });
    expect(server(conf).meet('/~bob', '/srv/users/alice').may).toBe(false);
    expect(server(conf, { version: '2.4' }).meet('/~bob', '/srv/users/bob')).toEqual({ may: true, surely: true, ...exact });
    expect(server(conf, { version: '2.4' }).meet('/~bob', '/www')).toEqual({ may: false, surely: false, ...exact });
  });

  it('a pattern with *: /~user → /home/user/www, met by <Directory /home/*/www>', () => {
    const s = server('DocumentRoot /www\nUserDir /home/*/www\n', { version: '2.4' });
    // bob's directory may not exist: the walk stops before /home/bob/www, so the wildcard is not surely merged
    expect(s.meet('/~bob/x', '/home/*/www')).toEqual({ may: true, surely: false, unknown: [], approximate: true });
    expect(s.meet('/~bob/x', '/home/bob/www')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/~bob/x', '/home/alice').may).toBe(false);
    expect(s.meet('/', '/home/*/www')).toEqual({ may: true, surely: false, ...exact });
    expect(s.meet('/', '/home/*/private')).toEqual({ may: false, surely: false, ...exact });
  });

  it('relative to the home directory: any directory may be met, none surely except /; the line is named', () => {
    const s = server('DocumentRoot /www\nUserDir public_html\n');
    const m = s.meet('/~bob', '/usr/local/apache2/uploads');
    expect(ms(m)).toBe('may');
    expect(why(m)).toEqual(['httpd.conf:2 UserDir public_html']);
    expect(s.meet('/~bob', '/')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/server-status', '/usr/local/apache2/uploads')).toEqual({ may: false, surely: false, ...exact });
  });

  it('disabled users and a global disable with an enabled list', () => {
    const s = server('DocumentRoot /www\nUserDir /srv/users\nUserDir disabled root\n', { version: '2.4' });
    expect(s.meet('/~root', '/srv/users').may).toBe(false);
    expect(s.meet('/~root', '/www')).toEqual({ may: true, surely: true, ...exact });
    const g = server('DocumentRoot /www\nUserDir /srv/users\nUserDir disabled\nUserDir enabled alice\n', { version: '2.4' });
    expect(g.meet('/~bob', '/srv/users').may).toBe(false);
    expect(g.meet('/~alice', '/srv/users')).toEqual({ may: true, surely: true, ...exact });
  });

  it('a URL entry redirects; without a UserDir path nothing happens', () => {
    expect(server('DocumentRoot /www\nUserDir http://example.com/~*\n', { version: '2.4' }).meet('/~bob', '/')).toEqual({ may: false, surely: false, ...exact });
    expect(server('DocumentRoot /www\nUserDir disabled\n').meet('/~bob', '/www/~bob')).toEqual({ may: true, surely: true, ...exact });
  });

  it('a virtual host’s own UserDir replaces the main server’s', () => {
    const s = server('DocumentRoot /www\nUserDir /srv/users\n<VirtualHost *:80>\nServerName v.test\nUserDir /home/*/www\n</VirtualHost>\n', { version: '2.4' });
    const v = s.vhost('v.test');
    expect(s.meet('/~bob', '/home/bob/www', { loc: v })).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/~bob', '/srv/users', { loc: v }).may).toBe(false);
  });
});

describe('mod_rewrite at server and virtual-host level', () => {
  it('a file-path substitution is unknown for the URLs its pattern may match, and names its line', () => {
    const s = server('DocumentRoot /www\nRewriteEngine On\nRewriteRule "^/app/(.*)$" /srv/app/$1\n');
    const m = s.meet('/app/x', '/srv/elsewhere');
    expect(ms(m)).toBe('may');
    expect(why(m)).toEqual(['httpd.conf:3 RewriteRule ^/app/(.*)$ /srv/app/$1', 'httpd.conf:3 RewriteRule ^/app/(.*)$ /srv/app/$1']);
    expect(s.meet('/other', '/srv/elsewhere')).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/other', '/www')).toEqual({ may: true, surely: true, ...exact });
  });

  it('an unanchored pattern reaches every URL', () => {
    const s = server('DocumentRoot /www\nRewriteEngine On\nRewriteCond %{HTTP_HOST} ^x\nRewriteRule \\.php$ /index.php\n');
    expect(ms(s.meet('/server-status', '/srv/uploads'))).toBe('may');
  });

  it('without RewriteEngine On the rules do nothing; a virtual host inherits the engine, not the rules', () => {
    expect(server('DocumentRoot /www\nRewriteRule ^/app /srv/app\n').meet('/app', '/srv/x')).toEqual({ may: false, surely: false, ...exact });
    const s = server('DocumentRoot /www\nRewriteEngine On\nRewriteRule ^/app /srv/app\n<VirtualHost *:80>\nServerName a.test\n</VirtualHost>\n<VirtualHost *:80>\nServerName b.test\nRewriteOptions Inherit\n</VirtualHost>\n');
    expect(s.meet('/app', '/srv/x', { loc: s.vhost('a.test') })).toEqual({ may: false, surely: false, ...exact });
    expect(ms(s.meet('/app', '/srv/x', { loc: s.vhost('b.test') }))).toBe('may');
  });

  it('[R], [F], [G], [P] and a URL to another host meet no directory; a URL naming this host is unknown', () => {
    const s = server(
      'ServerName www.example.com\nDocumentRoot /www\nRewriteEngine On\nRewriteCond %{HTTPS} off\nRewriteRule ^/r /x [R]\nRewriteRule ^/f - [F]\nRewriteRule ^/p http://backend/ [P]\nRewriteRule ^/ext http://other.example.org/\nRewriteRule ^/self http://www.example.com/y\n',
    );
    for (const p of ['/r', '/f', '/p', '/ext']) {
      const m = s.meet(p, '/srv/nowhere');
      expect([p, m.may]).toEqual([p, false]);
    }
    expect(why(s.meet('/self', '/srv/nowhere'))).toEqual(['httpd.conf:9 RewriteRule ^/self http', 'httpd.conf:9 RewriteRule ^/self http']);
  });

  it('a first unconditional redirect of every URL is certain: nothing meets any directory', () => {
    const s = server('DocumentRoot /www\nRewriteEngine On\nRewriteRule ^/(.*) https://example.com/$1 [R=301,L]\n');
    expect(s.meet('/x', '/')).toEqual({ may: false, surely: false, ...exact });
    const conditional = server('DocumentRoot /www\nRewriteEngine On\nRewriteCond %{HTTPS} off\nRewriteRule ^/(.*) https://example.com/$1 [R=301,L]\n');
    const m = conditional.meet('/x', '/www');
    expect(ms(m)).toBe('may');
    expect(why(m)).toEqual(['httpd.conf:4 RewriteRule ^/(.*) https']);
  });

  it('rules inside <Directory> and .htaccess act after the walk and change nothing', () => {
    const s = fromFiles([
      file('httpd.conf', 'DocumentRoot /www\n<Directory /www>\nRewriteEngine On\nRewriteRule ^ /srv/other [L]\n</Directory>\n'),
      file('.htaccess', 'RewriteEngine On\nRewriteRule ^ /srv/other\nRedirect /x http://y/\n', 'htaccess'),
    ]);
    expect(s.meet('/x', '/www')).toEqual({ may: true, surely: true, ...exact });
  });
});

describe('mod_proxy', () => {
  it('a proxied URL meets no directory; ! sends URLs on to mod_alias and the DocumentRoot', () => {
    const s = server('DocumentRoot /www\nProxyPass /app/static !\nProxyPass /app http://backend/\n');
    expect(s.meet('/app/x', '/')).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/app', '/www/app/static')).toEqual({ may: true, surely: false, ...exact });
    expect(s.meet('/app/static', '/www/app/static')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/', '/www/app')).toEqual({ may: true, surely: false, ...exact });
  });

  it('the first matching entry decides: ! after a wider ProxyPass is never reached (measured)', () => {
    const s = server('DocumentRoot /www\nProxyPass /app http://backend/\nProxyPass /app/static !\n');
    expect(s.meet('/app/static', '/')).toEqual({ may: false, surely: false, ...exact });
  });

  it('ProxyPass inside <Location>; ws:// may hand requests back; a no-proxy variable makes it uncertain', () => {
    expect(server('DocumentRoot /www\n<Location /api>\nProxyPass http://backend/\n</Location>\n').meet('/api', '/')).toEqual({ may: false, surely: false, ...exact });
    expect(server('DocumentRoot /www\nProxyPass /ws ws://backend/\n').meet('/ws', '/www')).toEqual({ may: true, surely: false, ...exact });
    expect(server('DocumentRoot /www\nSetEnvIf Remote_Addr ^10 no-proxy\nProxyPass /app http://b/\n').meet('/app', '/www')).toEqual({ may: true, surely: false, ...exact });
  });
});

describe('modules the model does not know', () => {
  it('a directive whose first argument is a URL-path is unknown for the URLs under it, and named', () => {
    const s = server('DocumentRoot /www\nWSGIScriptAlias /app /srv/app/app.wsgi\nJkMount /java/* worker1\nPassengerRoot /usr/lib/passenger\n');
    const app = s.meet('/app', '/srv/app');
    expect(ms(app)).toBe('may');
    expect(why(app)).toEqual(['httpd.conf:2 WSGIScriptAlias /app /srv/app/app.wsgi']);
    expect(why(s.meet('/java/x', '/srv/nowhere'))).toEqual(['httpd.conf:3 JkMount /java/* worker1']);
    // other URLs, and a file-path argument (PassengerRoot), change nothing
    expect(s.meet('/server-status', '/srv/app')).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/usr/lib/passenger', '/www')).toEqual({ may: true, surely: true, ...exact });
  });

  it('a directive of mod_dav_svn inside <Location> takes over that Location; translation hooks take every URL', () => {
    const s = server('DocumentRoot /www\n<Location /svn>\nDAV svn\nSVNParentPath /srv/svn\n</Location>\n');
    expect(ms(s.meet('/svn', '/srv/svn'))).toBe('may');
    expect(s.meet('/other', '/srv/svn').may).toBe(false);
    const hook = server('DocumentRoot /www\nLuaHookTranslateName /etc/hooks.lua translate\n');
    expect(why(hook.meet('/x', '/srv/y'))).toEqual(['httpd.conf:2 LuaHookTranslateName /etc/hooks.lua translate']);
  });

  it('Use of a <Macro> holding mapping lines is unknown for every URL', () => {
    const s = server('DocumentRoot /www\n<Macro App $p>\nAlias $p /srv/$p\n</Macro>\nUse App /x\n');
    expect(ms(s.meet('/y', '/srv/anything'))).toBe('may');
    const plain = server('DocumentRoot /www\n<Macro Log $n>\nCustomLog $n combined\n</Macro>\nUse Log /var/log/x\n');
    expect(plain.meet('/y', '/srv/anything')).toEqual({ may: false, surely: false, ...exact });
  });
});

describe('filesystem scopes', () => {
  const s = server('DocumentRoot /www\nAlias /data /srv/data\n');

  it('<Directory> applies to its directory and below, component-wise; wildcards stay within a component', () => {
    expect(s.meet('/a/b', '/www/a')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/ab', '/www/a')).toEqual({ may: false, surely: false, ...exact });
    // /www/a may not exist (measured: a missing component stops the walk), so a wildcard is met, not surely
    expect(s.meet('/a', '/www/*')).toEqual({ may: true, surely: false, unknown: [], approximate: true });
    expect(s.meet('/a/b/c', '/www/a*/b')).toEqual({ may: true, surely: false, unknown: [], approximate: true });
    expect(s.meet('/a/b/c', '/w*')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/a/b', '/www*b')).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/data/x', '/srv/d?ta')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/data/x', '/srv/[a-c]ata')).toEqual({ may: false, surely: false, ...exact });
  });

  it('<DirectoryMatch> is read as its literal prefix, approximately', () => {
    expect(s.meet('/data/x', { kind: 'dir-regex', source: '^/srv/data/' })).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/data/x', { kind: 'dir-regex', source: '^/srv/other' })).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/data/x', { kind: 'dir-regex', source: '/x$' })).toEqual({ may: true, surely: false, unknown: [], approximate: true });
  });

  it('a per-directory file is met where its directory is', () => {
    expect(s.meet('/data/x', { kind: 'htaccess', dir: '/srv/data' })).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/data/x', { kind: 'htaccess', dir: '/www' })).toEqual({ may: false, surely: false, ...exact });
  });
});

describe('versions', () => {
  it.each<[Version, boolean]>([
    ['both', true],
    ['2.2', true],
    ['2.4', false],
  ])('%s: <IfVersion >= 2.4> around an Alias', (version, uncertain) => {
    const m = server('DocumentRoot /www\n<IfVersion >= 2.4>\nAlias /a /srv/a\n</IfVersion>\n', { version }).meet('/a', '/srv/a');
    expect(m.surely).toBe(version === '2.4');
    expect(m.unknown.length > 0).toBe(uncertain && version === 'both');
  });
});

describe('which hosts answer', () => {
  it('the main server answers nothing when virtual hosts cover every Listen address (Debian sets no main DocumentRoot)', () => {
    const covered = server('Listen 80\nDocumentRoot /www\n<VirtualHost *:80>\nServerName v.test\nDocumentRoot /srv/v\n</VirtualHost>\n');
    expect(covered.meet('/x', '/www')).toEqual({ may: false, surely: false, ...exact });
    expect(covered.meet('/x', '/srv/v')).toEqual({ may: true, surely: true, ...exact });
    const open = server('Listen 80\nListen 8080\nDocumentRoot /www\n<VirtualHost *:80>\nServerName v.test\nDocumentRoot /srv/v\n</VirtualHost>\n');
    expect(open.meet('/x', '/www')).toEqual({ may: true, surely: false, ...exact });
    const specific = server('Listen 80\nDocumentRoot /www\n<VirtualHost 10.0.0.1:80>\nDocumentRoot /srv/v\n</VirtualHost>\n');
    expect(specific.meet('/x', '/www').may).toBe(true);
    const noListen = server('DocumentRoot /www\n<VirtualHost *:80>\nDocumentRoot /srv/v\n</VirtualHost>\n');
    expect(noListen.meet('/x', '/www').may).toBe(true);
    const unsetMain = server('Listen 80\n<VirtualHost *:80>\nDocumentRoot /srv/v\n</VirtualHost>\n<IfModule mod_ssl.c>\nListen 443\n</IfModule>\n<VirtualHost _default_:443>\nDocumentRoot /srv/v\n</VirtualHost>\n');
    expect(unsetMain.meet('/x', '/srv/v')).toEqual({ may: true, surely: true, ...exact });
  });

  it("Debian 7's tree: /server-status meets only the default sites' directories, nothing unknown", () => {
    const d = discover([path.resolve(__dirname, '..', 'examples', 'debian-2.2')]);
    const main = d.servers.find((s) => s.id.endsWith('apache2.conf'))!;
    const s = fromFiles(main.files);
    expect(s.meet('/server-status', '/usr/share/apache2/icons')).toEqual({ may: false, surely: false, ...exact });
    expect(s.meet('/server-status', '/var/www/')).toEqual({ may: true, surely: true, ...exact });
    expect(s.meet('/icons/', '/usr/share/apache2/icons')).toEqual({ may: true, surely: true, ...exact });
  });
});
