// Upgrade note "Modules": mod_disk_cache is now mod_cache_disk, mod_authn_alias's <AuthnProviderAlias> is in
// mod_authn_core; mod_authn_default, mod_authz_default and mod_mem_cache are removed; every module must be
// rebuilt for 2.4 (third-party modules: mod_php5, mod_python, mod_jk, mod_wsgi, …).
//
// Renamed modules: the LoadModule id and file name, and `<IfModule>` tests in both spellings (`mod_disk_cache.c`,
// `disk_cache_module`, with or without `!`) take the 2.4 name — 2.4.71 matches only the exact source or symbol
// name, so an old name silently turns the section off (measured).
// Removed modules: the LoadModule line is commented out, not deleted: a 2.4 httpd cannot load the file ("Cannot
// load …/mod_authz_default.so"), and the one-character edit keeps what 2.2 loaded visible in the diff and in the
// file (mem_cache's replacement is a decision for a human). `<IfModule>` tests of removed modules are reported.
// Third-party and unknown modules: the line stays, with a `manual` finding naming what to rebuild or install.
import { ConfigFile, Directive, Section, SectionOpen, Word, directives, replaceWith, sections, splitLineEnd } from '../src/cst';
import { REMOVED, RENAMED, THIRD_PARTY, classify, ifModuleName, readIfModule } from '../src/modules/knowledge';
import { moduleFile } from '../src/modules/table';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { SourceFile } from '../src/server/types';
import { Transform, TransformContext } from './types';

/** Replaces `from` by `to` inside one word of a line, keeping its quotes and everything around it. */
function replaceInWord(line: Directive | SectionOpen, word: Word, from: string, to: string): boolean {
  const at = word.raw.lastIndexOf(from);
  if (at === -1) return false;
  const raw = line.raw;
  line.raw = raw.slice(0, word.start) + word.raw.slice(0, at) + to + word.raw.slice(at + from.length) + raw.slice(word.end);
  return true;
}

/** Comments a directive out with `#` at its indentation (a continued line stays one comment: httpd joins first). */
function commentOut(d: Directive): void {
  const [content] = splitLineEnd(d.raw);
  replaceWith(d, ['#' + content.slice(d.indent.length)]);
}

function isDebianLoadFile(file: SourceFile | null): boolean {
  return !!file && /\.load$/.test(file.displayPath);
}

/** LoadModule ids (without `_module`) loaded anywhere in the server, outside 2.2-only branches, with their lines. */
function loadedElsewhere(ctx: TransformContext, id: string, except: Directive): Directive | null {
  for (const file of ctx.server.files) {
    for (const d of directives(file.tree, 'LoadModule')) {
      if (d !== except && !isTwoTwoOnly(d) && (d.values[0] ?? '') === `${id}_module`) return d;
    }
  }
  return null;
}

/** Whether the server still uses what a removed module provided (its directives, `CacheEnable mem`). */
function usesRemoved(ctx: TransformContext, id: string): string | null {
  const names = REMOVED[id].directives.map((n) => n.toLowerCase());
  // the module's directives and, for mem_cache, CacheEnable: the only lines that can answer
  const asked = id === 'mem_cache' ? [...REMOVED[id].directives, 'CacheEnable'] : REMOVED[id].directives;
  for (const file of ctx.server.files) {
    for (const d of directives(file.tree, ...asked)) {
      if (isTwoTwoOnly(d)) continue;
      if (names.includes(d.lowerName)) return `${d.name} on line ${d.line} of ${file.displayPath}`;
      if (id === 'mem_cache' && d.is('CacheEnable') && (d.values[0] ?? '').toLowerCase() === 'mem') {
        return `CacheEnable mem on line ${d.line} of ${file.displayPath}`;
      }
    }
  }
  return null;
}

