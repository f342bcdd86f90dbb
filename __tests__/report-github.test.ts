/**
 * --format github: GitHub Actions workflow commands, compared line for line, with the runner's
 * escaping (message: %, CR, LF; properties also : and ,).
 */
import * as fs from 'fs';
import { escapeData, escapeProperty } from '../src/report/github';
import { buildReportFleet, codemod, tempDir, writeFile } from './support/report-fleet';

let tmp: string;
beforeEach(() => {
  tmp = tempDir('codemod-github-');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('escaping', () => {
  expect(escapeData('50% done\r\nnext: a, b')).toBe('50%25 done%0D%0Anext: a, b');
  expect(escapeProperty('dir/odd, name: 100%.conf')).toBe('dir/odd%2C name%3A 100%25.conf');
  expect(escapeProperty('a\nb\rc')).toBe('a%0Ab%0Dc');
  // % first: an escape already in the text is not read back as one
  expect(escapeData('%0A')).toBe('%250A');
});

test('one annotation per finding and per error, exact lines; the summary on stderr', () => {
  buildReportFleet(tmp, { oddName: true });
  const r = codemod(tmp, ['--format', 'github', 'fleet']);
  expect(r.status).toBe(2);
  const lines = Buffer.from(r.stdout, 'latin1').toString('utf8').split('\n');
  expect(lines.pop()).toBe('');
  expect(lines.every((l) => /^::(error|warning|notice) file=[^:]+(,line=\d+)?,title=[^:]+::\S/.test(l))).toBe(true);
  // web1: manual at line 3, review at line 6, info at line 5, a file-level finding has no line
  expect(lines).toContain(
    '::error file=fleet/web1/httpd.conf,line=3,title=module-third-party (manual)::mod_php5 (modules/libphp5.so) was built for 2.2 and cannot load into 2.4: rebuild or install PHP for httpd 2.4 (Debian: `apt install libapache2-mod-php`, prefork MPM only) or run PHP-FPM behind mod_proxy_fcgi',
  );
  expect(lines).toContain(
    '::warning file=fleet/web1/httpd.conf,line=6,title=default-type-removed (review)::DefaultType text/plain removed: 2.4 sends no Content-Type for files of unknown type. If clients relied on "text/plain", map the file names with AddType or ForceType (e.g. <FilesMatch "^[^.]+$"> ForceType text/plain </FilesMatch>)',
  );
  expect(lines).toContain('::notice file=fleet/web1/httpd.conf,line=5,title=max-clients-renamed (info)::MaxClients is called MaxRequestWorkers in 2.4');
  expect(lines.filter((l) => l.startsWith('::warning file=fleet/web1/httpd.conf,title=mpm-loaded (review)::'))).toHaveLength(1);
  // property escaping in a file name
  expect(lines).toContain('::notice file=fleet/loose/odd%2C name%3A 100%25.conf,line=1,title=keep-alive-normalized (info)::KeepAlive 0 meant Off in 2.2; 2.4 accepts only On or Off');
  // errors last
  expect(lines[lines.length - 1]).toBe('::error file=fleet/loose/broken.conf,line=1,title=httpd-codemod error::<Directory> is never closed');
  // as many annotations as findings and errors in the JSON report
  const json = JSON.parse(codemod(tmp, ['--format', 'json', 'fleet']).stdout) as { findings: unknown[]; errors: unknown[] };
  expect(lines).toHaveLength(json.findings.length + json.errors.length);
  // no diff on stdout; the summary line (not the findings) on stderr
  expect(r.stdout).not.toMatch(/^diff --git/m);
  expect(r.stderr).toBe('4 to change, 1 unchanged, 0 skipped, 2 need review, 1 need manual action, 1 error\n');
  // --quiet leaves out the notices
  const quiet = codemod(tmp, ['--format', 'github', '--quiet', 'fleet']).stdout.split('\n').filter(Boolean);
  expect(quiet.length).toBeGreaterThan(0);
  expect(quiet.some((l) => l.startsWith('::notice'))).toBe(false);
  expect(quiet).toEqual(lines.filter((l) => !l.startsWith('::notice')));
});

test('a message with a non-ASCII character is written as UTF-8', () => {
  writeFile(tmp, 'ssl.conf', 'SSLProtocol all -SSLv2\n');
  const r = codemod(tmp, ['--format', 'github', 'ssl.conf']);
  const lines = Buffer.from(r.stdout, 'latin1').toString('utf8').split('\n').filter(Boolean);
  expect(lines).toContain('::notice file=ssl.conf,line=1,title=sslv2-protocol-removed (info)::SSLProtocol all -SSLv2 → SSLProtocol all: 2.4 has no SSLv2 ("all" no longer includes it)');
});
