/**
 * Edit helpers, checked byte for byte: every expectation is the whole printed
 * file as a string literal.
 */
import {
  ConfigFile,
  Directive,
  NewLine,
  Section,
  appendToFile,
  appendToSection,
  childIndent,
  directives,
  dominantLineEnd,
  indentUnit,
  insertAfter,
  insertBefore,
  parse,
  prependToFile,
  prependToSection,
  remove,
  replaceWith,
  sections,
} from '../src/cst';

function dir(file: ConfigFile, name: string, nth = 0): Directive {
  const found = [...directives(file, name)];
  if (!found[nth]) throw new Error(`no directive ${name} #${nth}`);
  return found[nth];
}

function sec(file: ConfigFile, name: string, nth = 0): Section {
  const found = [...sections(file, name)];
  if (!found[nth]) throw new Error(`no section ${name} #${nth}`);
  return found[nth];
}

/** Parses, checks the input is clean, applies `edit`, returns the printed result. */
function edit(text: string, change: (file: ConfigFile) => void): string {
  const file = parse(text);
  expect(file.print()).toBe(text);
  change(file);
  const out = file.print();
  // whatever an edit does, the result reads back as the same tree text
  expect(parse(out).print()).toBe(out);
  return out;
}

const requireAny: NewLine[] = ['<RequireAny>', { text: 'Require ip 10.0.0.1', depth: 1 }, '</RequireAny>'];

describe('rename', () => {
  test('keeps indentation, arguments, an inline #, and the line ending', () => {
    expect(edit('A 1\n  MaxClients 150  #x\t\nB 2\n', (f) => dir(f, 'MaxClients').rename('MaxRequestWorkers'))).toBe(
      'A 1\n  MaxRequestWorkers 150  #x\t\nB 2\n',
    );
  });

  test('arguments aligned in a column stay in that column while the gap allows', () => {
    const text = 'MaxClients          150\nStartServers        5\n';
    expect(edit(text, (f) => dir(f, 'MaxClients').rename('MaxRequestWorkers'))).toBe(
      'MaxRequestWorkers   150\nStartServers        5\n',
    );
    // a gap too narrow shrinks to one space, never to none
    expect(edit('MaxClients  150\n', (f) => dir(f, 'MaxClients').rename('MaxRequestWorkers'))).toBe('MaxRequestWorkers 150\n');
  });

  test('keeps a continuation in the arguments and CRLF', () => {
    expect(
      edit('A\r\n\tMaxClients \\\r\n\t\t150\r\nB\r\n', (f) => dir(f, 'maxclients').rename('MaxRequestWorkers')),
    ).toBe('A\r\n\tMaxRequestWorkers \\\r\n\t\t150\r\nB\r\n');
  });

  test('the new name is what name and is() report', () => {
    const file = parse('maxclients 5\n');
    const d = dir(file, 'MaxClients');
    d.rename('MaxRequestWorkers');
    expect(d.name).toBe('MaxRequestWorkers');
    expect(d.is('maxrequestworkers')).toBe(true);
    expect(d.values).toEqual(['5']);
    expect(file.print()).toBe('MaxRequestWorkers 5\n');
  });

  test('renaming twice', () => {
    expect(
      edit('X 1\n', (f) => {
        const d = dir(f, 'X');
        d.rename('LongerName');
        d.rename('Y');
      }),
    ).toBe('Y 1\n');
  });

  test('a last line without final newline stays without', () => {
    expect(edit('A\nMaxClients 1', (f) => dir(f, 'MaxClients').rename('MaxRequestWorkers'))).toBe(
      'A\nMaxRequestWorkers 1',
    );
  });
});

