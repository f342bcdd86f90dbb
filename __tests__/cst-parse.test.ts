/** Exact structure the parser builds, line by line, as httpd 2.4 reads the text. */
import {
  Comment,
  ConfigFile,
  ancestors,
  fileOf,
  indexInParent,
  Directive,
  Node,
  Opaque,
  Section,
  directives,
  parse,
  quoteArg,
  sections,
  walk,
} from '../src/cst';

/** A compact, exact picture of a tree: one entry per node. */
type Shape =
  | { blank: number }
  | { comment: number; text: string }
  | { opaque: number; reason: string }
  | { directive: string; line: number; values: readonly string[] }
  | { section: string; line: number; values: readonly string[]; close: string | null; body: Shape[] };

function shape(nodes: readonly Node[]): Shape[] {
  return nodes.map((n): Shape => {
    switch (n.kind) {
      case 'blank':
        return { blank: n.line };
      case 'comment':
        return { comment: n.line, text: n.text };
      case 'opaque':
        return { opaque: n.line, reason: n.reason };
      case 'directive':
        return { directive: n.name, line: n.line, values: n.values };
      case 'section':
        return { section: n.name, line: n.line, values: n.values, close: n.close ? n.close.raw : null, body: shape(n.body) };
    }
  });
}

function only<T extends Node>(file: ConfigFile, kind: T['kind']): T {
  expect(file.body).toHaveLength(1);
  expect(file.body[0].kind).toBe(kind);
  return file.body[0] as T;
}

function directive(text: string): Directive {
  const file = parse(text);
  expect(file.diagnostics).toEqual([]);
  return only<Directive>(file, 'directive');
}

describe('lines', () => {
  test('empty file has an empty body and no diagnostics', () => {
    const file = parse('');
    expect(file.body).toEqual([]);
    expect(file.diagnostics).toEqual([]);
    expect(file.bom).toBe('');
    expect(file.print()).toBe('');
  });

  test('a file with only a BOM has an empty body', () => {
    const file = parse('\xEF\xBB\xBF');
    expect(file.body).toEqual([]);
    expect(file.bom).toBe('\xEF\xBB\xBF');
    expect(file.print()).toBe('\xEF\xBB\xBF');
  });

  test('blank lines, with spaces, tabs and CR', () => {
    const file = parse('\n  \n\t\r\n \x0B\x0C\n');
    expect(shape(file.body)).toEqual([{ blank: 1 }, { blank: 2 }, { blank: 3 }, { blank: 4 }]);
    expect(file.body.map((n) => (n.kind === 'section' ? '' : n.raw))).toEqual(['\n', '  \n', '\t\r\n', ' \x0B\x0C\n']);
  });

  test('a line of white space without a final newline is a blank', () => {
    expect(shape(parse('A\n   ').body)).toEqual([{ directive: 'A', line: 1, values: [] }, { blank: 2 }]);
  });

  test('each node keeps its own raw text, line ending included', () => {
    const file = parse('  Options  Indexes \t\r\n# c\nServerName x');
    expect(file.body.map((n) => (n.kind === 'section' ? '' : n.raw))).toEqual([
      '  Options  Indexes \t\r\n',
      '# c\n',
      'ServerName x',
    ]);
  });

  test('CRLF and LF line ends are reported per line by lineEnd', () => {
    const file = parse('A 1\r\nB 2\nC 3\r\n# c\r\n\r\nD');
    const ends = file.body.map((n) => (n.kind === 'section' ? '?' : n.lineEnd));
    expect(ends).toEqual(['\r\n', '\n', '\r\n', '\r\n', '\r\n', '']);
  });

  test('section open and close report their own line ends', () => {
    const file = parse('<Directory /x>\r\nA\n</Directory>');
    const s = only<Section>(file, 'section');
    expect(s.open.lineEnd).toBe('\r\n');
    expect(s.close?.lineEnd).toBe('');
    expect((s.body[0] as Directive).lineEnd).toBe('\n');
  });

  test('a lone CR is not a line break', () => {
    const file = parse('A 1\rB 2\n');
    const d = only<Directive>(file, 'directive');
    expect(d.name).toBe('A');
    expect(d.values).toEqual(['1', 'B', '2']);
  });
});

