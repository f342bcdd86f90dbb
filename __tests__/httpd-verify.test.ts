/**
 * `--verify` on a real httpd 2.4 (the built CLI, --httpd this machine's apache2): each migrated
 * server is staged and judged with `-t` before a byte is written.
 *   - a tree httpd accepts is written, with one `verify: ok` line; negative control: the same
 *     tree without the certificate its SSL vhost names is refused (so -t really ran on the stage);
 *   - a tree loading a third-party module that does not exist is refused: exit 2, every byte kept,
 *     the cause named at the original file and line and explained, while the other server of the
 *     run is verified and written; the same outcome with --jobs 1 and 2;
 *   - without a usable httpd nothing is written; a fragment cannot be verified and says so;
 *   - every stage is removed (TMPDIR points into the test's directory).
 */
import * as fs from 'fs';
import * as path from 'path';
import { APACHE2 } from './support/httpd';
import { hashTree, runCli, shopTree, upstreamTree } from './support/verify';
import { workDir } from './support/whole-server';

jest.setTimeout(240000);

interface JsonServer {
  id: string;
  main: string | null;
  status: string;
  verified?: boolean | null;
  verification?: {
    mode: string;
    verified: boolean;
    skipped?: string;
    httpd?: string;
    messages: { text: string; file?: string; line?: number; migratedLine?: number; explanation?: string }[];
    staged?: string[];
    modules?: string[];
    dump?: string;
  };
  files: { path: string; status: string; error?: { message: string } }[];
  errors: { path: string; line?: number; message: string }[];
}

function json(stdout: string): { servers: JsonServer[]; errors: { path: string; message: string }[] } {
  return JSON.parse(stdout);
}

let work: string;
let tmp: string;
beforeEach(() => {
  work = workDir('codemod-verify-test-');
  tmp = path.join(work, 'tmp');
  fs.mkdirSync(tmp);
});
afterEach(() => {
  // the stages live in TMPDIR: a run leaves none behind
  expect(fs.readdirSync(tmp)).toEqual([]);
  fs.rmSync(work, { recursive: true, force: true });
});

