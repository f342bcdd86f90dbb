// Upgrade note "Modules": every module must be rebuilt for 2.4, several moved or are new (mod_authz_core for
// Require, mod_authn_core for AuthType, mod_unixd for User/Group, mod_filter for AddOutputFilterByType,
// mod_socache_* for SSLSessionCache, mod_slotmem_shm + mod_lbmethod_* for balancers, mod_access_compat for
// Order/Allow/Deny), and the MPM, compiled into 2.2, is a module in 2.4.
//
// The planner runs last, once per server. It writes each LoadModule line 2.4 needs once, beside the lines
// that already load modules (the path prefix taken from them):
//  - what other transforms asked for (ctx.requireModule);
//  - for a whole server (a main config that loads modules or sets ServerRoot): the MPM, and the module of
//    every directive the migrated tree uses (table generated from `apache2 -L`, plus the providers named in
//    arguments, see src/modules/needs.ts), skipping directives inside `<IfModule>` tests that are false on
//    the migrated server (what transforms asked for counts as loaded) and 2.2-only branches; an upstream
//    static build has no LoadModule lines at all,
//    then the lines go after ServerRoot;
//  - the modules those need loaded first (mod_proxy before mod_proxy_balancer, …).
// Built-in modules must not be loaded again ("module X is built-in and can't be loaded" is fatal): with
// `--httpd PATH` the binary is probed (-l, -V) and built-ins get no line; without it each new line is guarded
// by `<IfModule !x_module>`, and existing LoadModule lines of modules some 2.4 builds compile in (Debian:
// unixd log_config logio version watchdog) are guarded the same way.
// Debian layout (one-line mods-enabled/*.load files): new lines go after the `Include mods-enabled/*.load`.
import { Directive, Node, NewLine, Section, ancestors, directives, insertAfter, insertBefore, replaceWith, splitLineEnd, walk } from '../src/cst';
import { ALWAYS_BUILTIN, MAYBE_BUILTIN, MPMS, classify, dependencies, isMpm, readIfModule } from '../src/modules/knowledge';
import { Need, argumentNeeds, sectionNeeds } from '../src/modules/needs';
import { HttpdProbe, probeHttpd } from '../src/modules/probe';
import { directiveModules, moduleFile } from '../src/modules/table';
import { isTwoTwoOnly, sectionIsTwoTwoOnly } from '../src/semantics/version-guards';
import { unreadPerDirectoryFiles } from '../src/semantics/allow-override';
import { ServerTree, SourceFile } from '../src/server/types';
import { Transform, TransformContext } from './types';

interface LoadLine {
  readonly file: SourceFile;
  readonly directive: Directive;
  readonly id: string;
}

/** A file the server does not read today (placed as if included): what it loads or needs is not the server's. */
const isVirtual = (file: SourceFile) => file.asIf !== undefined;

/**
 * Every LoadModule outside 2.2-only branches (a guarded line counts: the guard only skips a module
 * already there); of the files the server reads, unless `all`.
 */
function loadLines(server: ServerTree, all = false): LoadLine[] {
  const out: LoadLine[] = [];
  for (const file of server.files) {
    if (!all && isVirtual(file)) continue;
    for (const d of directives(file.tree, 'LoadModule')) {
      if (!isTwoTwoOnly(d)) out.push({ file, directive: d, id: (d.values[0] ?? '').replace(/_module$/, '') });
    }
  }
  return out;
}

/**
 * A whole server whose module set the run can see: a main config found by discovery (its ServerRoot is
 * resolved), or a main config transformed on its own when the target was described (--httpd or --mpm).
 * A config text transformed on its own without them (fixtures of other transforms, API users) gets only the
 * modules transforms asked for: planning every directive of a snippet would bury its own changes.
 */
function isWholeServer(server: ServerTree, options: TransformContext['options']): boolean {
  if (!server.main) return false;
  return server.serverRoot !== null || options.httpd !== undefined || options.mpm !== undefined;
}

/** The outermost section of its file holding `node`, or the node itself: new lines go after it, at top level. */
function topLevel(node: Directive): Node {
  const outer = ancestors(node);
  return outer.length > 0 ? outer[outer.length - 1] : node;
}

interface Site {
  readonly file: SourceFile;
  readonly after: Node;
  /** Directory part of new paths, e.g. `modules/` or `/usr/lib/apache2/modules/`. */
  readonly prefix: string;
  /** Set when the modules come from Debian's mods-enabled/*.load files. */
  readonly debian: boolean;
}