describe('editArgs and removeArgs', () => {
  test('leading words go with the blanks after them, later ones with the blanks before them', () => {
    // several leading words with wide blanks: offsets of later words must not be reused after an edit
    expect(edit('SSLProtocol SSLv2    +SSLv2 +TLSv1\n', (f) => {
      const d = dir(f, 'SSLProtocol');
      d.removeArgs(d.args.slice(0, 2));
    })).toBe('SSLProtocol +TLSv1\n');
    expect(edit('SSLProtocol  all   -SSLv2\t-SSLv3  \n', (f) => {
      const d = dir(f, 'SSLProtocol');
      d.removeArgs([d.args[1]]);
    })).toBe('SSLProtocol  all\t-SSLv3  \n');
  });

  test('replacements and drops keep continuations and line endings', () => {
    expect(edit('Options Indexes \\\r\n  +Includes -ExecCGI\r\n', (f) => dir(f, 'Options').editArgs([undefined, null, 'ExecCGI']))).toBe(
      'Options Indexes ExecCGI\r\n',
    );
    expect(edit('Options Indexes \\\r\n  +Includes -ExecCGI\r\n', (f) => dir(f, 'Options').editArgs(['None', undefined, undefined]))).toBe(
      'Options None \\\r\n  +Includes -ExecCGI\r\n',
    );
  });
});

describe('setArgs', () => {
  test('unchanged arguments keep their spelling; a new value with a space is quoted', () => {
    expect(
      edit("Header  set \"X-Foo\"  'old'\n", (f) => dir(f, 'Header').setArgs(['set', 'X-Foo', 'new value'])),
    ).toBe('Header  set "X-Foo" "new value"\n');
  });

  test('keeps single quotes of an unchanged argument', () => {
    expect(edit("SetEnvIf User-Agent 'Mozilla 4' old\n", (f) => dir(f, 'SetEnvIf').setArgs(['User-Agent', 'Mozilla 4', 'new']))).toBe(
      "SetEnvIf User-Agent 'Mozilla 4' new\n",
    );
  });

  test('quotes values with quotes, and a trailing backslash, the way httpd reads them back', () => {
    const out = edit('Foo a\n', (f) => dir(f, 'Foo').setArgs(['say "hi"', 'C:\\', 'x\\y']));
    expect(out).toBe('Foo "say \\"hi\\"" "C:\\\\" x\\y\n');
    expect(parse(out).body[0]).toHaveProperty('values', ['say "hi"', 'C:\\', 'x\\y']);
  });

  test('keeps the separator after the name (a tab) and CRLF', () => {
    expect(edit('Order\tallow,deny\r\nX\r\n', (f) => dir(f, 'Order').setArgs(['deny,allow']))).toBe('Order\tdeny,allow\r\nX\r\n');
  });

  test('a continuation between name and arguments becomes a space', () => {
    expect(edit('Header \\\n  set X\n', (f) => dir(f, 'Header').setArgs(['unset', 'X']))).toBe('Header unset X\n');
  });

  test('a continuation inside an unchanged argument is kept', () => {
    expect(edit('Foo ba\\\nr old\n', (f) => dir(f, 'Foo').setArgs(['bar', 'new']))).toBe('Foo ba\\\nr new\n');
  });

  test('no arguments, then some', () => {
    expect(edit('Options Indexes FollowSymLinks\n', (f) => dir(f, 'Options').setArgs([]))).toBe('Options\n');
    expect(edit('Options\n', (f) => dir(f, 'Options').setArgs(['None']))).toBe('Options None\n');
  });

  test('on a section tag, the > and what follows stay', () => {
    expect(edit('<Directory "/var/www">\n</Directory>\n', (f) => sec(f, 'Directory').open.setArgs(['/srv/my www']))).toBe(
      '<Directory "/srv/my www">\n</Directory>\n',
    );
    expect(edit('<IfModule mod_a.c>\r\n</IfModule>\r\n', (f) => sec(f, 'IfModule').open.setArgs(['!mod_b.c']))).toBe(
      '<IfModule !mod_b.c>\r\n</IfModule>\r\n',
    );
  });

  test('an unchanged bare word ending in \\ is quoted when it becomes last (else it would continue the line)', () => {
    expect(edit('Foo a\\ b\nNext\n', (f) => dir(f, 'Foo').setArgs(['a\\']))).toBe('Foo "a\\\\"\nNext\n');
  });

  test('an unchanged unclosed quote is closed when arguments follow it (else it would swallow them)', () => {
    expect(edit('Foo "abc\nNext\n', (f) => dir(f, 'Foo').setArgs(['abc', 'd']))).toBe('Foo abc d\nNext\n');
  });

  test('values read back after setArgs', () => {
    const file = parse('Allow from 10.0.0.1\n');
    const d = dir(file, 'Allow');
    d.setArgs(['from', '10.0.0.1', '192.168.0.0/16']);
    expect(d.values).toEqual(['from', '10.0.0.1', '192.168.0.0/16']);
    expect(file.print()).toBe('Allow from 10.0.0.1 192.168.0.0/16\n');
  });
});

