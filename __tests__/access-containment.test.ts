/**
 * Contained fallback across files: what a scope the migration keeps (on mod_access_compat) may
 * pull in with it, and what it may not. A file the server does not read today (placed as if
 * included, behind a commented-out Include) cannot hold back the scopes the server reads.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { discover } from '../src/server/discover';
import { fileResult, runServer } from '../src/run/runner';
import { TRANSFORMS } from '../transforms';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'codemod-containment-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const MAIN = (include: string) =>
  [
    'ServerRoot "/usr/local/apache2"',
    'LoadModule mpm_prefork_module modules/mod_mpm_prefork.so',
    'DocumentRoot "/usr/local/apache2/htdocs"',
    '<Directory />',
    '    Order deny,allow',
    '    Deny from all',
    '</Directory>',
    '<Directory "/usr/local/apache2/htdocs">',
    '    Order allow,deny',
    '    Allow from all',
    '</Directory>',
    include,
    '',
  ].join('\n');

// a main-level <Location /> meets every directory; its rules hang on how httpd is started
const EXTRA = ['<Location />', '    <IfDefine OPEN>', '        Order allow,deny', '        Allow from all', '    </IfDefine>', '</Location>', ''].join('\n');

function migrate(include: string): { main: string; findings: string[] } {
  fs.mkdirSync(path.join(tmp, 'conf/extra'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'conf/httpd.conf'), MAIN(include));
  fs.writeFileSync(path.join(tmp, 'conf/extra/open.conf'), EXTRA);
  const d = discover(['.'], { cwd: tmp });
  expect(d.servers).toHaveLength(1);
  const server = d.servers[0];
  const run = runServer(server, TRANSFORMS, {});
  const main = fileResult(server.files[0], run.failed.get(server.files[0].realPath)).output;
  return { main, findings: run.findings.map((f) => `${f.file}:${f.line} ${f.severity} ${f.code}`) };
}

test('a kept scope the server reads keeps the scopes it meets, and loads mod_access_compat', () => {
  const { main, findings } = migrate('Include conf/extra/open.conf');
  expect(findings).toContain('conf/extra/open.conf:1 manual access-kept');
  // the directories would inherit nothing from a Location (merged after them), but the Location inherits
  // their Order/Allow/Deny on compat when OPEN is not defined: they stay, so it answers as before
  expect(main).toMatch(/Order deny,allow/);
  expect(main).toMatch(/LoadModule access_compat_module/);
});

test('the same scope in a file behind a commented-out Include holds nothing back', () => {
  const { main, findings } = migrate('#Include conf/extra/open.conf');
  expect(findings).toContain('conf/extra/open.conf:1 review access-kept');
  expect(main).not.toMatch(/^\s*(Order|Allow|Deny)\b/m);
  expect(main).toMatch(/Require all denied/);
  expect(main).not.toMatch(/access_compat/);
  expect(findings).toContain('conf/extra/open.conf:0 info module-needed-when-enabled');
});