describe('comments', () => {
  test('# at line start, after spaces or tabs, is a comment', () => {
    const file = parse('# one\n   # two\n\t#three\n#\n');
    expect(shape(file.body)).toEqual([
      { comment: 1, text: ' one' },
      { comment: 2, text: ' two' },
      { comment: 3, text: 'three' },
      { comment: 4, text: '' },
    ]);
  });

  test('an inline # is an argument, not a comment', () => {
    const d = directive('Options Indexes #foo\n');
    expect(d.name).toBe('Options');
    expect(d.values).toEqual(['Indexes', '#foo']);
    expect(d.args.map((w) => w.raw)).toEqual(['Indexes', '#foo']);
  });

  test('# after white space inside a line is still an argument', () => {
    expect(directive('Allow from all # trailing words\n').values).toEqual(['from', 'all', '#', 'trailing', 'words']);
  });

  test('a comment ending in \\ swallows the next line (httpd joins lines before looking for #)', () => {
    const file = parse('# note \\\nServerName x\nListen 80\n');
    expect(shape(file.body)).toEqual([
      { comment: 1, text: ' note \\\nServerName x' },
      { directive: 'Listen', line: 3, values: ['80'] },
    ]);
    expect((file.body[0] as Comment).raw).toBe('# note \\\nServerName x\n');
  });

  test('a comment ending in \\ + CRLF swallows the next line too', () => {
    const file = parse('#a\\\r\nB\r\nC\r\n');
    expect(shape(file.body)).toEqual([
      { comment: 1, text: 'a\\\r\nB' },
      { directive: 'C', line: 3, values: [] },
    ]);
  });

  test('a continuation before # still makes a comment', () => {
    const file = parse('\\\n  # hidden\nA\n');
    expect(shape(file.body)).toEqual([
      { comment: 1, text: ' hidden' },
      { directive: 'A', line: 3, values: [] },
    ]);
  });
});