describe('replaceWith', () => {
  test('one line by a nested section, at the replaced line’s indentation', () => {
    const text = '<Directory /x>\n    Order allow,deny\n    Allow from 10.0.0.1\n</Directory>\n';
    expect(edit(text, (f) => replaceWith(dir(f, 'Allow'), requireAny))).toBe(
      '<Directory /x>\n    Order allow,deny\n    <RequireAny>\n        Require ip 10.0.0.1\n    </RequireAny>\n</Directory>\n',
    );
  });

  test('the new nodes form a real section in the tree', () => {
    const file = parse('<Directory /x>\n  Allow from all\n</Directory>\n');
    const nodes = replaceWith(dir(file, 'Allow'), requireAny);
    expect(nodes).toHaveLength(1);
    const s = nodes[0] as Section;
    expect(s.kind).toBe('section');
    expect(s.name).toBe('RequireAny');
    expect(s.parent).toBe(sec(file, 'Directory'));
    expect((s.body[0] as Directive).values).toEqual(['ip', '10.0.0.1']);
    expect(s.body[0].parent).toBe(s);
    expect(s.line).toBe(0);
  });

  test('indentation comes from the replaced line, the unit from the file', () => {
    // the replaced line sits at 3 spaces; the file's unit is 2 spaces
    const text = '<A>\n  <B>\n    X\n  </B>\n   Allow from all\n</A>\n';
    expect(edit(text, (f) => replaceWith(dir(f, 'Allow'), requireAny))).toBe(
      '<A>\n  <B>\n    X\n  </B>\n   <RequireAny>\n     Require ip 10.0.0.1\n   </RequireAny>\n</A>\n',
    );
  });

  test('a tab-indented file gets tabs', () => {
    const text = '<VirtualHost *>\n\t<Directory /x>\n\t\tOrder allow,deny\n\t</Directory>\n</VirtualHost>\n';
    expect(edit(text, (f) => replaceWith(dir(f, 'Order'), requireAny))).toBe(
      '<VirtualHost *>\n\t<Directory /x>\n\t\t<RequireAny>\n\t\t\tRequire ip 10.0.0.1\n\t\t</RequireAny>\n\t</Directory>\n</VirtualHost>\n',
    );
  });

  test('a CRLF file gets CRLF', () => {
    const text = '<Directory /x>\r\n  Order allow,deny\r\n  Allow from all\r\n</Directory>\r\n';
    expect(edit(text, (f) => replaceWith(dir(f, 'Allow'), requireAny))).toBe(
      '<Directory /x>\r\n  Order allow,deny\r\n  <RequireAny>\r\n    Require ip 10.0.0.1\r\n  </RequireAny>\r\n</Directory>\r\n',
    );
  });

  test('the replaced line’s own ending wins over the dominant one', () => {
    expect(edit('A\nB\r\nC\n', (f) => replaceWith(dir(f, 'B'), ['X', 'Y']))).toBe('A\nX\r\nY\r\nC\n');
  });

  test('a replaced last line without final newline keeps "no final newline"', () => {
    expect(edit('A\r\n  B', (f) => replaceWith(dir(f, 'B'), requireAny))).toBe(
      'A\r\n  <RequireAny>\r\n      Require ip 10.0.0.1\r\n  </RequireAny>',
    );
  });

  test('replacing a whole section', () => {
    const text = 'A\n  <Limit GET>\n    Deny from all\n  </Limit>\nB\n';
    expect(edit(text, (f) => replaceWith(sec(f, 'Limit'), ['Require all denied']))).toBe('A\n  Require all denied\nB\n');
  });

  test('by nothing, which removes the line', () => {
    expect(edit('A\nB\nC\n', (f) => replaceWith(dir(f, 'B'), []))).toBe('A\nC\n');
  });

  test('by nothing, on the last line without final newline', () => {
    expect(edit('A\nB', (f) => replaceWith(dir(f, 'B'), []))).toBe('A');
  });

  test('text that does not parse is refused and the tree is left as it was', () => {
    const file = parse('A\nB');
    expect(() => replaceWith(dir(file, 'B'), ['<RequireAny>'])).toThrow(/does not parse/);
    expect(() => insertAfter(dir(file, 'B'), ['</RequireAny>'])).toThrow(/does not parse/);
    expect(() => insertBefore(dir(file, 'B'), ['<RequireAny'])).toThrow(/does not parse/);
    expect(() => appendToFile(file, ['<RequireAny>'])).toThrow(/does not parse/);
    expect(() => prependToFile(file, ['<RequireAny>'])).toThrow(/does not parse/);
    expect(file.print()).toBe('A\nB');
    const unclosed = parse('<D>\nA');
    expect(() => appendToSection(sec(unclosed, 'D'), ['<X>'])).toThrow(/does not parse/);
    expect(unclosed.print()).toBe('<D>\nA');
  });
});

