/**
 * `--verify=requests` on a real httpd 2.4: the staged migrated server answers a request set
 * derived from the original config, and every answer is compared with 2.2's for the original.
 *   - the shop (support/verify.ts) migrated faithfully: every answer as 2.2's, addresses outside
 *     127.0.0.0/8 judged statically; planted bugs in the migrated text are caught: a widened
 *     `Require ip` (live, from 127.0.0.2) and a moved network (statically, from 10.20.0.1);
 *   - a real limitation found without planting anything: rules the migration has to keep on
 *     mod_access_compat, where compat resets an inherited `Satisfy Any` (the tool's own
 *     access-compat-hazard finding), refuse the server with the request that shows it;
 *   - the migrated upstream and Debian example trees pass through the CLI and are written;
 *   - a server that passes -t but cannot start (mime.types missing) is refused;
 *   - every staged httpd is stopped (no process names the test's TMPDIR afterwards) and every
 *     stage removed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { RequestReplay } from '../src/model/server-outcome';
import { portOpen, spawnHttpd } from '../src/verify/httpd-process';
import { verifyServer } from '../src/verify/verify-server';
import { APACHE2, baseConfig, freePorts } from './support/httpd';
import { debianTree, hashTree, migrateInMemory, plant, processesNaming, runCli, shopTree, upstreamTree } from './support/verify';
import { workDir } from './support/whole-server';

jest.setTimeout(240000);

type Replay = RequestReplay;

let work: string;
let tmp: string;
let savedTmp: string | undefined;
beforeEach(() => {
  work = workDir('codemod-verify-requests-');
  tmp = path.join(work, 'tmp');
  fs.mkdirSync(tmp);
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = tmp; // in-process verifyServer stages there too
});
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  expect(processesNaming(tmp)).toEqual([]);
  expect(fs.readdirSync(tmp)).toEqual([]);
  fs.rmSync(work, { recursive: true, force: true });
});

function verifyInMemory(m: ReturnType<typeof migrateInMemory>) {
  return verifyServer({ mode: 'requests', httpd: APACHE2, main: m.main, files: m.files, serverRoot: m.serverRoot, migratePerDirectory: m.migratePerDirectory });
}

test('the shop migrated faithfully answers as 2.2 did; a widened Require ip is caught live, a moved network statically', async () => {
  shopTree(path.join(work, 'shop'));
  const migration = migrateInMemory(path.join(work, 'shop', 'conf', 'httpd.conf'));
  const admin = 'Require ip 127.0.0.5 10.20.0.0/16';
  expect(migration.main.migrated).toContain(admin);

  const faithful = await verifyInMemory(migration);
  expect(faithful.messages.filter((m) => !/AH00558/.test(m.text))).toEqual([]);
  const replay = faithful.requests as Replay;
  expect(replay.mismatches).toEqual([]);
  expect(replay.static.mismatches).toEqual([]);
  expect(faithful.verified).toBe(true);
  // the set covers what the rules single out: loopback addresses inside and outside Allow,
  // valid and wrong credentials, a group member, LimitExcept's POST, <Files>, both virtual hosts
  expect(replay.sent).toBeGreaterThan(50);
  expect(replay.static.evaluated).toBeGreaterThan(10);
  expect(faithful.staged).toEqual(expect.arrayContaining([expect.stringMatching(/Listen and <VirtualHost> addresses -> 127\.0\.0\.1/)]));
  expect(replay.hosts.map((h) => h.host).sort()).toEqual(['http://shop.example.com', 'http://staff.example.com']);
  expect(replay.notReplayed.join('\n')).not.toMatch(/members/);
  // mod_rewrite forbids /legacy/ on both versions, beyond the access model: not sent, and said so
  expect(replay.notReplayed).toEqual(expect.arrayContaining([expect.stringMatching(/per-directory RewriteRule .*: shop\.example\.com\/legacy\/codemod-verify-probe\.html/)]));

  const widened = await verifyInMemory(plant(migration, 'conf/httpd.conf', admin, 'Require ip 127.0.0.0/8 10.20.0.0/16'));
  expect(widened.verified).toBe(false);
  const live = (widened.requests as Replay).mismatches;
  expect(live).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ request: 'GET http://shop.example.com/admin/codemod-verify-probe.html from 127.0.0.2 as no credentials', expected: 401, actual: 404 }),
    ]),
  );
  // every mismatch is a request the widened rule lets in
  expect(live.every((m) => m.request.includes('/admin/') && m.expected === 401 && m.actual === 404)).toBe(true);
  expect(live[0].scopes).toEqual(expect.arrayContaining([expect.stringMatching(/\/shop\/conf\/httpd\.conf:29$/)]));

  const moved = await verifyInMemory(plant(migration, 'conf/httpd.conf', admin, 'Require ip 127.0.0.5 10.21.0.0/16'));
  expect(moved.verified).toBe(false);
  expect((moved.requests as Replay).mismatches).toEqual([]);
  expect((moved.requests as Replay).static.mismatches).toEqual(
    expect.arrayContaining([expect.objectContaining({ request: 'GET http://shop.example.com/admin/codemod-verify-probe.html from 10.20.0.1 as no credentials (judged statically)', expected: 200, actual: 401 })]),
  );
});

test('rules kept on mod_access_compat that reset an inherited Satisfy Any: the replay refuses the server with the request that shows it', () => {
  const shop = shopTree(path.join(work, 'shop'));
  const conf = path.join(shop, 'conf', 'httpd.conf');
  // without "Satisfy All" in <Files *.bak>, 2.2 let valid users read /admin/*.bak (Satisfy Any inherited)
  fs.writeFileSync(conf, fs.readFileSync(conf, 'latin1').replace('    Deny from all\n    Satisfy All\n</Files>', '    Deny from all\n</Files>'));
  const hashes = hashTree(shop);
  const r = runCli(['--write', '--verify=requests', '--httpd', APACHE2, '--format', 'json', 'shop/conf/httpd.conf'], work, tmp);
  expect(r.status).toBe(2);
  const server = JSON.parse(r.stdout).servers[0];
  expect(server.findings.map((f: { code: string }) => f.code)).toContain('access-compat-hazard');
  expect(server.verified).toBe(false);
  expect((server.verification.requests as Replay).mismatches).toEqual(
    expect.arrayContaining([expect.objectContaining({ request: 'GET http://shop.example.com/admin/codemod.bak from 127.0.0.1 as codemod-verify (valid)', expected: 200, actual: 403 })]),
  );
  expect(hashTree(shop)).toEqual(hashes);
});

test('the migrated upstream and Debian example trees answer every replayed request as 2.2 did, and are written', () => {
  upstreamTree(path.join(work, 'up'));
  debianTree(path.join(work, 'deb'));
  const dry = runCli(['--verify=requests', '--httpd', APACHE2, '--format', 'json', 'up/conf/httpd.conf', 'deb/apache2.conf'], work, tmp);
  expect(dry.status).toBe(1);
  const servers = JSON.parse(dry.stdout).servers as { main: string; verified: boolean; verification: { requests: Replay } }[];
  for (const main of ['up/conf/httpd.conf', 'deb/apache2.conf']) {
    const s = servers.find((x) => x.main === main);
    expect(s?.verified).toBe(true);
    expect(s?.verification.requests.mismatches).toEqual([]);
    expect(s?.verification.requests.static.mismatches).toEqual([]);
    expect(s?.verification.requests.sent).toBeGreaterThan(20);
  }
  // upstream's name-based virtual hosts and its SSL virtual host (over TLS) were reached
  expect(servers.find((x) => x.main === 'up/conf/httpd.conf')?.verification.requests.hosts.map((h) => h.host).sort()).toEqual([
    'http://dummy-host.example.com',
    'http://dummy-host2.example.com',
    'https://www.example.com',
  ]);

  const write = runCli(['--write', '--verify=requests', '--httpd', APACHE2, 'up/conf/httpd.conf', 'deb/apache2.conf'], work, tmp);
  expect(write.status).toBe(0);
  expect(write.stderr).toMatch(/^verify: ok up\/conf\/httpd\.conf \(\S+ -t passed.*; \d+ requests replayed and \d+ judged statically, all answered as 2\.2 did\)$/m);
  expect(write.stderr).toMatch(/^verify: ok deb\/apache2\.conf \(\S+ -t passed.*requests replayed.*all answered as 2\.2 did\)$/m);
  expect(fs.readFileSync(path.join(work, 'deb', 'sites-available', 'default'), 'latin1')).toMatch(/^\s*Require all granted$/m);
});

test('a server that passes -t but does not start is refused; the staged httpd never outlives the run', () => {
  const up = upstreamTree(path.join(work, 'up'));
  fs.unlinkSync(path.join(up, 'conf', 'mime.types'));
  const configtest = runCli(['--verify', '--httpd', APACHE2, 'up/conf/httpd.conf'], work, tmp);
  expect(configtest.stderr).toMatch(/^verify: ok up\/conf\/httpd\.conf/m);
  const hashes = hashTree(up);
  const r = runCli(['--write', '--verify=requests', '--httpd', APACHE2, 'up/conf/httpd.conf'], work, tmp);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/^ {2}the staged server did not start: it exited/m);
  expect(r.stderr).toMatch(/could not open mime types config file up\/conf\/mime\.types/);
  expect(hashTree(up)).toEqual(hashes);
});

test('a staged httpd has a bounded lifetime: its process group ends by itself even if the run never stops it', async () => {
  const [bounded, control] = await freePorts(2);
  const start = (port: number, life?: number) => {
    const dir = path.join(work, `s${port}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'httpd.conf'), baseConfig(dir, port));
    return spawnHttpd(APACHE2, ['-f', path.join(dir, 'httpd.conf')], process.env, life);
  };
  const up = async (port: number) => {
    for (let i = 0; i < 100 && !(await portOpen(port)); i++) await new Promise((r) => setTimeout(r, 100));
    return portOpen(port);
  };
  const a = start(bounded, 2);
  const b = start(control);
  try {
    expect(await up(bounded)).toBe(true);
    expect(await up(control)).toBe(true);
    await new Promise((r) => setTimeout(r, 4000));
    expect(a.gone()).toBe(true);
    expect(await portOpen(bounded)).toBe(false);
    // negative control: without a lifetime the server is still there
    expect(b.gone()).toBe(false);
    expect(await portOpen(control)).toBe(true);
  } finally {
    await a.stop();
    await b.stop();
  }
  expect(processesNaming(work)).toEqual([]);
});
