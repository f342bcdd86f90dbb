// Upgrade note "Misc changes / mod_include": the #if expr element now uses the new expression parser.
// The old syntax can be restored with the new directive SSILegacyExprParser.
// Measured on 2.4.71: a 2.2 page with <!--#if expr="$a = x" --> prints "[an error occurred while
// processing this directive]" (AH01337 "Could not parse expr … Parse error near '$'"); with
// `SSILegacyExprParser on` it gives 2.2's answer, and a <Directory> inherits it. Every SSI page a 2.2
// server has was written for the old parser, so the meaning is kept by turning it on where SSI is
// enabled. SSILegacyExprParser is allowed only inside <Directory>/<Location>/<Files>/<If> (or
// .htaccess with AllowOverride Limit), so it goes into each such section that enables SSI; what
// cannot be placed safely is reported.
import { Directive, Node, Section, ancestors, directives, insertAfter } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { SourceFile } from '../src/server/types';
import { Transform } from './types';

const DIR_SECTIONS = ['Directory', 'DirectoryMatch', 'Location', 'LocationMatch', 'Files', 'FilesMatch', 'If', 'ElseIf', 'Else'];

/** The directives that route responses through mod_include (see assignsSsi). */
const ASSIGNS = ['AddOutputFilter', 'SetOutputFilter', 'AddOutputFilterByType', 'AddHandler', 'SetHandler', 'XBitHack'];
/** Every directive this transform reads: those, Options (enablesSsi) and SSILegacyExprParser. */
const READS = [...ASSIGNS, 'Options', 'SSILegacyExprParser'];

/** A directive that routes responses through mod_include. */
function assignsSsi(d: Directive): boolean {
  const first = (d.values[0] ?? '').toLowerCase();
  if (d.is('AddOutputFilter', 'SetOutputFilter', 'AddOutputFilterByType')) return first.split(';').includes('includes');
  if (d.is('AddHandler', 'SetHandler')) return first === 'server-parsed';
  if (d.is('XBitHack')) return first === 'on' || first === 'full';
  return false;
}

/** An Options line that permits SSI (Includes, IncludesNOEXEC or All; absolute or with +). */
function enablesSsi(d: Directive): boolean {
  return d.is('Options') && d.values.some((v) => /^\+?(includes|includesnoexec|all)$/i.test(v));
}

function dirSectionOf(node: Node): Section | null {
  return ancestors(node).find((s) => s.is(...DIR_SECTIONS)) ?? null;
}

// module-level tests (not closures per call): V8 optimizes them once per run
function liveAssignment(d: Directive): boolean {
  return assignsSsi(d) && !isTwoTwoOnly(d);
}

/** Some line of the file routes responses through mod_include on 2.4. */
function assignsSsiIn(file: SourceFile): boolean {
  for (const name of ASSIGNS) if (directives(file.tree, name).some(liveAssignment)) return true;
  return false;
}

export const ssiLegacyExprParser: Transform = {
  id: 'ssi-legacy-expr-parser',
  title: 'Keep 2.2 SSI expressions working (SSILegacyExprParser on where SSI is enabled)',
  row: 'mod_include: the #if expr element now uses the new expression parser; SSILegacyExprParser restores the old syntax',
  order: 615,
  restores22Meaning: true,
  triggers: { directives: ASSIGNS },
  applyServer(server, ctx) {
    // the common case first, name by name (no walk over every line of every file): nothing routes through mod_include
    if (!server.files.some(assignsSsiIn)) return;
    const all: { file: SourceFile; d: Directive }[] = [];
    for (const file of server.files) for (const d of directives(file.tree, ...READS)) if (!isTwoTwoOnly(d)) all.push({ file, d });
    const assignments = all.filter(({ d }) => assignsSsi(d));
    if (assignments.length === 0) return; // nothing is parsed by mod_include
    const candidates = all.filter(({ d }) => assignsSsi(d) || enablesSsi(d));
    const covered = new Set<Section | string>();
    for (const { file, d } of all) {
      if (!d.is('SSILegacyExprParser')) continue;
      const section = dirSectionOf(d);
      covered.add(section ?? file.realPath);
    }
    let placed = covered.size > 0;
    for (const { file, d } of candidates) {
      if (file.role === 'htaccess') {
        placed = true;
        if (covered.has(file.realPath)) continue;
        covered.add(file.realPath);
        ctx.noteIn(
          file,
          d,
          'ssi-legacy-expr-parser-htaccess',
          'this .htaccess enables SSI; 2.4 parses <!--#if expr --> with the new syntax, where 2.2 expressions such as "$a = x" fail. ' +
            'Add "SSILegacyExprParser on" to the <Directory> of this directory in the server config ' +
            '(in .htaccess it needs AllowOverride Limit), or convert the pages',
          'manual',
        );
        continue;
      }
      const section = dirSectionOf(d);
      if (!section) {
        if (enablesSsi(d)) {
          ctx.noteIn(
            file,
            d,
            'ssi-legacy-expr-parser-needed',
            'SSI is enabled here for every directory; 2.4 parses <!--#if expr --> with the new syntax, where 2.2 expressions such as ' +
              '"$a = x" fail. SSILegacyExprParser is only allowed in <Directory>/<Location>/<Files>: add "SSILegacyExprParser on" ' +
              'to the sections that serve SSI pages, or convert the pages',
            'manual',
          );
          placed = true;
        }
        continue;
      }
      if (covered.has(section)) continue;
      covered.add(section);
      placed = true;
      insertAfter(d, ['SSILegacyExprParser on']);
      ctx.requireModule('include', 'SSILegacyExprParser keeps 2.2 SSI expressions working', d);
      ctx.noteIn(
        file,
        d,
        'ssi-legacy-expr-parser-added',
        'added "SSILegacyExprParser on": 2.4 parses <!--#if expr --> with the new ap_expr syntax, in which 2.2 expressions such as ' +
          `"$a = x" fail ("[an error occurred while processing this directive]"). Once the pages use the new syntax ` +
          `(e.g. "v('a') = 'x'"), remove this line`,
        'info',
      );
    }
    if (!placed) {
      const { file, d } = assignments[0];
      ctx.noteIn(
        file,
        d,
        'ssi-legacy-expr-parser-needed',
        'SSI is used, but no <Directory>/<Location> here enables it (Options Includes): if SSI runs on 2.4, add ' +
          '"SSILegacyExprParser on" to the sections that serve SSI pages, or 2.2 expressions such as "$a = x" fail',
        'review',
      );
    }
  },
};