describe('remove', () => {
  test('a plain line', () => {
    expect(edit('A\n  B 1\nC\n', (f) => remove(dir(f, 'B')))).toBe('A\nC\n');
  });

  test('without withComments, the comment above stays', () => {
    expect(edit('# about B\nB\nC\n', (f) => remove(dir(f, 'B')))).toBe('# about B\nC\n');
  });

  test('withComments removes the comment block directly above, not past a blank line', () => {
    const text = '# header\n\n# about Order\n  # more\nOrder allow,deny\nAllow from all\n';
    expect(edit(text, (f) => remove(dir(f, 'Order'), { withComments: true }))).toBe('# header\n\nAllow from all\n');
  });

  test('withComments does not take a comment that follows, nor a directive above', () => {
    expect(edit('A\nB\n# after\n', (f) => remove(dir(f, 'B'), { withComments: true }))).toBe('A\n# after\n');
  });

  test('withComments at the top of a section body', () => {
    const text = '<D>\n  # why\n  X\n  Y\n</D>\n';
    expect(edit(text, (f) => remove(dir(f, 'X'), { withComments: true }))).toBe('<D>\n  Y\n</D>\n');
  });

  test('the last line of a file without final newline: the new last line loses its newline', () => {
    expect(edit('A\r\nB\r\nC', (f) => remove(dir(f, 'C')))).toBe('A\r\nB');
  });

  test('a last section without final newline', () => {
    expect(edit('A\n<D>\nB\n</D>', (f) => remove(sec(f, 'D')))).toBe('A');
  });

  test('the last line of a closed section: the close tag is now last', () => {
    expect(edit('<D>\nA\nB\n</D>', (f) => remove(dir(f, 'B')))).toBe('<D>\nA\n</D>');
  });

  test('the only line', () => {
    expect(edit('A', (f) => remove(dir(f, 'A')))).toBe('');
  });

  test('a removed node is detached', () => {
    const file = parse('A\nB\n');
    const b = dir(file, 'B');
    remove(b);
    expect(b.parent).toBeNull();
    expect(file.body).toHaveLength(1);
  });
});

