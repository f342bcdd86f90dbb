/**
 * Whole-server tests on a real httpd 2.4: each example 2.2 tree (Apache's
 * upstream layout, Debian's /etc/apache2, RHEL/CentOS 6's /etc/httpd) is
 * copied, migrated in-process with --write, mapped into a run copy
 * (`support/whole-server.ts` lists every substitution), then:
 *   - `apache2 -t` passes and prints nothing but `Syntax OK` (no AH00548,
 *     AH00526, "deprecated"…); only the ServerName notice AH00558 is tolerated,
 *     which the 2.2 configs caused on 2.2 as well;
 *   - `-D DUMP_CONFIG` (mod_info) shows the intended 2.4 values;
 *   - the started server answers sample requests as the 2.2 config meant
 *     (allowed/denied paths from 127.0.0.1 and 127.0.0.2, Basic auth with good
 *     and bad credentials, rewrites), and a piped log that needed a shell still
 *     receives lines;
 *   - negative control: the unmigrated tree, mapped the same way, fails `-t`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { freePorts } from './support/httpd';
import {
  LAYOUTS,
  Layout,
  Migration,
  RunTree,
  configtestTree,
  copyTree,
  dumpConfig,
  migrateInPlace,
  prepareRun,
  request,
  startTree,
  unexpectedOutput,
  waitForContent,
  workDir,
  writeRunFile,
} from './support/whole-server';

jest.setTimeout(120000);

interface Prepared {
  readonly work: string;
  readonly migration: Migration;
  readonly run: RunTree;
  readonly original: RunTree;
}

async function prepare(layout: Layout): Promise<Prepared> {
  const work = workDir(`codemod-whole-${layout.name}-`);
  const migrated = path.join(work, 'migrated');
  copyTree(layout.source, migrated);
  const migration = migrateInPlace(migrated);
  const [http, https, http2, https2] = await freePorts(4);
  const run = prepareRun(migrated, layout, path.join(work, 'run'), { ports: { http, https } });
  const original = prepareRun(layout.source, layout, path.join(work, 'original'), { ports: { http: http2, https: https2 } });
  return { work, migration, run, original };
}

function describeLayout(layout: Layout, body: (get: () => Prepared) => void): void {
  describe(`${layout.name} layout (${path.relative(path.join(__dirname, '..'), layout.source)})`, () => {
    let prepared: Prepared | null = null;
    beforeAll(async () => {
      prepared = await prepare(layout);
    });
    afterAll(() => {
      if (prepared) fs.rmSync(prepared.work, { recursive: true, force: true });
    });
    const get = () => {
      if (!prepared) throw new Error('setup failed');
      return prepared;
    };

    test('the migration writes without errors', () => {
      const { migration } = get();
      expect(migration.errors).toEqual([]);
      expect(migration.changed.length).toBeGreaterThan(0);
    });

    test('apache2 -t passes with no warnings on the migrated tree', () => {
      const result = configtestTree(get().run);
      expect(unexpectedOutput(result)).toEqual([]);
      expect(result.ok).toBe(true);
    });

    body(get);
  });
}

const HTML = (title: string) => `<html><body>${title}</body></html>\n`;

describeLayout(LAYOUTS.upstream, (get) => {
  test('negative control: the unmigrated tree fails apache2 -t', () => {
    const result = configtestTree(get().original);
    expect(result.ok).toBe(false);
    // 2.2's mod_authn_default is gone in 2.4 (the first LoadModule httpd cannot do)
    expect(result.stderr).toMatch(/Cannot load .*mod_authn_default\.so/);
  });

  test('DUMP_CONFIG shows MaxRequestWorkers, a Mutex for LockFile, a loaded MPM', () => {
    const dump = dumpConfig(get().run);
    expect(dump).toMatch(/^\s*MaxRequestWorkers\s+150\s*$/m);
    expect(dump).not.toMatch(/^\s*MaxClients\b/m);
    expect(dump).toMatch(/^\s*MaxConnectionsPerChild\s+0\s*$/m);
    // LockFile "logs/accept.lock": the lock directory becomes a Mutex path (a directory, not a file)
    expect(dump).toMatch(/^\s*Mutex\s+(default|file|fcntl|flock):\S*logs\/?(\s|$)/m);
    expect(dump).not.toMatch(/^\s*(LockFile|DefaultType|NameVirtualHost)\b/m);
    expect(dump).toMatch(/^\s*CustomLog\s+"\|\$\s*cat >> \S+\/report_log"/m);
  });

  test('the server answers as 2.2 meant, and the shell-piped log receives lines', async () => {
    const { run } = get();
    // httpd-vhosts.conf is switched on: its first vhost (dummy-host) answers every request, and its
    // DocumentRoot lies under <Directory /> (Deny from all); /cgi-bin/ (Allow from all) is shared.
    writeRunFile(run, '/usr/local/apache2/docs/dummy-host.example.com/index.html', HTML('dummy host'));
    writeRunFile(run, '/usr/local/apache2/cgi-bin/hello', '#!/bin/sh\necho "Content-Type: text/plain"\necho\necho "hello from cgi"\n', 0o755);
    const server = await startTree(run);
    try {
      const port = run.ports.http;
      const cgi = await request(port, '/cgi-bin/hello');
      expect(cgi.status).toBe(200);
      expect(cgi.body).toContain('hello from cgi');
      expect((await request(port, '/cgi-bin/hello', { from: '127.0.0.2' })).status).toBe(200);
      // <Directory /> Order deny,allow + Deny from all covers the vhost's DocumentRoot
      expect((await request(port, '/', { host: 'dummy-host.example.com' })).status).toBe(403);
      // /server-status: Allow from .example.com only (127.0.0.x resolves to localhost)
      expect((await request(port, '/server-status')).status).toBe(403);
      expect((await request(port, '/server-status', { from: '127.0.0.2' })).status).toBe(403);

      await request(port, '/cgi-bin/hello?piped-log-probe');
      const piped = await waitForContent(run.map('/usr/local/apache2/logs/report_log'), /piped-log-probe/);
      expect(piped).toMatch(/^127\.0\.0\.1 .*"GET \/cgi-bin\/hello\?piped-log-probe HTTP\/1\.1" 200 /m);
    } finally {
      await server.stop();
    }
  });
});

describeLayout(LAYOUTS.debian, (get) => {
  test('negative control: the unmigrated tree fails apache2 -t', () => {
    const result = configtestTree(get().original);
    expect(result.ok).toBe(false);
    expect(result.stderr).toMatch(/LockFile|mod_authz_default\.so|mod_disk_cache\.so|No MPM loaded/);
  });

  test('DUMP_CONFIG shows MaxRequestWorkers, Mutex, rewrite:trace2, CacheRoot inside the renamed IfModule', () => {
    const { run } = get();
    const dump = dumpConfig(run);
    expect(dump).toMatch(/^\s*MaxRequestWorkers\s+150\s*$/m);
    expect(dump).toMatch(new RegExp(`^\\s*Mutex\\s+(default|file|fcntl|flock):${run.map('/var/lock/apache2')}/?(\\s|$)`, 'm'));
    expect(dump).toMatch(/^\s*LogLevel\b.*\brewrite:trace2\b/m);
    // disk_cache.conf's <IfModule mod_disk_cache.c> is false on 2.4 unless renamed to mod_cache_disk.c
    expect(dump).toMatch(new RegExp(`^\\s*CacheRoot\\s+${run.map('/var/cache/apache2/mod_disk_cache')}\\s*$`, 'm'));
    expect(dump).toMatch(/^\s*CacheDirLevels\s+2\s*$/m);
    expect(dump).not.toMatch(/^\s*(LockFile|RewriteLog|RewriteLogLevel|NameVirtualHost)\b/m);
  });

  test('the server answers as 2.2 meant: status from 127.0.0.1 only, rewrites logged at trace2', async () => {
    const { run } = get();
    writeRunFile(run, '/var/www/index.html', HTML('debian index'));
    writeRunFile(run, '/var/www/.htsecret', 'secret\n');
    const server = await startTree(run);
    try {
      const port = run.ports.http;
      const index = await request(port, '/');
      expect(index.status).toBe(200);
      expect(index.body).toContain('debian index');
      expect((await request(port, '/.htsecret')).status).toBe(403);
      // status.conf: Deny from all, Allow from 127.0.0.1 ::1
      expect((await request(port, '/server-status?auto')).status).toBe(200);
      expect((await request(port, '/server-status?auto', { from: '127.0.0.2' })).status).toBe(403);
      // RewriteRule ^/old/(.*)$ /$1 [R=301,L]
      const moved = await request(port, '/old/index.html');
      expect(moved.status).toBe(301);
      expect(moved.headers.location).toMatch(/\/index\.html$/);
      const log = await waitForContent(run.map('/var/log/apache2/error.log'), /\[rewrite:trace2\]/);
      expect(log).toMatch(/\[rewrite:trace2\].*\/old\/index\.html/);
    } finally {
      await server.stop();
    }
  });
});

describeLayout(LAYOUTS.rhel, (get) => {
  test('negative control: the unmigrated tree fails apache2 -t', () => {
    const result = configtestTree(get().original);
    expect(result.ok).toBe(false);
    expect(result.stderr).toMatch(/Cannot load .*mod_authn_alias\.so/);
  });

  test('DUMP_CONFIG shows MaxRequestWorkers, the accept Mutex, rewrite:trace3', () => {
    const { run } = get();
    const dump = dumpConfig(run);
    expect(dump).toMatch(/^\s*ServerLimit\s+256\s*$/m);
    expect(dump).toMatch(/^\s*MaxRequestWorkers\s+256\s*$/m);
    expect(dump).toMatch(/^\s*MaxConnectionsPerChild\s+4000\s*$/m);
    // AcceptMutex fcntl + LockFile /var/run/httpd/accept.lock
    expect(dump).toMatch(new RegExp(`^\\s*Mutex\\s+fcntl:${run.map('/var/run/httpd')}/?\\s+(mpm-accept|default)\\s*$`, 'm'));
    expect(dump).toMatch(/^\s*LogLevel\b.*\brewrite:trace3\b/m);
    expect(dump).not.toMatch(/^\s*(AcceptMutex|LockFile|RewriteLog|RewriteLogLevel|NameVirtualHost|DefaultType)\b/m);
  });

  test('the server answers as 2.2 meant: vhosts, office network or login, both for the reports', async () => {
    const { run } = get();
    writeRunFile(run, '/var/www/html/index.html', HTML('rhel main index'));
    writeRunFile(run, '/var/www/intranet/index.html', HTML('intranet index'));
    writeRunFile(run, '/var/www/intranet/reports/index.html', HTML('reports index'));
    const server = await startTree(run);
    try {
      const port = run.ports.http;
      const www = await request(port, '/', { host: 'www.example.com' });
      expect(www.status).toBe(200);
      expect(www.body).toContain('rhel main index');
      expect((await request(port, '/favicon.ico', { host: 'www.example.com' })).status).toBe(404);

      const intranet = 'intranet.example.com';
      const office = await request(port, '/', { host: intranet });
      expect(office.status).toBe(200);
      expect(office.body).toContain('intranet index');
      expect((await request(port, '/', { host: intranet, from: '127.0.0.2' })).status).toBe(401);
      expect((await request(port, '/', { host: intranet, from: '127.0.0.2', user: 'alice', password: 'wonderland' })).status).toBe(200);
      expect((await request(port, '/', { host: intranet, from: '127.0.0.2', user: 'alice', password: 'wrong' })).status).toBe(401);
      // reports: Satisfy All — office network AND a valid user
      expect((await request(port, '/reports/', { host: intranet })).status).toBe(401);
      expect((await request(port, '/reports/', { host: intranet, user: 'bob', password: 'builder' })).status).toBe(200);
      expect((await request(port, '/reports/', { host: intranet, from: '127.0.0.2', user: 'bob', password: 'builder' })).status).toBe(403);
      const moved = await request(port, '/wiki/Printers', { host: intranet, user: 'bob', password: 'builder' });
      expect(moved.status).toBe(301);
      expect(moved.headers.location).toMatch(/\/kb\/Printers$/);
      const log = await waitForContent(path.join(run.root, 'logs', 'intranet-error_log'), /\[rewrite:trace3\]/);
      expect(log).toMatch(/\[rewrite:trace3\]/);
    } finally {
      await server.stop();
    }
  });
});
