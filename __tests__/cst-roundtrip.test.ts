/**
 * The lossless invariant: print(parse(text)) === text, for every corpus file
 * and for generated text, and the parser never throws.
 */
import { CORPUS_DIR } from './support/corpus';
import { readFileSync } from 'fs';
import * as path from 'path';
import fg from 'fast-glob';
import fc from 'fast-check';
import { ConfigFile, Node, parse } from '../src/cst';

const CORPUS = CORPUS_DIR;
const FIXTURES = path.join(__dirname, 'fixtures', 'cst');

function listFiles(cwd: string): string[] {
  return fg.sync('**/*', { cwd, dot: true, onlyFiles: true }).sort();
}

const corpusFiles = listFiles(CORPUS);
const fixtureFiles = listFiles(FIXTURES);

/** Every line node in print order with the offset of its first byte. */
function lineOffsets(file: ConfigFile): Array<{ kind: string; line: number; offset: number; raw: string }> {
  const out: Array<{ kind: string; line: number; offset: number; raw: string }> = [];
  let offset = file.bom.length;
  const add = (kind: string, line: number, raw: string) => {
    out.push({ kind, line, offset, raw });
    offset += raw.length;
  };
  const visit = (nodes: readonly Node[]) => {
    for (const n of nodes) {
      if (n.kind === 'section') {
        add('open', n.open.line, n.open.raw);
        visit(n.body);
        if (n.close) add('close', n.close.line, n.close.raw);
      } else {
        add(n.kind, n.line, n.raw);
      }
    }
  };
  visit(file.body);
  return out;
}