describe('insertBefore / insertAfter', () => {
  test('insertBefore at the reference’s indentation and line ending', () => {
    expect(edit('<D>\r\n    A\r\n</D>\r\n', (f) => insertBefore(dir(f, 'A'), ['X', { text: 'Y', depth: 1 }]))).toBe(
      '<D>\r\n    X\r\n        Y\r\n    A\r\n</D>\r\n',
    );
  });

  test('insertBefore the first line, after a BOM', () => {
    expect(edit('\xEF\xBB\xBFA\n', (f) => insertBefore(dir(f, 'A'), ['X']))).toBe('\xEF\xBB\xBFX\nA\n');
  });

  test('insertBefore a last line without final newline', () => {
    expect(edit('A\r\n\tB', (f) => insertBefore(dir(f, 'B'), ['X']))).toBe('A\r\n\tX\r\n\tB');
  });

  test('insertAfter in the middle', () => {
    expect(edit('A\n  B\nC\n', (f) => insertAfter(dir(f, 'B'), ['X', 'Y']))).toBe('A\n  B\n  X\n  Y\nC\n');
  });

  test('insertAfter a section goes after its close tag', () => {
    expect(edit('<D>\n  A\n</D>\nB\n', (f) => insertAfter(sec(f, 'D'), ['X']))).toBe('<D>\n  A\n</D>\nX\nB\n');
  });

  test('insertAfter the last line without final newline keeps "no final newline"', () => {
    expect(edit('A\r\nB', (f) => insertAfter(dir(f, 'B'), ['X', 'Y']))).toBe('A\r\nB\r\nX\r\nY');
  });

  test('insertAfter a line ending in a continuation at end of file ends the continuation first', () => {
    // `A b\` + newline + `X` would read as `A bX`; an empty line ends the continuation
    const out = edit('A b\\\n', (f) => insertAfter(dir(f, 'A'), ['X']));
    expect(out).toBe('A b\\\n\nX');
    expect(parse(out).body.map((n) => (n.kind === 'directive' ? n.name : n.kind))).toEqual(['A', 'X']);
  });
});

