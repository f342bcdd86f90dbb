/**
 * Every transform, on every file of the real-world corpus, the way users run the tool: whole
 * directories discovered into servers (so main configs, includes, .htaccess and fragments each get
 * their role), then the full pipeline twice.
 * - no transform throws and no file is reported as an error;
 * - every file that is not changed prints back byte for byte;
 * - a second run over the migrated text changes nothing (idempotence across transforms, not just
 *   per transform as the fixtures check);
 * - nothing the first run wrote is unparseable (no diagnostics in any output).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from '../src/cst';
import { run } from '../src/run/runner';
import { discover } from '../src/server/discover';
import { TRANSFORMS } from '../transforms';
import { CORPUS_DIR } from './support/corpus';

jest.setTimeout(300000);

function copyTree(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true });
}

describe('the whole pipeline over the corpus', () => {
  let tmp = '';
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'codemod-corpus-'));
    copyTree(CORPUS_DIR, path.join(tmp, 'corpus'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('no errors, parseable output, and a second run changes nothing', () => {
    const root = path.join(tmp, 'corpus');
    // the server trees as directories (Include resolution, roles); every other file named explicitly,
    // since the flattened corpus names (`…__httpd.conf.in`) are not names a directory scan picks up
    const inputs = [
      ...fs.readdirSync(path.join(root, 'trees')).map((t) => path.join(root, 'trees', t)),
      ...fs
        .readdirSync(root, { withFileTypes: true })
        .filter((d) => d.isDirectory() && d.name !== 'trees')
        .flatMap((d) => fs.readdirSync(path.join(root, d.name)).map((f) => path.join(root, d.name, f))),
    ];
    const first = run(discover(inputs, { cwd: tmp }), TRANSFORMS);
    expect(first.errors.filter((e) => !/binary|not a config/i.test(e.message))).toEqual([]);
    expect(first.files.length).toBeGreaterThan(250);
    let changed = 0;
    for (const f of first.files) {
      if (f.status === 'unchanged') expect(f.output).toBe(f.file.original);
      if (f.status !== 'changed') continue;
      changed++;
      expect({ file: f.file.displayPath, diagnostics: parse(f.output).diagnostics }).toEqual({ file: f.file.displayPath, diagnostics: [] });
      fs.writeFileSync(f.file.realPath, Buffer.from(f.output, 'latin1'));
    }
    expect(changed).toBeGreaterThan(50);

    const second = run(discover(inputs, { cwd: tmp }), TRANSFORMS);
    expect(second.errors.filter((e) => !/binary|not a config/i.test(e.message))).toEqual([]);
    const again = second.files.filter((f) => f.status === 'changed').map((f) => f.file.displayPath);
    expect(again).toEqual([]);
  });
});
