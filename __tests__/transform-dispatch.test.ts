/**
 * One walk per file, names dispatched to the transforms that ask for them:
 * - the name index (src/cst/name-index.ts) answers directives()/sections()/walk() on a file as a
 *   fresh walk of the current tree would, whatever edits came before (edit helpers, renames,
 *   argument edits, nodes moved by hand);
 * - the runner calls a transform with `triggers` only for files (applyFile) or servers
 *   (applyServer) that hold one of its names, sees names an earlier transform wrote, and runs a
 *   transform without `triggers` everywhere, as before (the contract change is additive);
 * - every registered transform's triggers are truthful: the whole pipeline gives the same bytes
 *   and findings with and without them, over the fixtures and the corpus.
 */
import fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import {
  ConfigFile,
  Container,
  Directive,
  Node,
  Section,
  appendToSection,
  directives,
  insertAfter,
  insertBefore,
  parse,
  remove,
  replaceWith,
  sections,
  walk,
} from '../src/cst';
import { RunOptions } from '../src/model/run-options';
import { transformText, runServer } from '../src/run/runner';
import { ServerTree, SourceFile } from '../src/server/types';
import { TRANSFORMS } from '../transforms';
import { Transform } from '../transforms/types';
import { CORPUS_DIR } from './support/corpus';

jest.setTimeout(300000);

/** The reference: a walk of the tree as it is now. */
function freshWalk(root: Container): Node[] {
  const out: Node[] = [];
  const visit = (c: Container) => {
    for (const n of c.body) {
      out.push(n);
      if (n.kind === 'section') visit(n);
    }
  };
  visit(root);
  return out;
}

const NAMES = ['Order', 'Allow', 'Deny', 'Require', 'Options', 'Directory', 'IfModule', 'Location'];

describe('the name index answers as a fresh walk', () => {
  const line = fc.constantFrom('Order allow,deny', 'Allow from all', 'deny from x', 'Options None', '# c', '', 'require valid-user');
  const block: fc.Arbitrary<string> = fc.letrec<{ block: string; section: string }>((tie) => ({
    section: fc
      .tuple(fc.constantFrom('Directory /x', 'IfModule a.c', 'location /'), tie('block'))
      .map(([open, body]) => `<${open}>\n${body}</${open.split(' ')[0]}>\n`),
    block: fc.array(fc.oneof({ depthSize: 'small' }, line.map((l) => l + '\n'), tie('section')), { maxLength: 5 }).map((ls) => ls.join('')),
  })).block;

  type Op = { kind: number; pick: number; name: number };
  const op: fc.Arbitrary<Op> = fc.record({ kind: fc.nat(7), pick: fc.nat(), name: fc.nat(NAMES.length - 1) });

  function apply(file: ConfigFile, o: Op): void {
    const nodes = freshWalk(file);
    if (nodes.length === 0) return;
    const node = nodes[o.pick % nodes.length];
    const name = NAMES[o.name];
    switch (o.kind) {
      case 0:
        if (node.kind === 'directive') node.rename(name);
        break;
      case 1:
        insertAfter(node, [`${name} x`]);
        break;
      case 2:
        insertBefore(node, [`<${name} /y>`, `Require all denied`, `</${name}>`]);
        break;
      case 3:
        remove(node, { withComments: true });
        break;
      case 4:
        replaceWith(node, [`${name} a`, `${name} b`]);
        break;
      case 5:
        if (node.kind === 'section') appendToSection(node, [`${name} z`]);
        else if (node.kind === 'directive') node.setArgs(['changed']);
        break;
      case 6: {
        // moved by hand, as a transform may: out of its container, to the end of the file
        const parent = node.parent as Container;
        parent.body.splice(parent.body.indexOf(node), 1);
        node.parent = file;
        file.body.push(node);
        break;
      }
      default:
        if (node.kind === 'section') node.open.raw = node.open.raw.replace(/<\w+/, `<${name}`);
    }
  }

  test('after any sequence of edits', () => {
    fc.assert(
      fc.property(block, fc.array(op, { maxLength: 8 }), fc.array(fc.constantFrom(...NAMES), { maxLength: 3 }), (text, ops, asked) => {
        const file = parse(text);
        for (const o of ops) {
          // ask between edits, so a stale index would be seen
          directives(file, ...asked);
          apply(file, o);
          const all = freshWalk(file);
          const lower = new Set(asked.map((n) => n.toLowerCase()));
          const named = <T extends Directive | Section>(kind: string) =>
            all.filter((n): n is T => n.kind === kind && (lower.size === 0 || lower.has((n as T).name.toLowerCase())));
          expect(walk(file)).toEqual(all);
          expect(directives(file, ...asked)).toEqual(named<Directive>('directive'));
          expect(sections(file, ...asked)).toEqual(named<Section>('section'));
        }
      }),
      { numRuns: 400 },
    );
  });

  test('answers are copies: a caller may change them', () => {
    const file = parse('Order a\nOrder b\n');
    directives(file, 'Order').pop();
    walk(file).length = 0;
    expect(directives(file, 'Order')).toHaveLength(2);
    expect(walk(file)).toHaveLength(2);
  });
});