/** 1-based physical line of an offset: newlines before it, plus one. */
function physicalLine(text: string, offset: number, bomLength: number): number {
  let n = 1;
  for (let i = bomLength; i < offset; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Checks the invariants every parse must keep; returns the file. */
function checkInvariants(text: string): ConfigFile {
  const file = parse(text);
  expect(file.print()).toBe(text);
  expect(file.printsAs(text)).toBe(true);
  // no empty line nodes, and each node's line number is the physical line of its first byte
  for (const { line, offset, raw } of lineOffsets(file)) {
    expect(raw.length).toBeGreaterThan(0);
    expect(line).toBe(physicalLine(text, offset, file.bom.length));
  }
  return file;
}

describe('corpus round trip', () => {
  test('the corpus is there', () => {
    expect(corpusFiles.length).toBeGreaterThanOrEqual(128);
  });

  test.each(corpusFiles)('%s prints back byte for byte', (rel) => {
    const bytes = readFileSync(path.join(CORPUS, rel));
    const text = bytes.toString('latin1');
    const file = parse(text);
    const printed = file.print();
    expect(printed).toBe(text);
    expect(Buffer.from(printed, 'latin1').equals(bytes)).toBe(true);
  });

  test.each(corpusFiles)('%s has no diagnostics', (rel) => {
    const file = parse(readFileSync(path.join(CORPUS, rel)).toString('latin1'));
    expect(file.diagnostics).toEqual([]);
  });

  test.each(corpusFiles)('%s: line numbers point at the physical lines', (rel) => {
    checkInvariants(readFileSync(path.join(CORPUS, rel)).toString('latin1'));
  });
});

describe('printsAs tells the printed text without printing it', () => {
  const text = '\xEF\xBB\xBF# c\r\n<Directory /x>\n  Allow from all\n</Directory>\nListen 80';
  test.each([
    ['the same text', text, true],
    ['one byte changed in a section body', text.replace('all', 'alL'), false],
    ['a byte more at the end', text + '\n', false],
    ['a byte less at the end', text.slice(0, -1), false],
    ['without the byte order mark', text.slice(3), false],
    ['empty', '', false],
  ])('%s', (_name, other, expected) => {
    const file = parse(text);
    expect(file.printsAs(other)).toBe(expected);
    expect(file.printsAs(other)).toBe(file.print() === other);
  });

  test('after an edit it answers for the edited tree', () => {
    const file = parse(text);
    const section = file.body.find((n) => n.kind === 'section');
    if (section?.kind !== 'section') throw new Error('no section');
    const line = section.body[0];
    if (line.kind !== 'directive') throw new Error('no directive');
    line.raw = '  Deny from all\n';
    expect(file.printsAs(text)).toBe(false);
    expect(file.printsAs(file.print())).toBe(true);
  });

  test('an unclosed section', () => {
    const open = '<Directory /x>\n  Allow from all\n';
    expect(parse(open).printsAs(open)).toBe(true);
    expect(parse(open).printsAs(open + '</Directory>\n')).toBe(false);
  });
});

describe('fixture round trip', () => {
  test('fixtures exist', () => {
    expect(fixtureFiles.length).toBeGreaterThan(0);
  });
  test.each(fixtureFiles)('fixtures/cst/%s prints back byte for byte', (rel) => {
    const bytes = readFileSync(path.join(FIXTURES, rel));
    const text = bytes.toString('latin1');
    checkInvariants(text);
  });
});

// ---------------------------------------------------------------------------
// generated text

const indent = fc.constantFrom('', '', ' ', '  ', '    ', '\t', '\t\t', ' \t', '\\\n', '  \\\r\n ');
const gap = fc.constantFrom(' ', ' ', '\t', '  ', ' \\\n', '\\\n ', ' \\\r\n\t', '\\\r\n', ' \\\n\\\n ');
const trailing = fc.constantFrom('', '', '', ' ', '\t', ' \t ', ' \\\n');
const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r\n', '\\\n', '\\\r\n', '\r\r\n');

const names = fc.constantFrom(
  'Options',
  'options',
  'Order',
  'Allow',
  'Deny',
  'Require',
  'MaxClients',
  'ServerName',
  'RewriteRule',
  'SetEnvIf',
  'Header',
  'Include',
  'Max\\\nClients',
  'Ord\\\r\ner',
);

const words = fc.constantFrom(
  'Indexes',
  '#foo',
  '#',
  'from',
  'all',
  'allow,deny',
  '10.0.0.0/8',
  '-FollowSymLinks',
  '^/x$',
  'a\\b',
  'x\\\\y',
  'C:\\\\',
  '"a \\"b\\" c"',
  '"quoted value"',
  "'single quoted'",
  "'it\\'s'",
  '"foo"bar',
  '"a\\\\"',
  '""',
  '"unclosed',
  "'also unclosed",
  'ba\\\nr',
  '"con\\\r\ntinued"',
  '<notatag>',
  '>',
  '\\',
);

const directiveLine = fc
  .tuple(indent, names, fc.array(fc.tuple(gap, words), { maxLength: 4 }), trailing)
  .map(([i, n, args, t]) => i + n + args.map(([g, w]) => g + w).join('') + t);

const commentLine = fc
  .tuple(indent, fc.constantFrom('#', '# ', '#\t', '##'), fc.constantFrom('', 'a comment', 'Order deny,allow', '<Directory />', 'ends in \\'))
  .map(([i, h, text]) => i + h + text);

const blankLine = fc.constantFrom('', ' ', '\t', '  \t', '\\');

const openLine = fc
  .tuple(
    indent,
    fc.constantFrom(
      '<Directory /x>',
      '<directory "/x y">',
      '<DIRECTORY ~ "^/x">',
      '<IfModule !mod_x.c>',
      '<IfModule mod_rewrite.c>',
      '<VirtualHost *:80>',
      '<Location />',
      '<Files ~ "\\.(gif|jpe?g)$">',
      '<Loc\\\nation /a>',
      '<Directory /a \\\r\n /b>',
      '<Limit GET POST>',
      '<Directory>',
      '<Directory /x',
      '<>',
      '< Directory /x>',
      '<If "%{HTTP_HOST} == \'x\'">',
    ),
    trailing,
  )
  .map(([i, tag, t]) => i + tag + t);

const closeLine = fc
  .tuple(
    indent,
    fc.constantFrom(
      '</Directory>',
      '</directory>',
      '</DIRECTORY>',
      '</IfModule>',
      '</VirtualHost>',
      '</Location>',
      '</Files>',
      '</Limit>',
      '</Directory></VirtualHost>',
      '</Location></Location>',
      '</Virtual\\\nHost>',
      '</Dir\\\r\nectory>',
      '</>',
      '</Directory',
      '</If>',
    ),
    trailing,
  )
  .map(([i, tag, t]) => i + tag + t);

const anyLine = fc.oneof(
  { arbitrary: directiveLine, weight: 5 },
  { arbitrary: commentLine, weight: 2 },
  { arbitrary: blankLine, weight: 1 },
  { arbitrary: openLine, weight: 2 },
  { arbitrary: closeLine, weight: 2 },
);

/** A file of realistic lines: any mix of endings, optional BOM, optional final newline. */
const configText = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.tuple(anyLine, eol), { maxLength: 30 }),
    fc.constantFrom('', '', 'keep', 'keep'),
  )
  .map(([bom, lines, last]) => {
    let text = (bom ? '\xEF\xBB\xBF' : '') + lines.map(([l, e]) => l + e).join('');
    if (last === '' && lines.length > 0) {
      // drop the final line ending (or final continuation)
      text = text.replace(/\\?\r*\n$/, '');
    }
    return text;
  });

