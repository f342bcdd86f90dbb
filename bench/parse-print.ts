/**
 * `npm run bench`: parse + print, and the full transform pipeline, over a
 * generated tree of a few thousand vhost files; prints MB/s and files/s.
 * When apache2 is installed it also times `apache2 -t` over the same tree in
 * the same run, so the ratio is measured side by side on this machine.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from '../src/cst';
import { transformText } from '../src/run/runner';
import { TRANSFORMS } from '../transforms';

const FILES = Number(process.env.BENCH_FILES ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function vhost(i: number): string {
  const name = `site${i}.example.com`;
  return `# Virtual host ${i}: generated for the benchmark
#
<VirtualHost *:80>
    ServerName ${name}
    ServerAlias www.${name} \\
        alias${i}.example.net
    ServerAdmin webmaster@${name}
    DocumentRoot "/srv/www/${name}/htdocs"
    ErrorLog "/var/log/apache2/${name}-error.log"
    CustomLog "/var/log/apache2/${name}-access.log" combined
    KeepAlive On
    MaxKeepAliveRequests 100

    <Directory "/srv/www/${name}/htdocs">
        Options -Indexes +FollowSymLinks
        AllowOverride FileInfo AuthConfig
        Order allow,deny
        Allow from all
    </Directory>

    <Location /server-status>
        SetHandler server-status
        Order deny,allow
        Deny from all
        Allow from 127.0.0.1 10.${i % 256}.0.0/16
    </Location>

    <FilesMatch "\\.(cgi|pl)$">
        SetHandler cgi-script
    </FilesMatch>
    Alias /static/ "/srv/www/${name}/static/"
    RewriteEngine On
    RewriteRule ^/old/(.*)$ /new/$1 [R=301,L]
    Header set X-Site "${name}"
</VirtualHost>
`;
}

function main(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codemod-bench-'));
  try {
    const texts: string[] = [];
    for (let i = 0; i < FILES; i++) {
      const text = vhost(i);
      texts.push(text);
      fs.writeFileSync(path.join(dir, `site${i}.conf`), text);
    }
    const bytes = texts.reduce((n, t) => n + t.length, 0);
    const mb = bytes / 1e6;
    console.log(`tree: ${FILES} vhost files, ${mb.toFixed(2)} MB, best of ${ROUNDS} rounds, one core`);

    const parsePrint = best(() => {
      for (const t of texts) if (parse(t).print().length !== t.length) throw new Error('round trip broke');
    });
    report('parse + print', parsePrint, mb);

    const pipeline = best(() => {
      for (const t of texts) transformText(t, TRANSFORMS);
    });
    report('parse + transforms + print', pipeline, mb);

    const httpd = timeHttpd(dir, texts.length);
    if (httpd !== null) {
      report('apache2 -t (httpd 2.4 parser)', httpd, mb);
      console.log(`ratio parse+print / apache2 -t throughput: ${(httpd / parsePrint).toFixed(2)}x`);
    } else {
      console.log('apache2 -t: not measured (apache2 not installed)');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function best(fn: () => void): number {
  let min = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    fn();
    min = Math.min(min, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return min;
}

function report(label: string, seconds: number, mb: number): void {
  console.log(
    `${label.padEnd(32)} ${(mb / seconds).toFixed(1).padStart(7)} MB/s ${(FILES / seconds).toFixed(0).padStart(8)} files/s  (${(seconds * 1000).toFixed(0)} ms)`,
  );
}

/** Times `apache2 -t` over a config that includes every generated vhost (access_compat for Order/Allow). */
function timeHttpd(dir: string, _count: number): number | null {
  const binary = ['/usr/sbin/apache2', '/usr/sbin/httpd'].find((p) => fs.existsSync(p));
  if (!binary) return null;
  const mods = '/usr/lib/apache2/modules';
  const load = ['mpm_prefork', 'authz_core', 'authz_host', 'access_compat', 'alias', 'rewrite', 'headers', 'mime', 'status']
    .map((m) => `LoadModule ${m}_module ${mods}/mod_${m}.so`)
    .join('\n');
  const conf = path.join(dir, 'main.conf.bench');
  fs.writeFileSync(
    conf,
    `ServerRoot "${dir}"\nPidFile "${dir}/pid"\nErrorLog "${dir}/error.log"\n${load}\nListen 127.0.0.1:8\nServerName localhost\nInclude "${dir}/*.conf"\n`,
  );
  const check = spawnSync(binary, ['-t', '-f', conf], { encoding: 'utf8' });
  if (check.status !== 0) {
    console.log(`apache2 -t rejected the bench tree: ${check.stderr.split('\n')[0]}`);
    return null;
  }
  return best(() => {
    spawnSync(binary, ['-t', '-f', conf]);
  });
}

main();
