/**
 * AccessFileIndex.owner looks a per-directory file's directory up by its ancestors among the scopes'
 * directories (a fleet's files are not each compared with every server's directories). Checked against
 * the comparison it replaced, kept here as the oracle: the first scope in order, and within one scope
 * the first of its names, one of whose directories (named or real) holds the file's directory (as
 * scanned or real). Random scopes over a real tree with a symlinked directory; negative control: an
 * oracle that ignores real paths disagrees on the symlinked layout.
 */
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AccessFileIndex, AccessFileScope } from '../src/server/access-file-scope';
import { accessFileDirectory } from '../src/server/file-names';
import { RealPaths } from '../src/server/real-paths';

function isWithin(dir: string, target: string): boolean {
  if (target === dir) return true;
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  return target.startsWith(prefix);
}

/** The linear search owner() used to make over every scope reading the file's name. */
function oracle(order: readonly AccessFileScope[], absPath: string, realPaths = true): { scope: AccessFileScope; dir: string } | null {
  for (const scope of order) {
    for (const name of scope.names) {
      if (path.basename(absPath) !== name.split('/').filter((c) => c !== '').pop()) continue;
      const dir = accessFileDirectory(absPath, name);
      if (dir === null) continue;
      const real = realPaths ? scope.realPath(dir) : dir;
      const directories = realPaths ? scope.resolved.directories : scope.named.directories;
      if (directories.some((d) => isWithin(d, dir) || isWithin(d, real))) return { scope, dir };
    }
  }
  return null;
}

let tmp = '';
beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'codemod-afi-')));
  for (const d of ['srv/www/a/sub', 'srv/www/b', 'srv/other/sub', 'home/u/public_html/sub']) fs.mkdirSync(path.join(tmp, d), { recursive: true });
  // a directory the config names through a symlink, and one the scan meets through one
  fs.symlinkSync(path.join(tmp, 'srv/www/b'), path.join(tmp, 'srv/blink'));
  fs.symlinkSync(path.join(tmp, 'home/u/public_html'), path.join(tmp, 'srv/www/a/ulink'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const DIRS = ['srv', 'srv/www', 'srv/www/a', 'srv/www/a/sub', 'srv/www/b', 'srv/blink', 'srv/other', 'home/u/public_html', 'srv/missing'];
const NAMES = ['.htaccess', '.acl', 'sub/.htaccess'];
const FILES = [
  'srv/www/.htaccess',
  'srv/www/a/.htaccess',
  'srv/www/a/sub/.htaccess',
  'srv/www/a/sub/.acl',
  'srv/www/b/.htaccess',
  'srv/blink/.htaccess',
  'srv/blink/sub/.htaccess',
  'srv/other/sub/.htaccess',
  'srv/www/a/ulink/.htaccess',
  'srv/www/a/ulink/sub/.htaccess',
  'home/u/public_html/.acl',
  'elsewhere/.htaccess',
];

const scopeArb = fc.record({
  names: fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
  dirs: fc.uniqueArray(fc.constantFrom(...DIRS), { minLength: 1, maxLength: 4 }),
});

function makeScopes(specs: readonly { names: string[]; dirs: string[] }[], realPaths: RealPaths): AccessFileScope[] {
  return specs.map((s) => new AccessFileScope(s.names, { directories: s.dirs.map((d) => path.join(tmp, d)), logical: new Map() }, realPaths));
}

test('owner() answers as the linear search over every scope did', () => {
  fc.assert(
    fc.property(fc.array(scopeArb, { minLength: 1, maxLength: 6 }), (specs) => {
      const realPaths = new RealPaths();
      const scopes = makeScopes(specs, realPaths);
      const index = new AccessFileIndex(scopes);
      for (const f of FILES) {
        const abs = path.join(tmp, f);
        const want = oracle(scopes, abs);
        const got = index.owner(abs);
        expect(got === null ? null : { scope: scopes.indexOf(got.scope), dir: got.dir }).toEqual(want === null ? null : { scope: scopes.indexOf(want.scope), dir: want.dir });
      }
    }),
    { numRuns: 300, seed: 9 },
  );
});

test('negative control: without real paths the answers differ on the symlinked layout', () => {
  const realPaths = new RealPaths();
  const [named, other] = makeScopes([{ names: ['.htaccess'], dirs: ['srv/blink'] }, { names: ['.htaccess'], dirs: ['srv/www'] }], realPaths);
  const index = new AccessFileIndex([named, other]);
  // the scan meets srv/www/b/.htaccess under its real path; the first server names it by the symlink
  const abs = path.join(tmp, 'srv/www/b/.htaccess');
  expect(index.owner(abs)?.scope).toBe(named);
  expect(oracle([named, other], abs, false)?.scope).toBe(other);
});
