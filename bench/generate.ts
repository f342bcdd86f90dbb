/**
 * Generated inputs for `npm run bench` (and any test that wants the same trees):
 *
 * - vhostTree: one server of many vhost files, which httpd 2.4 itself can parse (`apache2 -t`):
 *   a main config that loads the modules the vhosts use (access_compat for 2.2's Order/Allow)
 *   and includes every vhost file. The codemod migrates the same tree, main config included.
 * - fleet: many whole 2.2 servers, copies of examples/debian-2.2 (Debian 7's /etc/apache2) and
 *   examples/upstream-2.2 (Apache's own layout) in turn, each with its own sites added.
 */
import * as fs from 'fs';
import * as path from 'path';

/** The checkout: the nearest directory above this file with the tool's package.json (bench/ or dist/bench/). */
export const REPO = ((): string => {
  for (let d = __dirname; d !== path.dirname(d); d = path.dirname(d)) {
    const pkg = path.join(d, 'package.json');
    if (fs.existsSync(pkg) && /"name":\s*"httpd-codemod"/.test(fs.readFileSync(pkg, 'utf8'))) return d;
  }
  return process.cwd();
})();

/** httpd 2.4's module directory on Debian. */
export const MODULE_DIR = '/usr/lib/apache2/modules';

/** Where a generated vhost keeps its sites (`<www>/<name>/htdocs`…) and its logs. */
export interface VhostPaths {
  readonly www: string;
  readonly logs: string;
}

const DEFAULT_PATHS: VhostPaths = { www: '/srv/www', logs: '/var/log/apache2' };

/**
 * One 2.2 virtual host (about 3 KB, like a real site's file): comments, a docroot with access
 * rules, a status page, CGI, rewrites, logs, headers.
 */
export function vhost(i: number, paths: VhostPaths = DEFAULT_PATHS): string {
  const name = `site${i}.example.com`;
  const www = `${paths.www}/${name}`;
  const logDir = paths.logs;
  const net = `10.${i % 256}.${(i >> 8) % 256}.0/24`;
  return `# ${name}: virtual host ${i}
#
# Managed by the web team. Changes go through review: open a ticket with the
# site's name, the reason for the change and the expected effect, and test it
# on staging first. Keep the sections in this order: names, paths, access,
# handlers, rewrites, logging, headers.
#
<VirtualHost *:80>
    ServerName ${name}
    ServerAlias www.${name} \\
        alias${i}.example.net
    ServerAdmin webmaster@${name}

    # Content lives on the shared volume, one directory per site.
    DocumentRoot "${www}/htdocs"
    DirectoryIndex index.html index.php
    KeepAlive On
    MaxKeepAliveRequests 100
    KeepAliveTimeout 5

    <Directory "${www}/htdocs">
        Options -Indexes +FollowSymLinks
        AllowOverride FileInfo AuthConfig
        Order allow,deny
        Allow from all
    </Directory>

    # Uploaded files are served but never executed.
    <Directory "${www}/htdocs/uploads">
        Options -ExecCGI
        AllowOverride None
        <FilesMatch "\\.(php|pl|py|cgi)$">
            Order allow,deny
            Deny from all
        </FilesMatch>
    </Directory>

    # Staff area: the office network, or a password.
    <Location /staff>
        AuthType Basic
        AuthName "${name} staff"
        AuthUserFile /etc/apache2/htpasswd-${i}
        Require valid-user
        Order deny,allow
        Deny from all
        Allow from ${net}
        Satisfy any
    </Location>

    <Location /server-status>
        SetHandler server-status
        Order deny,allow
        Deny from all
        Allow from 127.0.0.1 ${net}
    </Location>

    ScriptAlias /cgi-bin/ "${www}/cgi-bin/"
    <Directory "${www}/cgi-bin">
        AllowOverride None
        Options +ExecCGI -MultiViews +SymLinksIfOwnerMatch
        Order allow,deny
        Allow from all
    </Directory>

    Alias /static/ "${www}/static/"
    <Directory "${www}/static">
        Options None
        AllowOverride None
        Order allow,deny
        Allow from all
        ExpiresActive On
        ExpiresDefault "access plus 7 days"
    </Directory>

    # Old URLs from the previous CMS.
    RewriteEngine On
    RewriteCond %{HTTP_HOST} ^alias${i}\\.example\\.net$ [NC]
    RewriteRule ^/(.*)$ http://${name}/$1 [R=301,L]
    RewriteRule ^/old/(.*)$ /new/$1 [R=301,L]
    RewriteRule ^/blog/([0-9]+)/(.*)$ /news/$2?year=$1 [R=301,L,QSA]

    # Logs: one pair per site, rotated nightly.
    LogLevel warn
    ErrorLog "${logDir}/${name}-error.log"
    CustomLog "${logDir}/${name}-access.log" combined
    <IfModule mod_headers.c>
        Header set X-Site "${name}"
        Header always set X-Content-Type-Options nosniff
    </IfModule>
    <IfModule mod_deflate.c>
        AddOutputFilterByType DEFLATE text/html text/plain text/css application/javascript
    </IfModule>
    AddDefaultCharset UTF-8
    ServerSignature Off
</VirtualHost>
`;
}