describe('arguments', () => {
  test('double-quoted argument with escaped quotes', () => {
    const d = directive('Header set X "a \\"b\\" c"\n');
    expect(d.values).toEqual(['set', 'X', 'a "b" c']);
    expect(d.args[2].raw).toBe('"a \\"b\\" c"');
    expect(d.args[2].quote).toBe('"');
  });

  test('single-quoted argument', () => {
    const d = directive("SetEnvIf User-Agent 'Mozilla 4' old\n");
    expect(d.values).toEqual(['User-Agent', 'Mozilla 4', 'old']);
    expect(d.args[1].quote).toBe("'");
    expect(d.args[1].raw).toBe("'Mozilla 4'");
  });

  test('an escaped single quote inside single quotes', () => {
    expect(directive("Foo 'it\\'s'\n").values).toEqual(["it's"]);
  });

  test('a double quote inside single quotes is plain text', () => {
    expect(directive('Foo \'a "b" c\'\n').values).toEqual(['a "b" c']);
  });

  test('"foo"bar is two arguments', () => {
    const d = directive('Foo "foo"bar\n');
    expect(d.values).toEqual(['foo', 'bar']);
    expect(d.args.map((w) => w.raw)).toEqual(['"foo"', 'bar']);
  });

  test('a quote inside a bare word does not start a quoted word', () => {
    expect(directive('Foo a"b c"d\n').values).toEqual(['a"b', 'c"d']);
  });

  test('empty quotes are an empty argument', () => {
    expect(directive('Foo "" x\n').values).toEqual(['', 'x']);
  });

  test('an unclosed quote runs to the end of the line', () => {
    const d = directive('Foo "a b\n');
    expect(d.values).toEqual(['a b']);
    expect(d.args[0].raw).toBe('"a b');
  });

  // httpd 2.4's ap_getword_conf/substring_conf (checked with httpd 2.4.71 and `Define`):
  // \\ is an escape everywhere, \" only inside double quotes.
  test('\\\\ inside quotes is an escaped backslash, so "foo\\\\" closes', () => {
    const d = directive('Define D "foo\\\\" next\n');
    expect(d.values).toEqual(['D', 'foo\\', 'next']);
    expect(d.args[1].raw).toBe('"foo\\\\"');
  });

  test('\\\\ inside quotes and in a bare word stands for one backslash', () => {
    expect(directive('Define Q "a\\\\b" a\\\\b\n').values).toEqual(['Q', 'a\\b', 'a\\b']);
  });

  test('a lone backslash in a bare word is kept', () => {
    expect(directive('RewriteRule ^/a\\.php$ /b\n').values).toEqual(['^/a\\.php$', '/b']);
  });

  test('\\" in a bare word is not an escape', () => {
    expect(directive('Foo a\\"b\n').values).toEqual(['a\\"b']);
  });

  test('a continuation inside an argument joins it', () => {
    const d = directive('Foo ba\\\nr\n');
    expect(d.values).toEqual(['bar']);
    expect(d.args[0].raw).toBe('ba\\\nr');
  });

  test('a continuation (CRLF) inside a quoted argument joins it', () => {
    const d = directive('Foo "a \\\r\nb"\r\n');
    expect(d.values).toEqual(['a b']);
    expect(d.lineEnd).toBe('\r\n');
  });

  test('a continuation between arguments separates them and is not part of either', () => {
    const d = directive('BrowserMatch "MSIE [2-6]" \\\n\t\tnokeepalive \\\n\t\tforce-response-1.0\n');
    expect(d.values).toEqual(['MSIE [2-6]', 'nokeepalive', 'force-response-1.0']);
    expect(d.args.map((w) => w.raw)).toEqual(['"MSIE [2-6]"', 'nokeepalive', 'force-response-1.0']);
  });

  test('a continuation right after a bare word ends the word when white space follows', () => {
    const d = directive('Foo a\\\n  b\n');
    expect(d.args.map((w) => w.raw)).toEqual(['a', 'b']);
  });

  test('a continuation inside the name joins it', () => {
    const d = directive('Max\\\nClients 150\n');
    expect(d.name).toBe('MaxClients');
    expect(d.is('maxclients')).toBe(true);
    expect(d.values).toEqual(['150']);
  });

  test('trailing white space is not an argument', () => {
    expect(directive('Foo a \t \r\n').values).toEqual(['a']);
  });

  test('a directive without arguments', () => {
    expect(directive('ExtendedStatus\n').values).toEqual([]);
  });

  test('a continuation at the very end of the file ends the line there', () => {
    const d = directive('Foo bar\\\n');
    expect(d.values).toEqual(['bar']);
    expect(d.lineEnd).toBe('');
  });

  test('after a line ending in \\\\, an empty line continues it too (httpd 2.4.71)', () => {
    // httpd removes one \ and then finds the other at the end of its buffer
    const file = parse('Define A x\\\\\n\nDefine B y\nC\n');
    expect(file.body.map((n) => n.kind)).toEqual(['directive', 'directive']);
    expect((file.body[0] as Directive).raw).toBe('Define A x\\\\\n\nDefine B y\n');
    expect(shape([file.body[1]])).toEqual([{ directive: 'C', line: 4, values: [] }]);
  });

  test('quoteArg quotes only when needed, and its output reads back as the value', () => {
    const cases: Array<[string, string]> = [
      ['plain', 'plain'],
      ['#foo', '#foo'],
      ['a\\b', 'a\\b'],
      ['with space', '"with space"'],
      ['', '""'],
      ['say "hi"', '"say \\"hi\\""'],
      ["it's", '"it\'s"'],
      ['C:\\', '"C:\\\\"'],
      ['a\\\\b', '"a\\\\\\b"'],
      ['a\\"b', '"a\\\\\\"b"'],
    ];
    for (const [value, spelled] of cases) {
      expect(quoteArg(value)).toBe(spelled);
      expect(directive(`Foo ${quoteArg(value)} end\n`).values).toEqual([value, 'end']);
    }
  });
});