function pathPrefix(example: Directive): string {
  const path = example.values[1] ?? '';
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash + 1);
}

function findSite(server: ServerTree, allLoads: readonly LoadLine[], whole: boolean, probe: HttpdProbe | null): Site | null {
  // the file that loads the most modules, its last LoadModule; a third-party module's line (mod_passenger
  // under /usr/local/rvm/…) is no model for the path of httpd's own modules
  const known = allLoads.filter((l) => classify(l.id) !== 'third-party' && classify(l.id) !== 'unknown');
  const loads = known.length > 0 ? known : allLoads;
  const counts = new Map<SourceFile, LoadLine[]>();
  for (const l of loads) counts.set(l.file, [...(counts.get(l.file) ?? []), l]);
  let best: LoadLine[] | null = null;
  for (const list of counts.values()) if (!best || list.length > best.length) best = list;
  if (best) {
    const last = best[best.length - 1];
    if (/\.load$/.test(last.file.displayPath) && best.length <= 2) {
      // Debian: one module per mods-enabled/*.load file; new lines go beside the Include that reads them
      for (const file of server.files) {
        for (const inc of directives(file.tree, 'Include', 'IncludeOptional')) {
          if (!isTwoTwoOnly(inc) && /\.load$/.test(inc.values[0] ?? '')) {
            return { file, after: topLevel(inc), prefix: pathPrefix(last.directive), debian: true };
          }
        }
      }
    }
    return { file: last.file, after: topLevel(last.directive), prefix: pathPrefix(last.directive), debian: false };
  }
  if (whole && server.main) {
    // a static 2.2 build: no LoadModule lines; ServerRoot comes first, LoadModule must precede <IfModule> tests
    const root = [...directives(server.main.tree, 'ServerRoot')].find((d) => !isTwoTwoOnly(d));
    if (root) {
      const prefix = probe?.moduleDir ? `${probe.moduleDir}/` : 'modules/';
      return { file: server.main, after: topLevel(root), prefix, debian: false };
    }
  }
  return null;
}

/** The module a directive line defined by `modules` (from the table; not an MPM's) needs on 2.4, or null when one of them is there. */
function definingModule(modules: readonly string[], have: ReadonlySet<string>, mpm: string): string | null {
  if (modules.some((m) => have.has(m))) return null;
  if (cgiOrCgid(modules)) return mpm === 'mpm_prefork' ? 'cgi' : 'cgid';
  return modules[0];
}

/** An `<IfModule>` around a line, read once: the module id it tests (null when it names none httpd could match) and whether it is negated. */
interface ModuleTest {
  readonly id: string | null;
  readonly negated: boolean;
}

/** A directive or section the planner may plan for, with what does not change between rounds read once. */
interface Candidate {
  readonly node: Directive | Section;
  readonly file: SourceFile;
  /** The `<IfModule>` tests around it, outermost first. */
  readonly tests: readonly ModuleTest[];
  /** A directive's defining modules (table), or null. */
  readonly modules: readonly string[] | null;
  /** What its arguments (a directive) or its tag (a section) name. */
  readonly needs: readonly Need[];
}

/** Whether every `<IfModule>` test holds when `loaded` are the loaded modules (ifModulesHold on tests read once). */
function testsHold(tests: readonly ModuleTest[], loaded: ReadonlySet<string>): boolean {
  for (const t of tests) if ((t.id !== null && loaded.has(t.id)) === t.negated) return false;
  return true;
}

/**
 * The lines of `files` outside 2.2-only branches that can need a module, in file order, each with its
 * `<IfModule>` tests. One walk per file carries the enclosing sections' verdicts down (instead of asking
 * isTwoTwoOnly and ifModulesHold of each line's ancestors), and lines that can never plan anything are
 * left out: core directives, unknown ones, an MPM's, and whatever only names modules in `have` already
 * (`have` only grows, so those stay planned for nothing). The rounds of directiveNeeds then evaluate the
 * tests of the few lines left, on a tree nothing edits meanwhile.
 */
function candidates(files: readonly SourceFile[], have: ReadonlySet<string>): Candidate[] {
  const collector = new CandidateCollector(have);
  for (const file of files) collector.visit(file, file.tree, []);
  return collector.out;
}

/** candidates()'s walk: methods, not closures made per call, so V8 optimizes them once. */
class CandidateCollector {
  readonly out: Candidate[] = [];
  /** The table's verdict depends on the name only: worked out once per distinct name of the call. */
  private readonly byName = new Map<string, readonly string[] | null>();