test('a tree httpd accepts is verified and written; without its SSL certificate the same tree is refused and left alone', () => {
  const tree = upstreamTree(path.join(work, 'up'));
  const main = path.join('up', 'conf', 'httpd.conf');

  const dry = runCli(['--verify', '--httpd', APACHE2, '--format', 'json', main], work, tmp);
  expect(dry.stderr).toBe('');
  const server = json(dry.stdout).servers[0];
  expect(server.verified).toBe(true);
  expect(server.verification?.mode).toBe('configtest');
  expect(server.verification?.httpd).toContain(APACHE2);
  expect(server.verification?.staged?.join('\n')).toMatch(/ServerRoot and the tree's absolute paths \(.*\/usr\/local\/apache2.*\) -> the stage/);
  // relative LoadModule paths the copy does not hold: the httpd's own module directory
  expect(server.verification?.staged?.join('\n')).toMatch(/LoadModule paths the tree does not hold -> \/usr\/lib\/apache2\/modules/);
  expect(server.verification?.modules).toEqual(expect.arrayContaining(['authz_core_module', 'ssl_module', 'mpm_prefork_module']));
  // DUMP_CONFIG (mod_info): the migrated config as httpd read it, with the original paths
  expect(server.verification?.dump).toMatch(/^# In file: up\/conf\/httpd\.conf$/m);
  expect(server.verification?.dump).toMatch(/^\s*Require all denied$/m);
  expect(server.verification?.dump).not.toContain(tmp);

  const before = fs.readFileSync(path.join(tree, 'conf', 'httpd.conf'), 'latin1');
  const write = runCli(['--write', '--verify', '--httpd', APACHE2, main], work, tmp);
  expect(write.status).toBe(0);
  expect(write.stderr).toMatch(/^verify: ok up\/conf\/httpd\.conf \(\S*apache2 -t passed/m);
  const after = fs.readFileSync(path.join(tree, 'conf', 'httpd.conf'), 'latin1');
  expect(after).not.toBe(before);
  expect(after).toMatch(/^\s*Require all denied$/m);
  expect(after).not.toMatch(/^\s*Order\b/m);

  // negative control: the SSL vhost's certificate missing, httpd refuses the tree
  const bare = upstreamTree(path.join(work, 'bare'));
  fs.unlinkSync(path.join(bare, 'conf', 'server.crt'));
  const hashes = hashTree(bare);
  const refused = runCli(['--write', '--verify', '--httpd', APACHE2, path.join('bare', 'conf', 'httpd.conf')], work, tmp);
  expect(refused.status).toBe(2);
  expect(refused.stderr).toMatch(/^verify: REFUSED bare\/conf\/httpd\.conf \(not written\)$/m);
  expect(refused.stderr).toMatch(/bare\/conf\/extra\/httpd-ssl\.conf:\d+: SSLCertificateFile: file '[^']*bare\/conf\/server\.crt' does not exist or is empty/);
  expect(hashTree(bare)).toEqual(hashes);
});

test('a missing third-party module: that server is refused and keeps every byte (exit 2), the cause named at its original line; the other server is written', () => {
  const bad = upstreamTree(path.join(work, 'bad'));
  const conf = path.join(bad, 'conf', 'httpd.conf');
  fs.appendFileSync(conf, '\n# a module built for 2.2 that this httpd does not have\nLoadModule foo_module modules/mod_foo.so\n');
  const line = fs.readFileSync(conf, 'latin1').split('\n').findIndex((l) => l.startsWith('LoadModule foo_module')) + 1;
  const shop = shopTree(path.join(work, 'shop'));
  const badHashes = hashTree(bad);
  const shopBefore = fs.readFileSync(path.join(shop, 'conf', 'httpd.conf'), 'latin1');
  const args = ['--verify', '--httpd', APACHE2, 'bad/conf/httpd.conf', 'shop/conf/httpd.conf'];

  const reports = [1, 2].map((jobs) => runCli([...args, '--format', 'json', '--jobs', String(jobs)], work, tmp));
  expect(reports[1].stdout).toBe(reports[0].stdout);
  expect(reports[0].status).toBe(2);
  const [refused, good] = json(reports[0].stdout).servers;
  expect(refused.main).toBe('bad/conf/httpd.conf');
  expect(refused.verified).toBe(false);
  expect(refused.status).toBe('error');
  const cause = refused.verification?.messages.find((m) => /mod_foo\.so/.test(m.text));
  expect(cause).toMatchObject({ file: 'bad/conf/httpd.conf', line });
  // the migration added lines above it: httpd named the migrated line, the report the original one
  expect(cause?.migratedLine).toBeGreaterThan(line);
  expect(cause?.text).toMatch(/^Cannot load modules\/mod_foo\.so into server: bad\/modules\/mod_foo\.so: cannot open shared object file/);
  expect(cause?.explanation).toMatch(/does not exist/);
  expect(refused.errors).toEqual([expect.objectContaining({ path: 'bad/conf/httpd.conf', line, message: expect.stringMatching(/^httpd refused the migrated server \(--verify\), it would not be written: Cannot load modules\/mod_foo\.so/) })]);
  expect(good.main).toBe('shop/conf/httpd.conf');
  expect(good.verified).toBe(true);

  const write = runCli(['--write', ...args], work, tmp);
  expect(write.status).toBe(2);
  expect(write.stderr).toMatch(/^verify: REFUSED bad\/conf\/httpd\.conf \(not written\)$/m);
  expect(write.stderr).toContain(`  bad/conf/httpd.conf:${line}: Cannot load modules/mod_foo.so`);
  expect(write.stderr).toMatch(/^ {4}explain: .*does not exist/m);
  expect(write.stderr).toMatch(new RegExp(`^error: bad/conf/httpd\\.conf:${line}: httpd refused the migrated server \\(--verify\\), nothing of it was written`, 'm'));
  expect(write.stderr).toMatch(/^verify: ok shop\/conf\/httpd\.conf /m);
  expect(hashTree(bad)).toEqual(badHashes);
  expect(fs.readFileSync(path.join(shop, 'conf', 'httpd.conf'), 'latin1')).not.toBe(shopBefore);
});

test('without a usable httpd nothing is written (exit 2); a fragment on its own is not verified and says why', () => {
  const shop = shopTree(path.join(work, 'shop'));
  const hashes = hashTree(shop);
  const missing = runCli(['--write', '--verify', '--httpd', path.join(work, 'no-such-httpd'), 'shop/conf/httpd.conf'], work, tmp);
  expect(missing.status).toBe(2);
  expect(missing.stderr).toMatch(/^verify: REFUSED shop\/conf\/httpd\.conf \(not written\)\n {2}cannot run .*no-such-httpd/m);
  expect(hashTree(shop)).toEqual(hashes);

  const fragment = runCli(['--verify', '--httpd', APACHE2, '--format', 'json', 'shop/htdocs/reports/.htaccess'], work, tmp);
  const server = json(fragment.stdout).servers[0];
  expect(server.verified).toBeNull();
  expect(server.verification?.skipped).toMatch(/no main config in the run/);
  const text = runCli(['--write', '--verify', '--httpd', APACHE2, 'shop/htdocs/reports/.htaccess'], work, tmp);
  expect(text.status).toBe(0);
  expect(text.stderr).toMatch(/^verify: skipped shop\/htdocs\/reports\/\.htaccess: no main config in the run/m);
  expect(fs.readFileSync(path.join(shop, 'htdocs', 'reports', '.htaccess'), 'latin1')).toMatch(/^Require ip /m);
});

test('--verify takes no value or =requests; --verify does not swallow the path after it', () => {
  shopTree(path.join(work, 'shop'));
  const bogus = runCli(['--verify=maybe', 'shop/conf/httpd.conf'], work, tmp);
  expect(bogus.status).toBe(2);
  expect(bogus.stderr).toMatch(/--verify takes no value or =requests, not maybe/);
  const flag = runCli(['--verify', 'shop/conf/httpd.conf', '--httpd', APACHE2, '--check'], work, tmp);
  expect(flag.stderr).toMatch(/^verify: ok shop\/conf\/httpd\.conf/m);
});

test('--context: the staged server is the context with the run files in it; a broken run file refuses it, every byte kept', () => {
  const work = workDir('codemod-verify-context-');
  const tmp = path.join(work, 'tmp');
  // Debian's installed 2.4 /etc/apache2 (links kept) as the context, a 2.2 site beside it
  fs.cpSync('/etc/apache2', path.join(work, 'etc-apache2'), { recursive: true, verbatimSymlinks: true });
  fs.mkdirSync(path.join(work, 'site'));
  const site = ['<VirtualHost *:80>', '    ServerName shop.example', '    <Directory /srv/shop>', '        Order allow,deny', '        Allow from all', '    </Directory>', '</VirtualHost>', ''].join('\n');
  fs.writeFileSync(path.join(work, 'site/shop.conf'), site);
  const ok = runCli(['--verify', '--httpd', APACHE2, '--format', 'json', '--context', 'etc-apache2/apache2.conf', 'site'], work, tmp);
  const server = json(ok.stdout).servers[0];
  expect(server.verified).toBe(true);
  // negative control: a line only httpd can judge, in the run file, not in the context
  fs.writeFileSync(path.join(work, 'site/bad.conf'), '<VirtualHost *:80>\n    ServerName bad.example\n    NoSuchDirective on\n</VirtualHost>\n');
  const before = hashTree(path.join(work, 'site'));
  const refused = runCli(['--write', '--verify', '--httpd', APACHE2, '--context', 'etc-apache2/apache2.conf', 'site'], work, tmp);
  expect(refused.status).toBe(2);
  expect(refused.stderr).toMatch(/site\/bad\.conf:3: httpd refused the migrated server \(--verify\), nothing of it was written: Invalid command 'NoSuchDirective'/);
  expect(hashTree(path.join(work, 'site'))).toEqual(before);
  fs.rmSync(work, { recursive: true, force: true });
});