describe('appendToSection / prependToSection', () => {
  test('into an empty section: one unit deeper than the tag', () => {
    const text = '<VirtualHost *>\n    <Directory /x>\n    </Directory>\n</VirtualHost>\n';
    expect(edit(text, (f) => appendToSection(sec(f, 'Directory'), ['Require all granted']))).toBe(
      '<VirtualHost *>\n    <Directory /x>\n        Require all granted\n    </Directory>\n</VirtualHost>\n',
    );
  });

  test('prepend into an empty section', () => {
    const text = '<VirtualHost *>\n  ServerName x\n  <Location />\n  </Location>\n</VirtualHost>\n';
    expect(edit(text, (f) => prependToSection(sec(f, 'Location'), ['Require all granted']))).toBe(
      '<VirtualHost *>\n  ServerName x\n  <Location />\n    Require all granted\n  </Location>\n</VirtualHost>\n',
    );
  });

  test('into a non-empty section: at the children’s indentation', () => {
    // the children sit 2 deeper than the tag though the file's unit is 4
    const text = '<A>\n    <B>\n    </B>\n    <Directory /x>\n      Options None\n    </Directory>\n</A>\n';
    expect(edit(text, (f) => appendToSection(sec(f, 'Directory'), ['Require all granted', { text: 'X', depth: 1 }]))).toBe(
      '<A>\n    <B>\n    </B>\n    <Directory /x>\n      Options None\n      Require all granted\n          X\n    </Directory>\n</A>\n',
    );
  });

  test('prepend into a non-empty section', () => {
    expect(edit('<D>\r\n\tA\r\n</D>\r\n', (f) => prependToSection(sec(f, 'D'), ['Z']))).toBe('<D>\r\n\tZ\r\n\tA\r\n</D>\r\n');
  });

  test('a comment first in the body does not set the children’s indentation when a directive follows', () => {
    const text = '<D>\n#   commented out\n  A\n</D>\n';
    expect(edit(text, (f) => appendToSection(sec(f, 'D'), ['B']))).toBe('<D>\n#   commented out\n  A\n  B\n</D>\n');
  });

  test('tab-indented file: an empty section gets one tab deeper', () => {
    const text = '<VirtualHost *>\n\tServerName x\n\t<Directory /x>\n\t</Directory>\n</VirtualHost>\n';
    expect(edit(text, (f) => appendToSection(sec(f, 'Directory'), ['Require all granted']))).toBe(
      '<VirtualHost *>\n\tServerName x\n\t<Directory /x>\n\t\tRequire all granted\n\t</Directory>\n</VirtualHost>\n',
    );
  });

  test('an unclosed section at the end of a file without final newline: no line gets glued', () => {
    const file = parse('<D>\n  A');
    expect(file.diagnostics).toHaveLength(1);
    appendToSection(sec(file, 'D'), ['B']);
    expect(file.print()).toBe('<D>\n  A\n  B');
    const empty = parse('<D>');
    prependToSection(sec(empty, 'D'), ['B']);
    expect(empty.print()).toBe('<D>\n    B');
  });

  test('childIndent', () => {
    const file = parse('<A>\n  <B>\n  </B>\n</A>\n');
    expect(childIndent(sec(file, 'A'))).toBe('  ');
    expect(childIndent(sec(file, 'B'))).toBe('    ');
  });
});

describe('appendToFile / prependToFile', () => {
  test('appendToFile at top level with the dominant ending', () => {
    expect(edit('<D>\r\n  A\r\n</D>\r\nB\n', (f) => appendToFile(f, ['X', { text: 'Y', depth: 1 }]))).toBe(
      '<D>\r\n  A\r\n</D>\r\nB\nX\r\n  Y\r\n',
    );
  });

  test('appendToFile to a file without final newline keeps "no final newline"', () => {
    expect(edit('A\nB', (f) => appendToFile(f, ['X']))).toBe('A\nB\nX');
  });

  test('appendToFile to an empty file', () => {
    expect(edit('', (f) => appendToFile(f, ['X']))).toBe('X\n');
  });

  test('prependToFile goes after a BOM', () => {
    expect(edit('\xEF\xBB\xBFA\r\n', (f) => prependToFile(f, ['X']))).toBe('\xEF\xBB\xBFX\r\nA\r\n');
  });
});

describe('layout defaults', () => {
  test('dominantLineEnd: the majority, "\\n" on a tie or an empty file', () => {
    expect(dominantLineEnd(parse('a\r\nb\r\nc\n'))).toBe('\r\n');
    expect(dominantLineEnd(parse('a\r\nb\nc\n'))).toBe('\n');
    expect(dominantLineEnd(parse('a\r\nb\n'))).toBe('\n');
    expect(dominantLineEnd(parse(''))).toBe('\n');
    expect(dominantLineEnd(parse('a'))).toBe('\n');
    // continuations count as line breaks of their kind
    expect(dominantLineEnd(parse('a \\\r\n b \\\r\n c\n'))).toBe('\r\n');
  });

  test('indentUnit: the most common step between a tag and its body', () => {
    expect(indentUnit(parse('<A>\n\t<B>\n\t\tX\n\t</B>\n</A>\n'))).toBe('\t');
    expect(indentUnit(parse('<A>\n  X\n</A>\n<B>\n  Y\n</B>\n<C>\n    Z\n</C>\n'))).toBe('  ');
    expect(indentUnit(parse('X\n'))).toBe('    ');
  });

  test('indentUnit measures from the tag even when the tag itself is indented', () => {
    // steps: 4 (from the indented tag at 2 to its child at 6), twice
    const text = '  <A>\n      X\n  </A>\n  <B>\n      Y\n  </B>\n';
    expect(indentUnit(parse(text))).toBe('    ');
    expect(edit(text + '  <C>\n  </C>\n', (f) => appendToSection(sec(f, 'C'), ['Z']))).toBe(
      '  <A>\n      X\n  </A>\n  <B>\n      Y\n  </B>\n  <C>\n      Z\n  </C>\n',
    );
  });
});