describe('sections', () => {
  test('a section with its body and close', () => {
    const file = parse('<Directory /var/www>\n    Options Indexes\n</Directory>\n');
    expect(file.diagnostics).toEqual([]);
    expect(shape(file.body)).toEqual([
      {
        section: 'Directory',
        line: 1,
        values: ['/var/www'],
        close: '</Directory>\n',
        body: [{ directive: 'Options', line: 2, values: ['Indexes'] }],
      },
    ]);
    const s = file.body[0] as Section;
    expect(s.open.raw).toBe('<Directory /var/www>\n');
    expect(s.close?.name).toBe('Directory');
    expect(s.body[0].parent).toBe(s);
    expect(s.parent).toBe(file);
  });

  test('names in any case; a closer in another case matches', () => {
    const file = parse('<directory /x>\nA\n</DIRECTORY>\n<IfModule mod_x.c>\n</ifmodule>\n');
    expect(file.diagnostics).toEqual([]);
    expect(shape(file.body)).toEqual([
      { section: 'directory', line: 1, values: ['/x'], close: '</DIRECTORY>\n', body: [{ directive: 'A', line: 2, values: [] }] },
      { section: 'IfModule', line: 4, values: ['mod_x.c'], close: '</ifmodule>\n', body: [] },
    ]);
    expect((file.body[0] as Section).is('Directory')).toBe(true);
    expect((file.body[0] as Section).is('Location', 'DirectoryMatch')).toBe(false);
  });

  test('<Directory ~ "^/x"> has two arguments', () => {
    const s = only<Section>(parse('<Directory ~ "^/x">\n</Directory>\n'), 'section');
    expect(s.values).toEqual(['~', '^/x']);
    expect(s.args.map((w) => w.raw)).toEqual(['~', '"^/x"']);
  });

  test('<IfModule !mod_x.c>', () => {
    const s = only<Section>(parse('<IfModule !mod_x.c>\n</IfModule>\n'), 'section');
    expect(s.name).toBe('IfModule');
    expect(s.values).toEqual(['!mod_x.c']);
  });

  test('a tag without arguments', () => {
    const s = only<Section>(parse('<Directory>\n</Directory>\n'), 'section');
    expect(s.name).toBe('Directory');
    expect(s.values).toEqual([]);
  });

  test('a > inside a quoted tag argument; the last > closes the tag', () => {
    const s = only<Section>(parse('<If "%{REQUEST_URI} =~ m#>#">\n</If>\n'), 'section');
    expect(s.values).toEqual(['%{REQUEST_URI} =~ m#>#']);
  });

  test('indented tags, spaces in the tag, continuation inside the tag and the closer', () => {
    const file = parse('  <Direc\\\ntory /a \\\r\n /b >\n  </Direc\\\ntory>\n');
    expect(file.diagnostics).toEqual([]);
    const s = only<Section>(file, 'section');
    expect(s.name).toBe('Directory');
    expect(s.values).toEqual(['/a', '/b']);
    expect(s.indent).toBe('  ');
    expect(s.close?.raw).toBe('  </Direc\\\ntory>\n');
    expect(s.close?.name).toBe('Directory');
  });

  test('nested sections, with queries', () => {
    const file = parse(
      '<VirtualHost *:80>\n  <Directory /x>\n    Order allow,deny\n  </Directory>\n  <Location />\n  </Location>\n</VirtualHost>\nOrder deny,allow\n',
    );
    expect(file.diagnostics).toEqual([]);
    expect(shape(file.body)).toEqual([
      {
        section: 'VirtualHost',
        line: 1,
        values: ['*:80'],
        close: '</VirtualHost>\n',
        body: [
          {
            section: 'Directory',
            line: 2,
            values: ['/x'],
            close: '  </Directory>\n',
            body: [{ directive: 'Order', line: 3, values: ['allow,deny'] }],
          },
          { section: 'Location', line: 5, values: ['/'], close: '  </Location>\n', body: [] },
        ],
      },
      { directive: 'Order', line: 8, values: ['deny,allow'] },
    ]);
    expect([...directives(file, 'order')].map((d) => d.line)).toEqual([3, 8]);
    expect([...sections(file)].map((s) => s.name)).toEqual(['VirtualHost', 'Directory', 'Location']);
    expect([...walk(file)].length).toBe(5);
  });

  test('unclosed section: diagnostic with its line, close === null, body runs to the end', () => {
    const file = parse('A\n<Directory /x>\nB\n<Location />\n</Location>\nC\n');
    expect(file.diagnostics).toEqual([{ line: 2, message: '<Directory> is never closed' }]);
    expect(shape(file.body)).toEqual([
      { directive: 'A', line: 1, values: [] },
      {
        section: 'Directory',
        line: 2,
        values: ['/x'],
        close: null,
        body: [
          { directive: 'B', line: 3, values: [] },
          { section: 'Location', line: 4, values: ['/'], close: '</Location>\n', body: [] },
          { directive: 'C', line: 6, values: [] },
        ],
      },
    ]);
  });

  test('two unclosed sections: one diagnostic each, innermost first', () => {
    const file = parse('<A>\n<B>\n');
    expect(file.diagnostics).toEqual([
      { line: 2, message: '<B> is never closed' },
      { line: 1, message: '<A> is never closed' },
    ]);
    expect(file.print()).toBe('<A>\n<B>\n');
  });

  test('stray closer: Opaque line + diagnostic, surroundings unaffected', () => {
    const file = parse('A\n</Directory>\nB\n');
    expect(file.diagnostics).toEqual([{ line: 2, message: '</Directory> without matching <Directory>' }]);
    expect(shape(file.body)).toEqual([
      { directive: 'A', line: 1, values: [] },
      { opaque: 2, reason: 'unmatched section close' },
      { directive: 'B', line: 3, values: [] },
    ]);
    expect((file.body[1] as Opaque).raw).toBe('</Directory>\n');
  });

  test('mismatched closer </Location> inside <Directory>: diagnostic, Opaque, Directory still closes', () => {
    const file = parse('<Directory /x>\nA\n</Location>\nB\n</Directory>\n');
    expect(file.diagnostics).toEqual([{ line: 3, message: '</Location> without matching <Location>' }]);
    expect(shape(file.body)).toEqual([
      {
        section: 'Directory',
        line: 1,
        values: ['/x'],
        close: '</Directory>\n',
        body: [
          { directive: 'A', line: 2, values: [] },
          { opaque: 3, reason: 'unmatched section close' },
          { directive: 'B', line: 4, values: [] },
        ],
      },
    ]);
  });

  test('closer of an outer section closes the unclosed inner one with a diagnostic', () => {
    const file = parse('<VirtualHost *>\n<Directory /x>\nA\n</VirtualHost>\nB\n');
    // the wording is not pinned; it names both sections and where the inner one opened
    expect(file.diagnostics).toEqual([{ line: 4, message: expect.stringMatching(/Directory/) }]);
    expect(file.diagnostics[0].message).toMatch(/<\/VirtualHost>/);
    expect(file.diagnostics[0].message).toMatch(/line 2\b/);
    expect(shape(file.body)).toEqual([
      {
        section: 'VirtualHost',
        line: 1,
        values: ['*'],
        close: '</VirtualHost>\n',
        body: [{ section: 'Directory', line: 2, values: ['/x'], close: null, body: [{ directive: 'A', line: 3, values: [] }] }],
      },
      { directive: 'B', line: 5, values: [] },
    ]);
  });

  test('<Directory /x> without > is Opaque + diagnostic, and opens nothing', () => {
    const file = parse('<Directory /x\nA\n</Directory>\n');
    expect(file.diagnostics).toEqual([
      { line: 1, message: "<Directory> directive missing closing '>'" },
      { line: 3, message: '</Directory> without matching <Directory>' },
    ]);
    expect(shape(file.body)).toEqual([
      { opaque: 1, reason: 'section tag without >' },
      { directive: 'A', line: 2, values: [] },
      { opaque: 3, reason: 'unmatched section close' },
    ]);
  });

  test('<> and "< Directory>" are Opaque', () => {
    const file = parse('<>\n< Directory /x>\n');
    expect(file.body.map((n) => n.kind)).toEqual(['opaque', 'opaque']);
    expect(file.diagnostics.map((d) => d.line)).toEqual([1, 2]);
  });

  // httpd 2.4.71 reads the whole first word as the tag and refuses the line:
  // "Expected </Directory> but saw </Directory></VirtualHost>". The parser says the
  // same (a diagnostic, so the file is left alone), closes only <Directory>, and the
  // outer section stays open, swallowing what follows.
  test('two closers on one line: an error as in httpd; only </Directory> closes, <VirtualHost> ends up unclosed', () => {
    const file = parse('<VirtualHost *>\n<Directory /x>\nA\n</Directory></VirtualHost>\nB\n');
    expect(file.diagnostics).toEqual([
      { line: 4, message: 'expected </Directory> but saw </Directory></VirtualHost>' },
      { line: 1, message: '<VirtualHost> is never closed' },
    ]);
    expect(shape(file.body)).toEqual([
      {
        section: 'VirtualHost',
        line: 1,
        values: ['*'],
        close: null,
        body: [
          {
            section: 'Directory',
            line: 2,
            values: ['/x'],
            close: '</Directory></VirtualHost>\n',
            body: [{ directive: 'A', line: 3, values: [] }],
          },
          { directive: 'B', line: 5, values: [] },
        ],
      },
    ]);
  });
});

