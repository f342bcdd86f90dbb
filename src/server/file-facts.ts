/**
 * The few directives discovery needs from a file (Include lines, ServerRoot, and what decides
 * where per-directory files are read), kept once the file's tree is gone: planning a fleet must
 * not hold every tree of every server at once.
 */
import { Container, walk } from '../cst';

export interface DirectiveFact {
  readonly values: readonly string[];
  /** 1-based line of the directive. */
  readonly line: number;
}

/** Directive names (lower case) discovery reads, and `<Directory` for its path argument. */
const FACT_NAMES = ['include', 'includeoptional', 'serverroot', 'accessfilename', 'documentroot', 'alias', 'scriptalias', '<directory'];
const WANTED = new Set(FACT_NAMES);

/** The fact name of a commented-out `#Include path` line (Apache's own httpd.conf switches its extra/ files on this way). */
export const COMMENTED_INCLUDE = '#include';
const COMMENTED_INCLUDE_LINE = /^\s*(?:Include|IncludeOptional)\s+("[^"]+"|\S+)\s*$/i;

export class FileFacts {
  private constructor(private readonly byName: ReadonlyMap<string, readonly DirectiveFact[]>) {}

  /** Facts of every directive (any depth, in file order) named one of `names`; `<Directory` gives the section's arguments. */
  get(...names: string[]): DirectiveFact[] {
    if (names.length === 1) return [...(this.byName.get(names[0].toLowerCase()) ?? [])];
    const out: DirectiveFact[] = [];
    for (const name of names) out.push(...(this.byName.get(name.toLowerCase()) ?? []));
    return out.sort((a, b) => a.line - b.line);
  }

  static of(tree: Container): FileFacts {
    const byName = new Map<string, DirectiveFact[]>();
    const add = (name: string, fact: DirectiveFact) => {
      const list = byName.get(name);
      if (list) list.push(fact);
      else byName.set(name, [fact]);
    };
    for (const node of walk(tree)) {
      if (node.kind === 'directive') {
        const name = node.name.toLowerCase();
        if (WANTED.has(name)) add(name, { values: node.values, line: node.line });
      } else if (node.kind === 'section' && node.name.toLowerCase() === 'directory') {
        add('<directory', { values: node.values, line: node.line });
      } else if (node.kind === 'comment') {
        const m = COMMENTED_INCLUDE_LINE.exec(node.text);
        if (m) add(COMMENTED_INCLUDE, { values: [m[1].replace(/^"(.*)"$/, '$1')], line: node.line });
      }
    }
    return new FileFacts(byName);
  }
}
