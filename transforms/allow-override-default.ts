// Upgrade note "Changed defaults: AllowOverride defaults to None in 2.4 (All in 2.2)".
//
// 2.2 read .htaccess files with every override class allowed wherever no
// <Directory> section set AllowOverride. Measured on 2.4.71, "unset" is not
// "None": httpd still opens the .htaccess files and answers 500 ("X not
// allowed here") for every directive in them; only an explicit AllowOverride
// None makes it skip them. So where 2.2's default applied, the migration
// writes it out: `AllowOverride All` in the server-level `<Directory />`
// (added when the config has none). A `<Directory />` governs every path, and
// every other <Directory> (of the main server or of a virtual host) that sets
// AllowOverride still wins below its path, so this is exactly 2.2's default.
//
// Only non-regex <Directory> sections count: AllowOverride in <DirectoryMatch>
// or `<Directory ~ …>` is silently ignored by both versions, in <Location> and
// <Files> it is ignored with a warning (AH00114 on 2.4).
import { ConfigFile, Directive, NewLine, Section, ancestors, appendToFile, appendToSection, directives, insertBefore } from '../src/cst';
import * as path from 'path';
import { perDirectoryFiles } from '../src/server/per-directory-files';
import { ServerTree, SourceFile } from '../src/server/types';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { DirectorySection, accessFileNames, directorySections, isRegexSection, partialRun } from '../src/semantics/allow-override';
import { Transform, TransformContext } from './types';

function describeNames(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(' / ');
}

/** Sections where AllowOverride is ignored by httpd: regex directories (silently), Location/Files (AH00114). */
function reportIgnored(file: SourceFile, tree: ConfigFile, note: (file: SourceFile, d: Directive, message: string) => void): void {
  for (const d of directives(tree, 'AllowOverride', 'AllowOverrideList')) {
    if (isTwoTwoOnly(d)) continue;
    const scope = ancestors(d).find((s) => !/^if/i.test(s.name));
    if (!scope) continue;
    const lower = scope.name.toLowerCase();
    if (lower === 'directory' && !isRegexSection(scope)) continue;
    if (lower === 'directory' || lower === 'directorymatch') {
      note(file, d, `${d.name} has no effect in <${scope.name}${scope.values[0] === '~' ? ' ~' : ''}> (regular-expression sections are applied after .htaccess files are read; 2.2 and 2.4 ignore it silently): the AllowOverride of the enclosing <Directory> sections applies`);
    } else if (['location', 'locationmatch', 'files', 'filesmatch', 'proxy', 'proxymatch'].includes(lower)) {
      note(file, d, `${d.name} has no effect in <${scope.name}>; 2.4 warns "AH00114/AH00115: Useless use of ${d.name}". Move it to a <Directory> section or remove it`);
    }
  }
}

export const allowOverrideDefault: Transform = {
  id: 'allow-override-default',
  title: "Make AllowOverride explicit where 2.2's default (All) applied",
  row: 'Changed defaults: AllowOverride defaults to None in 2.4 (All in 2.2)',
  order: 140,
  applyServer(server, ctx) {
    const files = server.files.filter((f) => f.role !== 'htaccess');
    for (const file of files) {
      reportIgnored(file, file.tree, (f, d, message) => ctx.noteIn(f, d, 'allow-override-ignored', message, 'review'));
    }
    const dirs = directorySections(files);
    const names = describeNames(accessFileNames(files));
    const main = server.main;
    if (partialRun(server)) {
      // the run's own sections are 2.2's: where they set no AllowOverride above per-directory files, 2.2's default is written
      explicitInFragment(server, dirs, accessFileNames(files), ctx);
      if (!main) return;
    }
    if (!main) return;
    const roots = dirs.filter((d) => d.path === '/' && !d.inVhost);
    if (roots.some((d) => !d.conditional && d.setsUnconditionally)) return;
    if (main.role === 'context') {
      ctx.noteIn(
        main,
        null,
        'context-override-needed',
        `no <Directory /> of this context config sets AllowOverride: 2.2 allowed every override class in ${names} files by default, 2.4 reads them and answers 500 for every directive in them. Set AllowOverride (usually None) in its <Directory /> (the run does not write context files)`,
        'manual',
      );
      return;
    }

    const message =
      `AllowOverride All written out: 2.2 allowed every override class in ${names} files wherever no <Directory> set AllowOverride, ` +
      `and 2.4 with AllowOverride set nowhere still reads those files but answers 500 for every directive in them. ` +
      `<Directory> sections that set AllowOverride keep their value. If no ${names} files are used, "AllowOverride None" is faster and safer`;
    const settingRoots = roots.filter((d) => d.allowOverride.length > 0);
    if (settingRoots.length === 0) {
      // nothing at server level sets it for "/": where the line goes does not change its meaning
      const target = roots.find((d) => !d.conditional);
      if (target) {
        appendToSection(target.section, ['AllowOverride All']);
        ctx.noteIn(target.file, target.section, 'allow-override-all-explicit', message, 'review');
        return;
      }
      addRootSection(main, null, message, ctx);
      return;
    }
    // "/" sets AllowOverride only conditionally: a new <Directory /> must come first in config order
    const first = settingRoots.reduce((a, b) => (a.order < b.order ? a : b));
    const topLevel = topLevelNode(first.section);
    if (first.file === main && noIncludeBefore(main.tree, topLevel)) {
      addRootSection(main, topLevel, message, ctx);
      return;
    }
    ctx.noteIn(
      first.file,
      first.section,
      'allow-override-default-unclear',
      `<Directory /> sets AllowOverride only under a condition (line ${first.section.line}); where the condition does not hold, 2.2 allowed everything in ${names} files and 2.4 answers 500. ` +
        `Add "AllowOverride All" (2.2's default) in an unconditional <Directory /> placed before this one, or set the value you want`,
      'manual',
    );
  },
};

