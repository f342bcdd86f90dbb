/**
 * scanDirectory walks a tree with fast-glob, ignoring node_modules and .git by the directory's own
 * name (so fast-glob does not read them) instead of by patterns over everything below them. It must
 * leave out exactly what those patterns left out (node_modules and .git entries of any type at any
 * depth, stage directories of an interrupted --write) and keep what they kept (a stage-named file,
 * symlinks, fifos): the tree below is checked entry by entry, and against the old patterns.
 */
import fg from 'fast-glob';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { scanDirectory } from '../src/server/scan-directory';

let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scan-directory-')));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function file(rel: string, text = ''): void {
  const p = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
}

function symlink(target: string, rel: string): void {
  const p = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.symlinkSync(target, p);
}

function buildTree(): void {
  file('top.conf');
  file('a/.git/sub/f.conf');
  file('a/.git/g.conf');
  file('b/node_modules/x/h.conf');
  file('c/.codemod-stage-1/y/i.conf');
  file('c/.codemod-stage-1/j.conf');
  file('d/.git');
  file('d/node_modules');
  file('d/.codemod-stage-2');
  file('node_modules');
  file('.git');
  file('.codemod-stage-3/z/k.conf');
  file('x.git/m.conf');
  file('weird/[a]*.conf');
  file('weird/{b,c}.conf');
  file('weird/.node_modules');
  file('weird/node_modules2/n');
  file('f/Node_Modules/o');
  file('sites-enabled/site');
  file('notes.txt');
  file('old.conf~');
  symlink('../a', 'e/linkdir');
  symlink('nowhere', 'e/broken');
  symlink('../top.conf', 'e/linkfile.conf');
  symlink('../a', 'e/node_modules');
  symlink('../../top.conf', 'e/.git/l.conf');
  fs.mkdirSync(path.join(tmp, 'empty/deeper'), { recursive: true });
}

const rel = (list: readonly string[]) => list.map((p) => path.relative(tmp, p));

it('keeps and leaves out what the fast-glob walk did', () => {
  buildTree();
  const scan = scanDirectory(tmp);
  expect(rel(scan.configFiles)).toEqual(['e/linkfile.conf', 'sites-enabled/site', 'top.conf', 'weird/[a]*.conf', 'weird/{b,c}.conf', 'x.git/m.conf']);
  expect(rel(scan.otherFiles)).toEqual(['d/.codemod-stage-2', 'f/Node_Modules/o', 'notes.txt', 'weird/.node_modules', 'weird/node_modules2/n']);
  expect(scan.skipped.map((s) => [path.relative(tmp, s.path), s.reason])).toEqual([
    ['e/broken', 'broken symbolic link'],
    ['e/linkdir', 'symbolic link to a directory (not followed)'],
    ['old.conf~', 'editor backup'],
  ]);
});

it('sees the same entries as fast-glob with the patterns it used before', () => {
  buildTree();
  const globbed = fg
    .sync('**/*', {
      cwd: tmp,
      dot: true,
      onlyFiles: false,
      followSymbolicLinks: false,
      objectMode: true,
      ignore: ['**/node_modules/**', '**/.git/**', '**/.codemod-stage-*/**'],
      suppressErrors: true,
    })
    .filter((e) => !e.dirent.isDirectory() && (e.dirent.isFile() || e.dirent.isSymbolicLink()))
    .map((e) => e.path)
    .sort();
  const scan = scanDirectory(tmp);
  const seen = [...scan.configFiles, ...scan.otherFiles, ...scan.skipped.map((s) => s.path)].map((p) => path.relative(tmp, p)).sort();
  expect(seen).toEqual(globbed);
  // the negative control: the walk did meet what it must leave out
  expect(fs.existsSync(path.join(tmp, 'b/node_modules/x/h.conf'))).toBe(true);
});

it('passes over a directory it cannot read', () => {
  file('ok.conf');
  expect(rel(scanDirectory(tmp).configFiles)).toEqual(['ok.conf']);
  expect(scanDirectory(path.join(tmp, 'missing'))).toEqual({ configFiles: [], otherFiles: [], skipped: [] });
});
