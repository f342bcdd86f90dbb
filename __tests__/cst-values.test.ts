/**
 * A line's values are scanned without making its words (scanValues) unless the words were asked
 * for first: both ways must give the same values, on every line of the corpus and fixtures and on
 * random lines full of quotes, escapes, continuations and tags. Negative control: a scan that drops
 * the unescaping of `\\` is told apart.
 */
import fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { ConfigFile, Node, parse, walk } from '../src/cst';
import { scanValues, scanWords } from '../src/cst/tokens';
import { CORPUS_DIR } from './support/corpus';

/** Every directive's and section tag's values, read through `read` on a fresh parse. */
function valuesOf(text: string, read: (n: Extract<Node, { kind: 'directive' | 'section' }>) => readonly string[]): string[][] {
  const tree: ConfigFile = parse(text);
  return walk(tree)
    .filter((n): n is Extract<Node, { kind: 'directive' | 'section' }> => n.kind === 'directive' || n.kind === 'section')
    .map((n) => [...read(n)]);
}

const direct = (n: Extract<Node, { kind: 'directive' | 'section' }>) => n.values;
const throughWords = (n: Extract<Node, { kind: 'directive' | 'section' }>) => {
  const words = n.kind === 'section' ? n.open.args : n.args;
  return words.map((w) => w.value);
};

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => fs.readFileSync(path.join(e.parentPath ?? e.path, e.name), 'latin1'));
}

test('corpus and fixtures: values scanned directly equal the words\' values', () => {
  const texts = [...files(CORPUS_DIR), ...files(path.join(__dirname, 'fixtures'))];
  expect(texts.length).toBeGreaterThan(100);
  let lines = 0;
  for (const text of texts) {
    const a = valuesOf(text, direct);
    lines += a.length;
    expect(a).toEqual(valuesOf(text, throughWords));
  }
  expect(lines).toBeGreaterThan(5000);
});

const piece = fc.constantFrom('a', 'b c', '"', "'", '\\', '\\\\', '\\"', "\\'", '\\\n', '\\\r\n', ' ', '\t', '>', '<', '#', 'x"y', '"q r"', "'s t'", '""', '\r\n', '\n');

test('random lines: values scanned directly equal the words\' values', () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 14 }), fc.constantFrom('Name ', '<Dir ', '  Name\t'), (parts, head) => {
      const text = head + parts.join('') + (head.startsWith('<') ? '>\n</Dir>\n' : '\n');
      expect(valuesOf(text, direct)).toEqual(valuesOf(text, throughWords));
      const body = parts.join('');
      expect(scanValues(body, 0, body.length)).toEqual(scanWords(body, 0, body.length).map((w) => w.value));
    }),
    { numRuns: 3000, seed: 11 },
  );
});

test('negative control: a scan that keeps \\\\ as it is differs from the words', () => {
  const body = 'a\\\\b "c\\\\d"';
  const careless = body.split(' ').map((w) => w.replace(/^"|"$/g, ''));
  expect(careless).not.toEqual(scanWords(body, 0, body.length).map((w) => w.value));
  expect(scanValues(body, 0, body.length)).toEqual(scanWords(body, 0, body.length).map((w) => w.value));
});