/**
 * A run without the main config takes it to be a stock 2.4 one, which sets AllowOverride None at
 * <Directory />: 2.4 would ignore per-directory files that 2.2 read with every class allowed
 * (its default) wherever no section set AllowOverride. So a <Directory> of the fragment with no
 * AllowOverride on its chain and such files below it gets 2.2's default written out.
 */
function explicitInFragment(server: ServerTree, dirs: readonly DirectorySection[], names: readonly string[], ctx: TransformContext): void {
  const covered: DirectorySection[] = [];
  // the run's own sections (a --context config is 2.4's, above the boundary)
  const own = dirs.filter((d) => d.file.role !== 'context');
  const setsOnChain = (d: DirectorySection) =>
    own.some((s) => s.allowOverride.length > 0 && isAtOrAbove(s.path, d.path)) || covered.some((s) => isAtOrAbove(s.path, d.path));
  const byDepth = [...own].sort((a, b) => a.path.split('/').length - b.path.split('/').length || a.order - b.order);
  for (const d of byDepth) {
    if (d.conditional || setsOnChain(d)) continue;
    const found = perDirectoryFiles(server, d.path, names);
    if ('reason' in found || found.files.length === 0) continue;
    appendToSection(d.section, ['AllowOverride All']);
    covered.push(d);
    const shown = found.files.slice(0, 3).map((f) => path.posix.join(d.path, f.rel));
    ctx.noteIn(
      d.file,
      d.section,
      'allow-override-all-explicit',
      `AllowOverride All written out: ${shown.join(', ')}${found.files.length > 3 ? ` and ${found.files.length - 3} more` : ''} lie below this section, ` +
        `and no section of the run sets AllowOverride on its way, so 2.2 read them with every override class allowed (its default). A 2.4 main config ` +
        `(the stock one this run assumes, or the --context one) sets AllowOverride None at <Directory />, under which 2.4 would ignore them. ` +
        `If the 2.2 main config set AllowOverride None above this path, remove the line`,
      'review',
    );
  }
}

function isAtOrAbove(a: string, b: string): boolean {
  return a === '/' || a === b || b.startsWith(a + '/');
}

function topLevelNode(section: Section): Section {
  const chain = ancestors(section);
  return chain.length > 0 ? chain[chain.length - 1] : section;
}

function noIncludeBefore(tree: ConfigFile, node: Section): boolean {
  for (const n of tree.body) {
    if (n === node) return true;
    if (n.kind === 'directive' && n.is('Include', 'IncludeOptional')) return false;
    if (n.kind === 'section' && [...directives(n, 'Include', 'IncludeOptional')].length > 0) return false;
  }
  return true;
}

/**
 * Adds `<Directory />` + `AllowOverride All` and a blank line: above `before` (and the comment
 * block right above it), else above the first top-level <Directory>, else at the end of the file.
 */
function addRootSection(main: SourceFile, before: Section | null, message: string, ctx: TransformContext): void {
  const block: NewLine[] = ['<Directory />', { text: 'AllowOverride All', depth: 1 }, '</Directory>'];
  const body = main.tree.body;
  const anchor = before ?? body.find((n): n is Section => n.kind === 'section' && n.is('Directory'));
  if (anchor) {
    let index = body.indexOf(anchor);
    while (index > 0 && body[index - 1].kind === 'comment') index--;
    insertBefore(body[index], [...block, '']);
    ctx.noteIn(main, anchor, 'allow-override-all-explicit', message, 'review');
    return;
  }
  const last = body[body.length - 1];
  appendToFile(main.tree, last && last.kind !== 'blank' ? ['', ...block] : block);
  ctx.noteIn(main, null, 'allow-override-all-explicit', message, 'review');
}