describe('line numbers', () => {
  test('1-based; continuations count as physical lines', () => {
    const file = parse('A \\\n  b \\\r\n  c\nB\n# x \\\ny\nC\n');
    expect(shape(file.body)).toEqual([
      { directive: 'A', line: 1, values: ['b', 'c'] },
      { directive: 'B', line: 4, values: [] },
      { comment: 5, text: ' x \\\ny' },
      { directive: 'C', line: 7, values: [] },
    ]);
  });

  test('a BOM does not shift line numbers and is not part of the first line', () => {
    const file = parse('\xEF\xBB\xBFServerName x\nListen 80\n');
    expect(file.bom).toBe('\xEF\xBB\xBF');
    expect(shape(file.body)).toEqual([
      { directive: 'ServerName', line: 1, values: ['x'] },
      { directive: 'Listen', line: 2, values: ['80'] },
    ]);
    expect((file.body[0] as Directive).raw).toBe('ServerName x\n');
  });

  test('a BOM in the middle of a file is plain text', () => {
    const file = parse('A\n\xEF\xBB\xBFB\n');
    expect(file.bom).toBe('');
    expect((file.body[1] as Directive).name).toBe('\xEF\xBB\xBFB');
  });

  test('diagnostics use physical line numbers after continuations', () => {
    const file = parse('A \\\n\\\n b\n</Location>\n');
    expect(file.diagnostics).toEqual([{ line: 4, message: '</Location> without matching <Location>' }]);
  });

  test('synthetic parse gives line 0 everywhere', () => {
    const file = parse('<A>\nB\n</A>\n', { synthetic: true });
    const s = file.body[0] as Section;
    expect([s.line, s.body[0].line, s.close?.line]).toEqual([0, 0, 0]);
  });
});