function renameLoadModule(d: Directive, oldId: string, ctx: TransformContext): void {
  const newId = RENAMED[oldId];
  const debian = isDebianLoadFile(ctx.file) ? ` (Debian 2.4 names it ${newId}.load: \`a2dismod ${oldId}; a2enmod ${newId}\`)` : '';
  const other = loadedElsewhere(ctx, newId, d);
  if (other) {
    commentOut(d);
    ctx.note(d, 'module-renamed', `mod_${oldId} is mod_${newId} in 2.4, which line ${other.line} already loads: this line is commented out${debian}`, 'info');
    return;
  }
  replaceInWord(d, d.args[0], `${oldId}_module`, `${newId}_module`);
  const oldFile = `mod_${oldId}.so`;
  const path = d.args[1];
  if (path && path.value.endsWith(oldFile) && replaceInWord(d, path, oldFile, moduleFile(newId))) {
    ctx.note(d, 'module-renamed', `mod_${oldId} is called mod_${newId} in 2.4${debian}`, 'info');
  } else {
    ctx.note(
      d,
      'module-renamed',
      `mod_${oldId} is called mod_${newId} in 2.4: the id is renamed, but the file name ${path?.value ?? '(none)'} is not the usual ${oldFile}; point it at ${moduleFile(newId)}`,
      'review',
    );
  }
}

function removeLoadModule(d: Directive, id: string, ctx: TransformContext): void {
  const used = usesRemoved(ctx, id);
  const debian = isDebianLoadFile(ctx.file) ? ` (Debian: \`a2dismod ${id}\`; 2.4 ships no ${id}.load)` : '';
  commentOut(d);
  const severity = id === 'mem_cache' ? (used ? 'manual' : 'review') : 'info';
  ctx.note(
    d,
    'module-removed',
    `mod_${id} does not exist in 2.4 and its LoadModule line is commented out: ${REMOVED[id].advice}` +
      (used ? `; the config still uses it (${used})` : '') +
      debian,
    severity,
  );
}

function checkLoadModule(d: Directive, ctx: TransformContext): void {
  const symbol = d.values[0] ?? '';
  if (!symbol.endsWith('_module')) return;
  const id = symbol.slice(0, -'_module'.length);
  switch (classify(id)) {
    case 'renamed':
      renameLoadModule(d, id, ctx);
      break;
    case 'removed':
      removeLoadModule(d, id, ctx);
      break;
    case 'third-party': {
      const t = THIRD_PARTY[id];
      ctx.note(d, 'module-third-party', `${t.name} (${d.values[1] ?? ''}) was built for 2.2 and cannot load into 2.4: ${t.advice}`, 'manual');
      break;
    }
    case 'unknown':
      ctx.note(
        d,
        'module-unknown',
        `${symbol} is not a module of httpd 2.2 or 2.4: a 2.2 build of ${d.values[1] ?? 'it'} cannot load into 2.4; rebuild or install it for 2.4 (module magic 20120211), or remove the line`,
        'manual',
      );
      break;
    case 'standard':
      break;
  }
}

function checkIfModule(section: Section, ctx: TransformContext): void {
  const test = readIfModule(section.values);
  if (!test.id || test.form === 'other') return;
  if (test.id in RENAMED) {
    const newName = ifModuleName(RENAMED[test.id], test.form);
    const word = section.args.find((w) => w.value === test.name || w.value === `!${test.name}`);
    if (word && replaceInWord(section.open, word, test.name, newName)) {
      ctx.note(section, 'ifmodule-renamed', `<IfModule ${test.negated ? '!' : ''}${test.name}> never matches on 2.4: the module is ${newName}`, 'info');
    }
  } else if (test.id in REMOVED) {
    ctx.note(
      section,
      'ifmodule-removed-module',
      `mod_${test.id} does not exist in 2.4, so <IfModule ${test.negated ? '!' : ''}${test.name}> is always ${test.negated ? 'true' : 'false'}: ` +
        `${test.negated ? 'its contents always apply' : 'its contents never apply'}; check whether they should`,
      'review',
    );
  }
}

export const renameModuleReferences: Transform = {
  id: 'rename-module-references',
  title: 'Rename, drop or flag LoadModule and IfModule lines for modules 2.4 renamed or removed',
  row: 'Modules: renamed (mod_disk_cache → mod_cache_disk, mod_authn_alias → mod_authn_core) and removed modules',
  order: 8900,
  triggers: { directives: ['LoadModule'], sections: ['IfModule'] },
  applyFile(tree: ConfigFile, ctx) {
    for (const d of [...directives(tree, 'LoadModule')]) {
      if (!isTwoTwoOnly(d)) checkLoadModule(d, ctx);
    }
    for (const s of [...sections(tree, 'IfModule')]) {
      if (!isTwoTwoOnly(s)) checkIfModule(s, ctx);
    }
  },
};
