// Upgrade note "Authorization: Require in .htaccess needs AllowOverride AuthConfig (Order/Allow/Deny needed Limit)".
//
// access-to-require rewrites Order/Allow/Deny in .htaccess files as Require.
// Those are AuthConfig directives: under the `AllowOverride Limit` that was
// enough for 2.2, 2.4 answers 500 ("Require not allowed here"). This transform
// gives the governing <Directory> exactly what the migrated files use,
// measured on 2.4.71:
//
//   AllowOverride Limit
//   AllowOverrideList Require                  (+ `<RequireAll` … when used)
//
// rather than `AuthConfig`, which would also let the files set AuthType,
// AuthUserFile, Satisfy … AllowOverrideList is inherited on its own (a child
// <Directory> with `AllowOverride None` still reads .htaccess files for the
// listed directives), so <Directory> sections below that allow neither Limit
// nor AuthConfig get `AllowOverrideList None`, keeping them as closed as in 2.2.
//
// The per-directory files are the server's own (discovery places them in it,
// and access-to-require has migrated them by now), plus those on disk below a
// section that the run did not scan (read, never written; their migration is
// predicted by running access-to-require on each). Paths that cannot be seen
// (outside a copied tree, patterns) are reported, not guessed. A governing
// section in a --context file is not written: what it lacks is reported there.
import * as fs from 'fs';
import * as path from 'path';
import { ConfigFile, Directive, insertAfter, parse, walk } from '../src/cst';
import { perDirectoryFiles } from '../src/server/per-directory-files';
import { ServerTree, SourceFile } from '../src/server/types';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { accessToRequire } from './access-to-require';
import { DirectorySection, accessFileNames, directorySections, governing, grantedClasses } from '../src/semantics/allow-override';
import { Transform, TransformContext } from './types';


/** Names AllowOverrideList takes for what migrated files use (sections are named `<RequireAll`, measured: `<RequireAll>` and `RequireAll` are discarded, AH00116). */
const LIST_ORDER = ['Require', 'AuthMerging', '<RequireAll', '<RequireAny', '<RequireNone'];

/** AuthConfig-class access directives: under a Limit-only AllowOverride, 2.2 refused the file (500) if it held one. */
const AUTHCONFIG_WORD = /^(require|satisfy|auth\w*)$/i;

function lastOf<T>(list: readonly T[]): T {
  return list[list.length - 1];
}

/**
 * What access-to-require will make of a .htaccess file, run the way the runner runs it (its own
 * one-file server). `tree` is the file's parse of `text`; it is edited in place.
 */
function predictMigration(text: string, tree: ConfigFile, realPath: string, options: TransformContext['options']): ConfigFile | null {
  const file: SourceFile = { realPath, displayPath: realPath, role: 'htaccess', original: text, tree };
  if (file.tree.diagnostics.length > 0) return null;
  const server: ServerTree = { id: realPath, main: null, serverRoot: null, files: [file], includes: new Map([[realPath, []]]) };
  const ctx: TransformContext = {
    server,
    file: null,
    options,
    moduleRequests: [],
    note: () => undefined,
    noteIn: () => undefined,
    planModule: () => undefined,
    requireModule: () => undefined,
  };
  try {
    accessToRequire.applyServer?.(server, ctx);
  } catch {
    return null;
  }
  return file.tree;
}

/** AllowOverrideList names the migrated file needs beyond Limit. */
function neededNames(tree: ConfigFile): Set<string> {
  const out = new Set<string>();
  for (const node of walk(tree)) {
    if (isTwoTwoOnly(node)) continue;
    if (node.kind === 'directive' && node.is('Require')) out.add('Require');
    if (node.kind === 'directive' && node.is('AuthMerging')) out.add('AuthMerging');
    if (node.kind === 'section') {
      const name = LIST_ORDER.find((n) => n.toLowerCase() === `<${node.name.toLowerCase()}`);
      if (name) out.add(name);
    }
  }
  return out;
}

/** The first AuthConfig-class directive of a file, if any (2.2 refused it under a Limit-only AllowOverride). */
function authConfigLine(tree: ConfigFile): Directive | null {
  for (const node of walk(tree)) if (node.kind === 'directive' && !isTwoTwoOnly(node) && AUTHCONFIG_WORD.test(node.name)) return node;
  return null;
}

function read(file: string): string | null {
  try {
    return fs.readFileSync(file).toString('latin1');
  } catch {
    return null;
  }
}

const limitOnly = (d: DirectorySection) => {
  const classes = grantedClasses(lastOf(d.allowOverride));
  return classes.has('limit') && !classes.has('authconfig');
};