  constructor(private readonly have: ReadonlySet<string>) {}

  private open(module: string): boolean {
    return !ALWAYS_BUILTIN.has(module) && !this.have.has(module) && !isMpm(module);
  }

  private modulesOf(name: string): readonly string[] | null {
    let modules = this.byName.get(name);
    if (modules === undefined) {
      const table = directiveModules(name);
      // definingModule gives null or table[0] (or cgi/cgid): nothing to plan when that is built in or there
      modules = table && !table.some(isMpm) && !table.some((m) => this.have.has(m)) && (cgiOrCgid(table) || this.open(table[0])) ? table : null;
      this.byName.set(name, modules);
    }
    return modules;
  }

  private openNeeds(all: readonly Need[]): readonly Need[] {
    return all.length === 0 ? all : all.filter((n) => this.open(n.module));
  }

  visit(file: SourceFile, container: { readonly body: readonly Node[] }, tests: readonly ModuleTest[]): void {
    for (const node of container.body) {
      if (node.kind === 'directive') {
        const modules = this.modulesOf(node.lowerName);
        const needs = this.openNeeds(argumentNeeds(node));
        if (modules || needs.length > 0) this.out.push({ node, file, tests, modules, needs });
      } else if (node.kind === 'section') {
        const ifModule = node.lowerName === 'ifmodule';
        if (!ifModule) {
          const needs = this.openNeeds(sectionNeeds(node));
          if (needs.length > 0) this.out.push({ node, file, tests, modules: null, needs });
        }
        if (sectionIsTwoTwoOnly(node)) continue;
        if (ifModule) {
          const test = readIfModule(node.values);
          this.visit(file, node, [...tests, { id: test.form !== 'other' && test.id ? test.id : null, negated: test.negated }]);
        } else {
          this.visit(file, node, tests);
        }
      }
    }
  }
}

const cgiOrCgid = (modules: readonly string[]) => modules.includes('cgi') && modules.includes('cgid');

/** Needs of the directives and sections the migrated tree uses, with their IfModule tests evaluated on `loaded`. */
function directiveNeeds(files: readonly SourceFile[], present: ReadonlySet<string>, assumed: ReadonlySet<string>, mpm: string): Map<string, string> {
  const planned = new Map<string, string>();
  // `have`: what needs no line (loaded, built in); `on`: what <IfModule> tests see (also modules assumed built in)
  const have = new Set(present);
  const on = new Set([...present, ...assumed]);
  // reasons are written only for what gets planned: most lines need nothing new
  const plan = (module: string, reason: () => string): void => {
    if (ALWAYS_BUILTIN.has(module) || have.has(module) || isMpm(module)) return;
    planned.set(module, reason());
    have.add(module);
    on.add(module);
  };
  const where = (node: Node, file: SourceFile) => `line ${node.line} of ${file.displayPath}`;
  const lines = candidates(files, have);
  // a module planned for one directive can turn an <IfModule> true for others: repeat until stable
  for (let round = 0; round < 5; round++) {
    const before = planned.size;
    for (const { node, file, tests, modules, needs } of lines) {
      if (!testsHold(tests, on)) continue;
      if (modules) {
        const module = definingModule(modules, have, mpm);
        if (module) plan(module, () => `${node.name} (${where(node, file)}) is defined by mod_${module}`);
      }
      for (const n of needs) plan(n.module, () => `${n.reason} (${where(node, file)})`);
    }
    if (planned.size === before) break;
  }
  return planned;
}

function probeFor(ctx: TransformContext, server: ServerTree): HttpdProbe | null {
  if (!ctx.options.httpd) return null;
  try {
    return probeHttpd(ctx.options.httpd);
  } catch (error) {
    const file = server.main ?? server.files[0];
    ctx.noteIn(file, null, 'httpd-probe-failed', `--httpd ${ctx.options.httpd} could not be probed (${error instanceof Error ? error.message : String(error)}); new LoadModule lines are guarded instead`, 'review');
    return null;
  }
}

/** Whether a LoadModule already sits in `<IfModule !its_module>` (or `!mod_its.c`). */
function isGuarded(d: Directive, id: string): boolean {
  return ancestors(d).some((s) => {
    if (!s.is('IfModule')) return false;
    const test = readIfModule(s.values);
    return test.negated && test.id === id;
  });
}