/** Balanced sections, built recursively, so nesting gets deep too. */
const nestedText: fc.Arbitrary<string> = fc.letrec<{ block: string; section: string; line: string }>((tie) => ({
  // lines that do not continue into the next one (else they would swallow a tag)
  line: fc
    .tuple(
      fc.oneof(directiveLine, commentLine, blankLine).filter((l) => !l.endsWith('\\')),
      fc.constantFrom('\n', '\r\n'),
    )
    .map(([l, e]) => l + e),
  section: fc
    .tuple(
      fc.constantFrom('Directory', 'IfModule', 'VirtualHost', 'Location', 'Files'),
      fc.constantFrom('/x', '!mod_x.c', '*:80', '"/a b"'),
      tie('block'),
      fc.constantFrom('\n', '\r\n'),
      fc.constantFrom('\n', '\r\n'),
      fc.boolean(),
    )
    .map(([name, arg, body, e1, e2, upper]) => `<${name} ${arg}>${e1}${body}</${upper ? name.toUpperCase() : name}>${e2}`),
  block: fc
    .array(fc.oneof({ depthSize: 'small' }, tie('line'), tie('section')), { maxLength: 5 })
    .map((parts) => (parts as string[]).join('')),
})).block;

describe('property: print(parse(text)) === text', () => {
  test('random bytes (latin1)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const text = Buffer.from(bytes).toString('latin1');
        checkInvariants(text);
      }),
      { numRuns: 500 },
    );
  });

  test('random bytes drawn from the characters that matter', () => {
    const alphabet = fc.constantFrom(...'<>/\\"\'# \t\r\nabDIR');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 300 }), (chars) => {
        checkInvariants(chars.join(''));
      }),
      { numRuns: 1000 },
    );
  });

  test('mixes of realistic lines', () => {
    fc.assert(
      fc.property(configText, (text) => {
        checkInvariants(text);
      }),
      { numRuns: 1000 },
    );
  });

  test('balanced nested sections parse without diagnostics', () => {
    fc.assert(
      fc.property(nestedText, (text) => {
        const file = checkInvariants(text);
        expect(file.diagnostics).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  test('a BOM before any text is kept apart and round-trips', () => {
    fc.assert(
      fc.property(configText, (text) => {
        const withBom = '\xEF\xBB\xBF' + text.replace(/^\xEF\xBB\xBF/, '');
        const file = checkInvariants(withBom);
        expect(file.bom).toBe('\xEF\xBB\xBF');
      }),
      { numRuns: 300 },
    );
  });
});