function server(texts: readonly string[]): ServerTree {
  const files: SourceFile[] = texts.map((t, i) => ({ realPath: `/f${i}.conf`, displayPath: `f${i}.conf`, role: 'fragment', original: t, tree: parse(t) }));
  return { id: 'test', main: null, serverRoot: null, files, includes: new Map() };
}

function recorder(id: string, order: number, triggers?: Transform['triggers']): Transform & { seen: string[] } {
  const seen: string[] = [];
  return {
    id,
    title: id,
    row: id,
    order,
    ...(triggers ? { triggers } : {}),
    seen,
    applyFile(_tree, ctx) {
      seen.push(ctx.file?.displayPath ?? '?');
    },
  };
}

describe('the runner dispatches by name', () => {
  const texts = ['KeepAlive On\n', '<Directory /x>\n  maxclients 5\n</Directory>\n', '# nothing\n', '<IfModule x.c>\n</IfModule>\n'];

  test('applyFile runs only on files that hold a trigger name (any depth, any case)', () => {
    const picky = recorder('picky', 10, { directives: ['MaxClients'], sections: ['IfModule'] });
    runServer(server(texts), [picky], {});
    expect(picky.seen).toEqual(['f1.conf', 'f3.conf']);
  });

  test('negative control: without triggers the same transform runs on every file', () => {
    const plain = recorder('plain', 10);
    runServer(server(texts), [plain], {});
    expect(plain.seen).toEqual(['f0.conf', 'f1.conf', 'f2.conf', 'f3.conf']);
  });

  test('a name written by an earlier transform reaches a later one', () => {
    const writer: Transform = {
      id: 'writer',
      title: 'w',
      row: 'w',
      order: 1,
      triggers: { directives: ['KeepAlive'] },
      applyFile(tree) {
        for (const d of directives(tree, 'KeepAlive')) insertAfter(d, ['MaxClients 1']);
      },
    };
    const picky = recorder('picky', 10, { directives: ['MaxClients'] });
    runServer(server(texts), [writer, picky], {});
    expect(picky.seen).toEqual(['f0.conf', 'f1.conf']);
  });

  test('applyServer runs only when some file of the server holds a trigger name', () => {
    const calls: string[] = [];
    const serverWide = (name: string): Transform => ({
      id: `server-${name}`,
      title: name,
      row: name,
      order: 5,
      triggers: { directives: [name] },
      applyServer(s) {
        calls.push(`${name}:${s.files.length}`);
      },
    });
    runServer(server(texts), [serverWide('MaxClients'), serverWide('Timeout')], {});
    expect(calls).toEqual(['MaxClients:4']);
  });
});

describe('every transform\'s triggers are truthful', () => {
  const untriggered = TRANSFORMS.map((t) => {
    const { triggers: _, ...rest } = t;
    return rest as Transform;
  });

  test('most transforms declare triggers', () => {
    expect(TRANSFORMS.filter((t) => t.triggers).length).toBeGreaterThanOrEqual(25);
  });

  const inputs: { name: string; text: string; role: 'main' | 'fragment' | 'htaccess'; options: RunOptions }[] = [];
  const fixtures = path.join(__dirname, 'fixtures');
  for (const dir of fs.readdirSync(fixtures)) {
    for (const f of fs.readdirSync(path.join(fixtures, dir)).filter((n) => n.endsWith('.input.conf'))) {
      const name = f.replace(/\.input\.conf$/, '');
      const optionsFile = path.join(fixtures, dir, `${name}.options.json`);
      inputs.push({
        name: `${dir}/${name}`,
        text: fs.readFileSync(path.join(fixtures, dir, f), 'latin1'),
        role: name.startsWith('main-') ? 'main' : name.startsWith('htaccess-') ? 'htaccess' : 'fragment',
        options: fs.existsSync(optionsFile) ? JSON.parse(fs.readFileSync(optionsFile, 'utf8')) : {},
      });
    }
  }
  for (const e of fs.readdirSync(CORPUS_DIR, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || /\.(tsv|md)$/.test(e.name)) continue;
    const text = fs.readFileSync(path.join(e.parentPath ?? e.path, e.name), 'latin1');
    const role = /(httpd|apache2)\.conf/.test(e.name) ? 'main' : e.name.includes('htaccess') ? 'htaccess' : 'fragment';
    inputs.push({ name: `corpus/${e.name}`, text, role, options: {} });
    inputs.push({ name: `corpus/${e.name} (pinned, dual)`, text, role, options: { pinDefaults: true, dualSyntax: true, mpm: 'event' } });
  }

  test('the pipeline gives the same bytes and findings with and without them', () => {
    expect(inputs.length).toBeGreaterThan(300);
    for (const input of inputs) {
      const a = transformText(input.text, TRANSFORMS, input.options, 'in.conf', input.role);
      const b = transformText(input.text, untriggered, input.options, 'in.conf', input.role);
      expect({ name: input.name, ...a }).toEqual({ name: input.name, ...b });
    }
  });
});