export const allowOverrideForHtaccess: Transform = {
  id: 'allow-override-for-htaccess',
  title: 'Make the AllowOverride governing a migrated .htaccess sufficient for Require',
  row: 'Authorization: Require in .htaccess needs AllowOverride AuthConfig (Order/Allow/Deny needed Limit)',
  order: 150,
  runsAfter: ['access-to-require', 'allow-override-default'],
  // it only ever acts beside an AllowOverride line that grants Limit: a server without one has nothing for it
  triggers: { directives: ['AllowOverride'] },
  applyServer(server, ctx) {
    const files = server.files.filter((f) => f.role !== 'htaccess');
    if (files.length === 0) return;
    const dirs = directorySections(files);
    const names = accessFileNames(files);
    const guarded = new Set<DirectorySection>();
    for (const g of dirs) {
      if (g.allowOverride.length === 0 || !limitOnly(g)) continue;
      const ao = lastOf(g.allowOverride);
      const found = perDirectoryFiles(server, g.path, names);
      if ('reason' in found) {
        if (g.file.role === 'context') continue;
        ctx.noteIn(
          g.file,
          ao,
          'htaccess-not-visible',
          `"${ao.values.join(' ')}" lets ${names.join(' / ')} files below ${g.path} use Order/Allow/Deny; migrated to Require they need ` +
            `"AllowOverrideList Require" here (or AuthConfig), else 2.4 answers 500. The files could not be looked at: ${found.reason}. ` +
            `Check them and add the line if they use access rules`,
          'manual',
        );
        continue;
      }
      const needed = new Set<string>();
      const users: string[] = [];
      for (const f of found.files) {
        if (governing(dirs, f.logicalDir) !== g) continue;
        const text = f.file ? f.file.original : read(f.disk);
        if (text === null) continue;
        const refused = authConfigLine(parse(text));
        if (refused) {
          ctx.noteIn(
            g.file,
            ao,
            'htaccess-refused-on-22',
            `${path.join(g.path, f.rel)} holds "${refused.name}" (AuthConfig), which "${ao.values.join(' ')}" did not allow: 2.2 answered 500 for it, and so will 2.4. Left as is`,
            'review',
          );
          continue;
        }
        // the server's own files were migrated already (access-to-require runs first); others are predicted
        const migrated = f.file ? f.file.tree : predictMigration(text, parse(text), f.disk, ctx.options);
        if (!migrated || migrated.print() === text) continue;
        const want = neededNames(migrated);
        if (want.size === 0) continue;
        want.forEach((n) => needed.add(n));
        users.push(f.rel);
      }
      if (needed.size === 0) continue;

      const list = LIST_ORDER.filter((n) => needed.has(n));
      if (g.file.role === 'context') {
        ctx.noteIn(
          g.file,
          ao,
          'context-override-needed',
          `${users.map((u) => path.join(g.path, u)).join(', ')} now use ${list.join(', ')}, which "${ao.values.join(' ')}" here does not allow (2.4 answers 500): ` +
            `add "AllowOverrideList ${list.join(' ')}" to this section of the context config (the run does not write it)`,
          'manual',
        );
        continue;
      }
      const existing = lastOf(g.allowOverrideList) as Directive | undefined;
      if (existing) {
        const current = existing.values.filter((v) => v.toLowerCase() !== 'none');
        const merged = [...current, ...list.filter((n) => !current.some((c) => c.toLowerCase() === n.toLowerCase()))];
        if (merged.length === current.length && current.length === existing.values.length) continue;
        existing.setArgs(merged);
      } else {
        insertAfter(ao, [`AllowOverrideList ${list.join(' ')}`]);
      }
      ctx.noteIn(
        g.file,
        ao,
        'htaccess-override-list-added',
        `"AllowOverrideList ${list.join(' ')}" added beside "${ao.values.join(' ')}": ${users.map((u) => path.join(g.path, u)).join(', ')} ` +
          `used Order/Allow/Deny (Limit) and, migrated, use ${list.join(', ')} (AuthConfig class), which 2.4 refuses under Limit alone (500). ` +
          `Only these directives are allowed, not all of AuthConfig. Note what this grants: a Require line in these files replaces the Require rules ` +
          `the server config sets for the directory (AuthMerging Off is the default), so whoever can write them can now lift authentication the ` +
          `server requires, which Limit alone could not do in 2.2`,
        'review',
      );
      // AllowOverrideList is inherited on its own: keep sections below that allowed neither Limit nor AuthConfig closed
      for (const s of dirs) {
        if (s === g || guarded.has(s) || s.allowOverride.length === 0 || s.allowOverrideList.length > 0) continue;
        if (g.path !== '/' && !s.path.startsWith(g.path + '/')) continue;
        if (g.path === '/' && s.path === '/') continue;
        const classes = grantedClasses(lastOf(s.allowOverride));
        if (classes.has('limit') || classes.has('authconfig')) continue;
        guarded.add(s);
        const sao = lastOf(s.allowOverride);
        insertAfter(sao, ['AllowOverrideList None']);
        ctx.noteIn(
          s.file,
          sao,
          'htaccess-override-list-guarded',
          `"AllowOverrideList None" added: this section would otherwise inherit "AllowOverrideList ${list.join(' ')}" from <Directory ${g.section.values[0]}> ` +
            `(line ${g.section.line}) and 2.4 would read ${names.join(' / ')} files here for those directives, which "${sao.values.join(' ')}" did not allow in 2.2`,
          'info',
        );
      }
    }
  },
};