/** Guards existing LoadModule lines of modules built into the target (probed) or into some 2.4 builds. */
function guardBuiltinLoads(loads: readonly LoadLine[], probe: HttpdProbe | null, ctx: TransformContext): void {
  for (const l of loads) {
    const builtin = probe ? probe.builtins.has(l.id) : MAYBE_BUILTIN.has(l.id);
    if (!builtin || ALWAYS_BUILTIN.has(l.id) || isGuarded(l.directive, l.id)) continue;
    const [content] = splitLineEnd(l.directive.raw);
    replaceWith(l.directive, [`<IfModule !${l.id}_module>`, { text: content.slice(l.directive.indent.length), depth: 1 }, '</IfModule>']);
    ctx.noteIn(
      l.file,
      l.directive,
      'module-builtin-guarded',
      probe
        ? `${l.id}_module is compiled into ${probe.binary}; loading a built-in module is fatal in 2.4 ("module ${l.id}_module is built-in and can't be loaded"), so the line is guarded with <IfModule !${l.id}_module>`
        : `${l.id}_module is compiled into some 2.4 builds (Debian's) and loading a built-in module is fatal there ("module ${l.id}_module is built-in and can't be loaded"), so the line is guarded with <IfModule !${l.id}_module>`,
      'info',
    );
  }
}

/** Reports LoadModule lines of standard modules whose file the probed httpd does not have. */
function reportNotInstalled(loads: readonly LoadLine[], probe: HttpdProbe, ctx: TransformContext): void {
  for (const l of loads) {
    if (classify(l.id) !== 'standard' || probe.builtins.has(l.id)) continue;
    const path = l.directive.values[1] ?? '';
    const file = path.slice(path.lastIndexOf('/') + 1) || moduleFile(l.id);
    if (probe.moduleFiles.has(file)) continue;
    ctx.noteIn(
      l.file,
      l.directive,
      'module-not-installed',
      probe.moduleDir
        ? `${probe.binary} has no ${file} in ${probe.moduleDir}: install the package that provides mod_${l.id} for this httpd before starting it`
        : `no module directory found for ${probe.binary}: check that ${file} is installed`,
      'manual',
    );
  }
}

/**
 * `<IfModule>` is evaluated while the file is read: a module tested before the site must be loaded before
 * the test (Debian's and RHEL's 2.2 files set the MPM in `<IfModule mpm_prefork_module>` / `<IfModule prefork.c>`
 * above their LoadModule lines). Returns the top-level node of the site's file to insert before — the first
 * one that tests `id`, moved up over the comment block that introduces it — or null when no test precedes the site.
 */
function earlierTest(site: Site, id: string): Node | null {
  const top = site.file.tree.body;
  const end = top.indexOf(site.after);
  for (let i = 0; i < end; i++) {
    const node = top[i];
    const tests = [node, ...(node.kind === 'section' ? walk(node as Section) : [])].some(
      (n) => n.kind === 'section' && (n as Section).is('IfModule') && !isTwoTwoOnly(n) && readIfModule((n as Section).values).id === id,
    );
    if (!tests) continue;
    let start = i;
    while (start > 0 && top[start - 1].kind === 'comment') start--;
    return top[start];
  }
  return null;
}

function newLines(id: string, path: string, guarded: boolean): NewLine[] {
  const load = `LoadModule ${id}_module ${path}`;
  if (!guarded) return [load];
  if (isMpm(id)) {
    // only one MPM may be loaded: load this one when no MPM is there yet (built in or loaded)
    const others = MPMS.filter((m) => m !== id);
    return [
      ...others.map((m, i) => ({ text: `<IfModule !${m}_module>`, depth: i })),
      { text: `<IfModule !${id}_module>`, depth: others.length },
      { text: load, depth: others.length + 1 },
      { text: '</IfModule>', depth: others.length },
      ...others.map((m, i) => ({ text: '</IfModule>', depth: others.length - 1 - i })),
    ];
  }
  return [`<IfModule !${id}_module>`, { text: load, depth: 1 }, '</IfModule>'];
}

/** Modules that files placed as if included need: reported on the file, for when it is switched on. */
function reportLaterNeeds(server: ServerTree, later: ReadonlyMap<string, { reason: string; file: string }>, covered: (id: string) => boolean, ctx: TransformContext): void {
  for (const [id, need] of later) {
    if (covered(id) || ALWAYS_BUILTIN.has(id)) continue;
    const file = server.files.find((f) => f.displayPath === need.file) ?? server.files[0];
    ctx.noteIn(
      file,
      null,
      'module-needed-when-enabled',
      `this file is not read by the server today (${file.asIf ?? 'placed as if included'}); when it is switched on, 2.4 needs ${id}_module loaded (${need.reason})`,
      'info',
    );
  }
}