/** Modules the vhosts use, as httpd 2.4 on Debian names them. */
const VHOST_MODULES = [
  'mpm_prefork', 'authz_core', 'authz_host', 'authz_user', 'access_compat', 'authn_core', 'authn_file', 'auth_basic',
  'alias', 'rewrite', 'headers', 'mime', 'status', 'dir', 'expires', 'filter', 'deflate', 'cgi',
];

export interface VhostTree {
  /** The server's directory (ServerRoot), what the codemod is given. */
  readonly root: string;
  /** The main config, `<root>/httpd.conf`. */
  readonly main: string;
  readonly files: number;
  readonly bytes: number;
}

/**
 * Writes one server of `count` vhost files: `<dir>/conf/httpd.conf` and `<dir>/conf/sites/*.conf`,
 * a main config httpd 2.4 parses with `-t -f`: it loads what the vhosts use from Debian's module
 * directory and includes `sites/*.conf`. The document roots httpd checks exist, under
 * `<dir>/www/` (outside the server's directory, as on a real machine); logs go to `<dir>/logs/`.
 */
export function vhostTree(dir: string, count: number): VhostTree {
  const root = path.join(dir, 'conf');
  const paths: VhostPaths = { www: path.join(dir, 'www'), logs: path.join(dir, 'logs') };
  fs.mkdirSync(path.join(root, 'sites'), { recursive: true });
  fs.mkdirSync(paths.logs, { recursive: true });
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    fs.mkdirSync(path.join(paths.www, `site${i}.example.com`, 'htdocs'), { recursive: true });
    const text = vhost(i, paths);
    bytes += text.length;
    fs.writeFileSync(path.join(root, 'sites', `site${i}.conf`), text, 'latin1');
  }
  const load = VHOST_MODULES.map((m) => `LoadModule ${m}_module ${MODULE_DIR}/mod_${m}.so`).join('\n');
  const main = `# Generated for the benchmark: ${count} virtual hosts
ServerRoot "${root}"
PidFile "${paths.logs}/httpd.pid"
${load}
Listen 127.0.0.1:8080
ServerName localhost
User daemon
Group daemon
ErrorLog "${paths.logs}/error.log"
LogFormat "%h %l %u %t \\"%r\\" %>s %O \\"%{Referer}i\\" \\"%{User-Agent}i\\"" combined
TypesConfig /etc/mime.types
Include sites/*.conf
`;
  bytes += main.length;
  const mainPath = path.join(root, 'httpd.conf');
  fs.writeFileSync(mainPath, main, 'latin1');
  return { root, main: mainPath, files: count + 1, bytes };
}

export interface Fleet {
  readonly servers: number;
  readonly files: number;
  readonly bytes: number;
}

function copyTree(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true });
}

/**
 * Writes `servers` whole 2.2 servers under `dir/hostN/`: even N a copy of examples/debian-2.2
 * (sites in sites-available, enabled by a symlink in sites-enabled), odd N of
 * examples/upstream-2.2 (sites in conf/sites/, included from httpd.conf). Each gets `sites`
 * vhost files of its own.
 */
export function fleet(dir: string, servers: number, sites: number): Fleet {
  const debian = path.join(REPO, 'examples', 'debian-2.2');
  const upstream = path.join(REPO, 'examples', 'upstream-2.2');
  let bytes = 0;
  let files = 0;
  for (let n = 0; n < servers; n++) {
    const host = path.join(dir, `host${n}`);
    if (n % 2 === 0) {
      copyTree(debian, host);
      for (let s = 0; s < sites; s++) {
        const name = `site${n * sites + s}`;
        const text = vhost(n * sites + s);
        fs.writeFileSync(path.join(host, 'sites-available', name), text, 'latin1');
        fs.symlinkSync(`../sites-available/${name}`, path.join(host, 'sites-enabled', name));
      }
    } else {
      copyTree(upstream, host);
      fs.mkdirSync(path.join(host, 'conf', 'sites'));
      for (let s = 0; s < sites; s++) {
        const text = vhost(n * sites + s, { www: '/usr/local/apache2/sites', logs: '/usr/local/apache2/logs' });
        fs.writeFileSync(path.join(host, 'conf', 'sites', `site${n * sites + s}.conf`), text, 'latin1');
      }
      fs.appendFileSync(path.join(host, 'conf', 'httpd.conf'), '\n# Sites\nInclude conf/sites/*.conf\n');
    }
  }
  for (const file of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!file.isFile()) continue;
    files++;
    bytes += fs.statSync(path.join(file.parentPath ?? file.path, file.name)).size;
  }
  return { servers, files, bytes };
}