// ---------------------------------------------------------------------------
// properties of edits on generated files

import fc from 'fast-check';

const eolArb = fc.constantFrom('\n', '\r\n');
const leafLine = fc
  .tuple(
    fc.constantFrom('', '  ', '\t'),
    fc.constantFrom('Order allow,deny', 'Allow from all', 'Options Indexes #x', '# comment', '', 'Header set X "a \\"b\\""', 'A \\\n  b'),
    eolArb,
  )
  .map(([i, l, e]) => i + l + e);
const balanced: fc.Arbitrary<string> = fc.letrec<{ block: string; section: string }>((tie) => ({
  section: fc
    .tuple(fc.constantFrom('Directory /x', 'IfModule !a.c', 'Location /'), fc.constantFrom('', '  ', '\t'), tie('block'), eolArb)
    .map(([tag, ind, body, e]) => `${ind}<${tag}>${e}${body}${ind}</${tag.split(' ')[0]}>${e}`),
  block: fc
    .array(fc.oneof({ depthSize: 'small' }, leafLine, tie('section')), { maxLength: 6 })
    .map((parts) => (parts as string[]).join('')),
})).block;

/** A balanced file, maybe without its final newline. */
const balancedFile = fc
  .tuple(balanced, fc.boolean())
  .map(([text, cut]) => (cut ? text.replace(/\r?\n$/, '') : text))
  .filter((text) => text.length > 0);

const valueChar = fc.constantFrom(...'ab#<>"\' \t\\/,*'.split(''));
const argValue = fc.array(valueChar, { maxLength: 8 }).map((cs) => cs.join(''));