describe('queries', () => {
  const file = parse('<VirtualHost *>\n  <Directory /x>\n    Order allow,deny\n  </Directory>\n  ORDER deny,allow\n</VirtualHost>\nAllow from all\n');

  test('directives by name, case-insensitive, any depth, in file order; all without names', () => {
    expect([...directives(file, 'order')].map((d) => d.values[0])).toEqual(['allow,deny', 'deny,allow']);
    expect([...directives(file, 'Allow', 'ORDER')].map((d) => d.line)).toEqual([3, 5, 7]);
    expect([...directives(file)].map((d) => d.name)).toEqual(['Order', 'ORDER', 'Allow']);
    expect([...directives(file, 'Deny')]).toEqual([]);
  });

  test('sections by name', () => {
    expect([...sections(file, 'directory')].map((s) => s.line)).toEqual([2]);
    expect([...sections(file)].map((s) => s.name)).toEqual(['VirtualHost', 'Directory']);
  });

  test('ancestors innermost first, fileOf, indexInParent', () => {
    const order = [...directives(file, 'Order')][0];
    expect(ancestors(order).map((s) => s.name)).toEqual(['Directory', 'VirtualHost']);
    expect(fileOf(order)).toBe(file);
    expect(indexInParent(order)).toBe(0);
    const allow = [...directives(file, 'Allow')][0];
    expect(ancestors(allow)).toEqual([]);
    expect(indexInParent(allow)).toBe(1);
  });

  test('walk visits every node depth first', () => {
    expect([...walk(file)].map((n) => (n.kind === 'section' || n.kind === 'directive' ? n.name : n.kind))).toEqual([
      'VirtualHost',
      'Directory',
      'Order',
      'ORDER',
      'Allow',
    ]);
  });

  test('a detached node has no file and no index', () => {
    const lone = parse('A\n');
    const a = lone.body[0];
    lone.body.splice(0, 1);
    a.parent = null;
    expect(fileOf(a)).toBeNull();
    expect(() => indexInParent(a)).toThrow(/not attached/);
  });
});

describe('closing tags as httpd 2.4.71 reads them', () => {
  test.each([
    ['</Directory >', 'expected </Directory> but saw </Directory'],
    ['</Directory>junk', 'expected </Directory> but saw </Directory>junk'],
  ])('%s is an error', (closer, message) => {
    const file = parse(`<Directory /x>\n${closer}\n`);
    expect(file.diagnostics).toEqual([{ line: 2, message }]);
    expect(file.print()).toBe(`<Directory /x>\n${closer}\n`);
  });

  test('a second closer after white space is ignored by httpd, so the outer section stays open', () => {
    const file = parse('<VirtualHost *>\n<Directory /x>\n</Directory> </VirtualHost>\n');
    expect(file.diagnostics).toEqual([{ line: 1, message: '<VirtualHost> is never closed' }]);
  });

  test('trailing white space after the closer is fine', () => {
    expect(parse('<Directory /x>\n</DIRECTORY>  \t\r\n').diagnostics).toEqual([]);
  });
});