export const loadModules: Transform = {
  id: 'load-modules',
  title: 'Load the modules that migrated directives need',
  row: 'Modules: LoadModule lines for modules 2.4 needs (planned once per server; MPM; renamed and new modules)',
  order: 9000,
  applyServer(server, ctx) {
    const probe = probeFor(ctx, server);
    const loads = loadLines(server);
    const whole = isWholeServer(server, ctx.options);
    guardBuiltinLoads(loadLines(server, true), probe, ctx);
    // guarding replaced some lines: the site is looked for among the lines as they are now
    if (probe) reportNotInstalled(loads, probe, ctx);

    const loaded = new Set(loads.map((l) => l.id));
    const builtin = probe ? probe.builtins : ALWAYS_BUILTIN;
    const present = (id: string) => loaded.has(id) || builtin.has(id) || ALWAYS_BUILTIN.has(id);

    // what to load, in order: requests first (as asked), then the MPM, then what directives need
    const wanted = new Map<string, { reason: string; file: string | null }>();
    const virtualPaths = new Set(server.files.filter(isVirtual).map((f) => f.displayPath));
    const laterWanted = new Map<string, { reason: string; file: string }>();
    for (const r of ctx.moduleRequests) {
      if (virtualPaths.has(r.file)) {
        if (!laterWanted.has(r.module)) laterWanted.set(r.module, { reason: r.reason, file: r.file });
      } else if (!wanted.has(r.module)) wanted.set(r.module, { reason: r.reason, file: r.file });
    }
    let mpm: string | null = null;
    if (whole) {
      const hasMpm = [...loaded, ...builtin].some(isMpm);
      mpm = `mpm_${ctx.options.mpm ?? 'prefork'}`;
      if (!hasMpm) wanted.set(mpm, { reason: 'mpm', file: null });
      // for <IfModule> tests: what is loaded, built in (assumed so for Debian's built-ins without a probe), the MPM,
      // and what transforms asked for (it will be loaded: access-dual-version decided <IfModule mod_authz_core.c> on that)
      const presentNow = new Set<string>([...loaded, ...builtin, ...(hasMpm ? [] : [mpm]), ...wanted.keys()]);
      const assumed = new Set<string>(probe ? [] : MAYBE_BUILTIN);
      // per-directory files count, except those AllowOverride None keeps httpd from opening
      // a --context file is a working 2.4 config: what its own lines need is loaded already
      const unread = unreadPerDirectoryFiles(server);
      const read = server.files.filter((f) => !isVirtual(f) && !unread.has(f) && f.role !== 'context');
      // a main config written for 2.4 that loads none of the modules some builds compile in (unixd, log_config …)
      // runs on such a build (Debian's 2.4 apache2.conf): they need no line; everything else still does
      const builtHere = server.main?.writtenFor24 && !probe ? MAYBE_BUILTIN : new Set<string>();
      for (const [module, reason] of directiveNeeds(read, new Set([...presentNow, ...builtHere]), assumed, mpm)) {
        if (!wanted.has(module)) wanted.set(module, { reason, file: null });
      }
      const virtual = server.files.filter(isVirtual);
      if (virtual.length > 0) {
        const withPlanned = new Set([...presentNow, ...wanted.keys()]);
        for (const [module, reason] of directiveNeeds(virtual, withPlanned, assumed, mpm)) {
          // the reason names the line: "X (line 9 of F) is defined by mod_y", "… provided by mod_y (line 41 of F)"
          const file = /\(line \d+ of ([^()]*)\)/.exec(reason)?.[1] ?? virtual[0].displayPath;
          if (!laterWanted.has(module)) laterWanted.set(module, { reason, file });
        }
      }
      // modules the 2.2 config loads may need others on 2.4 (proxy_balancer → slotmem_shm)
      for (const l of loads) {
        for (const dep of dependencies(l.id)) {
          if (!present(dep) && !wanted.has(dep)) wanted.set(dep, { reason: `mod_${l.id} (loaded at line ${l.directive.line} of ${l.file.displayPath}) needs mod_${dep} on 2.4`, file: null });
        }
      }
      // 2.2 checked access in its core; a 2.4 server without mod_authz_core answers 500 to every request
      // (AH00025 "couldn't check user", measured on 2.4.71), access lines or not
      if (!server.main?.writtenFor24 && !present('authz_core') && !wanted.has('authz_core'))
        wanted.set('authz_core', { reason: '2.2 checked access in its core: without mod_authz_core httpd 2.4 answers 500 to every request (AH00025)', file: null });
    }
    const missing: string[] = [];
    const add = (id: string, depth: number) => {
      if (present(id) || missing.includes(id) || depth > 4) return;
      for (const dep of dependencies(id)) {
        if (!present(dep) && !wanted.has(dep)) wanted.set(dep, { reason: `mod_${id} needs mod_${dep} loaded first`, file: null });
        add(dep, depth + 1);
      }
      missing.push(id);
    };
    for (const id of wanted.keys()) add(id, 0);
    reportLaterNeeds(server, laterWanted, (id) => present(id) || wanted.has(id) || missing.includes(id), ctx);
    if (missing.length === 0) return;

    const found = findSite(server, loadLines(server), whole, probe);
    // a --context file is read, never written: what it lacks is reported against it
    const site = found && found.file.role === 'context' ? null : found;
    if (found && !site) {
      // without a probe, the context's httpd is taken to have what some 2.4 builds compile in
      for (const id of missing.filter((m) => probe !== null || !MAYBE_BUILTIN.has(m))) {
        const w = wanted.get(id)!;
        ctx.planModule({ module: id, action: 'needed', reason: w.reason, file: found.file.displayPath });
        ctx.noteIn(found.file, null, 'module-needed', `the migrated files need ${id}_module on 2.4 (${w.reason}); this context config does not load it, and the run does not write it`, 'manual');
      }
      return;
    }
    if (!site) {
      for (const id of missing) {
        const w = wanted.get(id)!;
        const file = server.files.find((f) => f.displayPath === w.file) ?? server.files[0];
        ctx.planModule({ module: id, action: 'needed', reason: w.reason, file: file.displayPath });
        ctx.noteIn(
          file,
          null,
          'module-needed',
          server.main
            ? `load ${id}_module on 2.4 (${w.reason}); this server has no LoadModule lines to add it beside`
            : `the main config must load ${id}_module on 2.4 (${w.reason}); it was not part of this run`,
          server.main ? 'manual' : 'review',
        );
      }
      return;
    }
    // MPM first: <IfModule mpm_*> sections and other modules' checks may follow right away
    missing.sort((a, b) => Number(isMpm(b)) - Number(isMpm(a)));
    const lines: NewLine[] = [];
    const early = new Map<Node, NewLine[]>();
    for (const id of missing) {
      const built = newLines(id, `${site.prefix}${moduleFile(id)}`, !probe);
      const before = earlierTest(site, id);
      if (before) early.set(before, [...(early.get(before) ?? []), ...built]);
      else lines.push(...built);
      const w = wanted.get(id)!;
      ctx.planModule({ module: id, action: 'load', reason: w.reason === 'mpm' ? 'the MPM (compiled into 2.2, a module in 2.4)' : w.reason, file: site.file.displayPath });
      const debian = site.debian ? ` (Debian: \`a2enmod ${id.replace(/^mpm_/, 'mpm_')}\` does this through mods-enabled/)` : '';
      if (isMpm(id) && w.reason === 'mpm') {
        ctx.noteIn(
          site.file,
          null,
          'mpm-loaded',
          `httpd 2.2 had its MPM compiled in, 2.4 loads it as a module: loads ${id}_module (choose with --mpm prefork|worker|event; ` +
            `prefork matches 2.2's default and non-thread-safe modules such as mod_php)${debian}`,
          'review',
        );
      } else {
        ctx.noteIn(site.file, null, 'module-loaded', `loads ${id}_module: ${w.reason}${debian}`, 'info');
      }
      if (probe && !probe.moduleFiles.has(moduleFile(id))) {
        ctx.noteIn(
          site.file,
          null,
          'module-not-installed',
          `${probe.binary} has no ${moduleFile(id)}${probe.moduleDir ? ` in ${probe.moduleDir}` : ''}: install the package that provides mod_${id} before starting it`,
          'manual',
        );
      }
    }
    for (const [before, block] of early) insertBefore(before, [...block, '']);
    if (lines.length > 0) insertAfter(site.after, lines);
  },
};