describe('properties', () => {
  test('setArgs: whatever the old spelling and the new values, httpd reads back exactly those values', () => {
    const oldWord = fc.constantFrom('old', 'a\\', '"x y"', "'x y'", '"a \\"b\\""', 'ba\\\nr', '"unclosed', '"a\\\\"', '#c', 'x\\\\y');
    fc.assert(
      fc.property(fc.array(oldWord, { maxLength: 4 }), fc.array(fc.oneof(argValue, fc.nat(3)), { maxLength: 4 }), eolArb, (oldWords, picks, e) => {
        // an unclosed quote can only be last
        const words = oldWords.filter((w, i) => w !== '"unclosed' || i === oldWords.length - 1);
        // a last word ending in \ needs a blank after it, else it continues the line
        const file = parse(`  Foo ${words.join(' ')} ${e}Next${e}`);
        const d = dir(file, 'Foo');
        const oldValues = d.values;
        // a number picks an old value (kept spelling), a string is a new value
        const values = picks.map((p) => (typeof p === 'number' ? (oldValues[p] ?? 'z') : p));
        d.setArgs(values);
        const again = parse(file.print());
        expect(again.diagnostics).toEqual([]);
        expect(again.body).toHaveLength(2);
        expect((again.body[0] as Directive).values).toEqual(values);
        expect((again.body[1] as Directive).name).toBe('Next');
      }),
      { numRuns: 500 },
    );
  });

  test('setArgs on a section tag: the section reads back with those values', () => {
    fc.assert(
      fc.property(fc.array(argValue, { minLength: 1, maxLength: 3 }), (values) => {
        const file = parse('<Directory /x>\n  A\n</Directory>\n');
        sec(file, 'Directory').open.setArgs(values);
        const again = parse(file.print());
        expect(again.diagnostics).toEqual([]);
        expect(sec(again, 'Directory').values).toEqual(values);
      }),
      { numRuns: 300 },
    );
  });

  test('remove cuts exactly that node’s text (or leaves the file without final newline)', () => {
    fc.assert(
      fc.property(balancedFile, fc.nat(), (text, pick) => {
        const file = parse(text);
        const all = [...walkNodes(file)];
        fc.pre(all.length > 0);
        const node = all[pick % all.length];
        const before = file.print();
        const own = printed(node);
        const at = offsetOf(file, node);
        remove(node);
        const after = file.print();
        const cut = before.slice(0, at) + before.slice(at + own.length);
        if (before.endsWith('\n') || at + own.length < before.length) expect(after).toBe(cut);
        else expect(after).toBe(cut.replace(/\r?\n$/, ''));
        expect(parse(after).diagnostics).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  test('insertAfter / insertBefore any node: one more directive, in place, still balanced', () => {
    fc.assert(
      fc.property(balancedFile, fc.nat(), fc.boolean(), (text, pick, after) => {
        const file = parse(text);
        const all = [...walkNodes(file)];
        fc.pre(all.length > 0);
        const node = all[pick % all.length];
        const count = [...directives(file)].length;
        const [made] = (after ? insertAfter : insertBefore)(node, ['Require all granted']);
        const out = file.print();
        const again = parse(out);
        expect(again.diagnostics).toEqual([]);
        expect([...directives(again)].length).toBe(count + 1);
        // the printed tree and the re-parsed text agree on where the new line is
        const names = (f: ConfigFile) => [...directives(f)].map((d) => d.name);
        expect(names(again)).toEqual(names(file));
        expect(made.indent).toBe(node.indent);
        expect(out.endsWith('\n')).toBe(text.endsWith('\n'));
      }),
      { numRuns: 300 },
    );
  });

  test('appendToSection / prependToSection on any section: the line lands inside it', () => {
    fc.assert(
      fc.property(balancedFile, fc.nat(), fc.boolean(), (text, pick, append) => {
        const file = parse(text);
        const all = [...sections(file)];
        fc.pre(all.length > 0);
        const s = all[pick % all.length];
        (append ? appendToSection : prependToSection)(s, ['Require all granted']);
        const out = file.print();
        const again = parse(out);
        expect(again.diagnostics).toEqual([]);
        const same = [...sections(again)][pick % all.length];
        const body = same.body.filter((n) => n.kind === 'directive');
        const mine = append ? body[body.length - 1] : body[0];
        expect(mine).toBeDefined();
        expect((mine as Directive).name).toBe('Require');
        expect(out.endsWith('\n')).toBe(text.endsWith('\n'));
      }),
      { numRuns: 300 },
    );
  });
});

function* walkNodes(file: ConfigFile): Generator<import('../src/cst').Node> {
  const visit = function* (nodes: readonly import('../src/cst').Node[]): Generator<import('../src/cst').Node> {
    for (const n of nodes) {
      yield n;
      if (n.kind === 'section') yield* visit(n.body);
    }
  };
  yield* visit(file.body);
}

function printed(node: import('../src/cst').Node): string {
  const out: string[] = [];
  node.print(out);
  return out.join('');
}

function offsetOf(file: ConfigFile, target: import('../src/cst').Node): number {
  let offset = file.bom.length;
  let found = -1;
  const visit = (nodes: readonly import('../src/cst').Node[]) => {
    for (const n of nodes) {
      if (found !== -1) return;
      if (n === target) {
        found = offset;
        return;
      }
      if (n.kind === 'section') {
        offset += n.open.raw.length;
        visit(n.body);
        if (found !== -1) return;
        if (n.close) offset += n.close.raw.length;
      } else offset += n.raw.length;
    }
  };
  visit(file.body);
  return found;
}
