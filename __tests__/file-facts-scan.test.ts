/**
 * Discovery reads each file's few facts (Include, ServerRoot, AccessFileName, DocumentRoot,
 * Alias, ScriptAlias, <Directory>) with a line scan instead of a tree: FileFacts.scan(text) must
 * find exactly what FileFacts.of(parse(text)) finds, on the corpus, the fixtures, and random text
 * full of the cases where a line's kind is decided (continuations, quotes, tags without `>`,
 * stray closers, CRLF, a BOM). Negative control: a scan that ignores continuations is told apart.
 */
import fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from '../src/cst';
import { FACT_NAMES, FileFacts } from '../src/server/file-facts';
import { CORPUS_DIR } from './support/corpus';

function facts(f: FileFacts): unknown {
  return FACT_NAMES.map((n) => [n, f.get(n)]);
}

function texts(dir: string, skip: RegExp): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !skip.test(e.name))
    .map((e) => fs.readFileSync(path.join(e.parentPath ?? e.path, e.name), 'latin1'));
}

const piece = fc.constantFrom(
  'Include conf/x.conf', 'include "a b"', 'IncludeOptional  sites/*', 'ServerRoot /etc/apache2', 'AccessFileName .acl', 'DocumentRoot "/srv/x"',
  'Alias /a /b', 'ScriptAlias /c/ /d/', 'Inc\\\nlude cont.conf', '<Directory /x>', '<directory "/y z">', '<Directory /no-gt', '<\\\nDirectory /cont>',
  '</Directory>', '<IfModule x>', '</IfModule>', '"Include" quoted', '# Include commented', '  ', '\\\n', 'Options x', 'dOcUmEnTrOoT /q', '<"Directory" /q>',
  '\tAlias\t/x /y', 'ServerRoot', '<Directory>', 'Directory /not-a-tag', 'Include a \\\n b',
);
const eol = fc.constantFrom('\n', '\r\n', '\\\n');
const text = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(fc.constantFrom('', ' ', '\t'), piece, eol), { maxLength: 30 }))
  .map(([bom, lines]) => (bom ? '\xEF\xBB\xBF' : '') + lines.map(([i, p, e]) => i + p + e).join(''));

describe('FileFacts.scan finds what FileFacts.of(parse()) finds', () => {
  test('corpus and fixtures', () => {
    const all = [...texts(CORPUS_DIR, /\.(tsv|md)$/), ...texts(path.join(__dirname, 'fixtures'), /\.json$/)];
    expect(all.length).toBeGreaterThan(300);
    let found = 0;
    for (const t of all) {
      const scanned = FileFacts.scan(t);
      expect(facts(scanned)).toEqual(facts(FileFacts.of(parse(t))));
      found += FACT_NAMES.reduce((n, name) => n + scanned.get(name).length, 0);
    }
    expect(found).toBeGreaterThan(100);
  });

  test('random lines', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(facts(FileFacts.scan(t))).toEqual(facts(FileFacts.of(parse(t))));
      }),
      { numRuns: 3000 },
    );
  });

  test('negative control: a scan that does not join continued lines is told apart', () => {
    const naive = (t: string) => {
      const out: [number, string][] = [];
      t.split('\n').forEach((l, i) => {
        if (/^\s*include\s/i.test(l)) out.push([i + 1, l.trim().split(/\s+/)[1]]);
      });
      return out;
    };
    const samples = fc.sample(text, { numRuns: 300, seed: 7 });
    const apart = samples.filter((t) => JSON.stringify(naive(t)) !== JSON.stringify(FileFacts.scan(t).get('include').map((f) => [f.line, f.values[0]])));
    expect(apart.length).toBeGreaterThan(10);
  });
});

/**
 * Facts outlive their file's text (planning a fleet keeps them until the plan is done): their
 * words must be copies, not views into the text. Heap held by the facts of 200 texts of 100 kB,
 * each with a DocumentRoot, Alias and <Directory> path long enough to be a view, measured in a fresh
 * `node --expose-gc` process on the built module; negative control: the same words kept as read.
 */
test('facts do not hold their texts', () => {
  const { execFileSync } = require('child_process') as typeof import('child_process');
  const built = path.join(__dirname, '..', 'dist', 'src', 'server', 'file-facts.js');
  const script = `
    const { FileFacts } = require(${JSON.stringify(built)});
    function held(keep) {
      const kept = [];
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 200; i++) {
        const text = '#' + 'x'.repeat(100000) + '\\nDocumentRoot "/srv/www/site' + i + '.example.com/htdocs"\\nAlias /static/ /srv/www/static' + i + '/\\n<Directory /srv/www/site' + i + '.example.com>\\n</Directory>\\n';
        kept.push(keep(text));
      }
      gc();
      return process.memoryUsage().heapUsed - before;
    }
    const facts = held((text) => FileFacts.scan(text));
    // the negative control: the words as a line's slice gives them, views into the text
    const views = held((text) => { const at = text.indexOf('/srv/www/site'); return [text.slice(at, at + 30)]; });
    process.stdout.write(JSON.stringify({ facts, views }));
  `;
  const { facts, views } = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' })) as { facts: number; views: number };
  expect(views).toBeGreaterThan(15_000_000);
  expect(facts).toBeLessThan(3_000_000);
});
