/**
 * Reads what decides URL → filesystem mapping from a server's files: per context (the main server and
 * each `<VirtualHost>`), its server-level directives in config order, the directives inside its
 * `<Location>` sections, and each line's certainty under conditional sections.
 *
 * The top level of every file is read as the main server (an `Include` inside a `<VirtualHost>` is not
 * visible in a list of files: its lines count as main-server lines, which apply to every host).
 * Per-directory files and `<Directory>` / `<Files>` / `<Proxy>` contents are not read: what they hold
 * acts after the directory walk (per-directory RewriteRule and Redirect run in the fixups phase).
 */
import { ConfigFile, Directive, Section, holdsAny } from '../../cst';
import { SourceFile } from '../../server/types';
import { both, Certainty, CERTAIN, ConditionContext, conditionOf, Version } from './conditions';
import { isMappingDirective } from './directive-kinds';
import { locationUrlSet, ReadSet } from './url-sets';
import { mainServerServes } from './listen-cover';
import { urlPatternOf } from './section-patterns';

export interface Entry {
  readonly d: Directive;
  readonly file: SourceFile;
  readonly cert: Certainty;
}

export interface LocationEntry extends Entry {
  /** The URLs the enclosing `<Location>` matches. */
  readonly loc: ReadSet;
  readonly locSection: Section;
}

export interface ContextFacts {
  /** The `<VirtualHost>`, or null for the main server. */
  readonly section: Section | null;
  /** Where causes about the context as a whole point: the vhost's line, or the main config (line 0). */
  readonly file: SourceFile;
  readonly line: number;
  readonly directives: readonly Entry[];
  /** Directives inside `<Location>` / `<LocationMatch>` sections of this context, in config order. */
  readonly inLocations: readonly LocationEntry[];
  /** One-argument mapping directives inside `<If>` / `<ElseIf>` / `<Else>` (evaluated at translate time on 2.4). */
  readonly inIfs: readonly Entry[];
}

export interface ServerFacts {
  readonly main: ContextFacts;
  readonly vhosts: ReadonlyMap<Section, ContextFacts>;
  /** Module ids the server surely loads. */
  readonly loaded: ReadonlySet<string>;
  /** `<Macro>` names (lowercase) whose body holds a mapping directive. */
  readonly mappingMacros: ReadonlySet<string>;
  readonly macros: ReadonlySet<string>;
  /** Some line sets the `no-proxy` environment variable (which makes ProxyPass decline). */
  readonly noProxyEnv: boolean;
  readonly serverRoot: string | null;
  readonly version: Version;
  /** Whether the main server may answer a request: some Listen address no virtual host covers (see listen-cover.ts). */
  readonly mainServes: boolean;
}

const LOCATION_SECTIONS = new Set(['location', 'locationmatch']);
const SKIPPED_SECTIONS = new Set(['directory', 'directorymatch', 'files', 'filesmatch', 'proxy', 'proxymatch', 'limit', 'limitexcept', 'macro']);
const IF_SECTIONS = new Set(['if', 'elseif', 'else']);

function locationPattern(section: Section): ReadSet {
  return locationUrlSet(urlPatternOf(section) ?? { kind: 'prefix', path: '' });
}

interface Builder {
  directives: Entry[];
  inLocations: LocationEntry[];
  inIfs: Entry[];
}

function newBuilder(): Builder {
  return { directives: [], inLocations: [], inIfs: [] };
}

interface Walk {
  readonly ctx: ConditionContext;
  readonly main: Builder;
  readonly vhosts: Map<Section, { builder: Builder; file: SourceFile; cert: Certainty }>;
  readonly vhostOrder: Section[];
}

function visitLocation(section: Section, file: SourceFile, cert: Certainty, loc: ReadSet, into: Builder, walk: Walk): void {
  for (const node of section.body) {
    if (node.kind === 'directive') into.inLocations.push({ d: node, file, cert, loc, locSection: section });
    else if (node.kind === 'section') {
      const c = conditionOf(node, file, walk.ctx);
      if (c && c.kind !== 'no') visitLocation(node, file, both(cert, c), loc, into, walk);
      else if (node.is('If', 'ElseIf', 'Else')) visitIf(node, file, cert, into, walk);
    }
  }
}

function visitIf(section: Section, file: SourceFile, cert: Certainty, into: Builder, walk: Walk): void {
  for (const node of section.body) {
    if (node.kind === 'directive') into.inIfs.push({ d: node, file, cert });
    else if (node.kind === 'section') {
      const c = conditionOf(node, file, walk.ctx);
      if (c && c.kind !== 'no') visitIf(node, file, both(cert, c), into, walk);
      else if (IF_SECTIONS.has(node.lowerName)) visitIf(node, file, cert, into, walk);
    }
  }
}

function visitServer(container: Section | ConfigFile, file: SourceFile, cert: Certainty, into: Builder, walk: Walk, inVhost: boolean): void {
  for (const node of container.body) {
    if (node.kind === 'directive') {
      into.directives.push({ d: node, file, cert });
      continue;
    }
    if (node.kind !== 'section') continue;
    const name = node.lowerName;
    const c = conditionOf(node, file, walk.ctx);
    if (c) {
      if (c.kind !== 'no') visitServer(node, file, both(cert, c), into, walk, inVhost);
    } else if (name === 'virtualhost' && !inVhost) {
      const builder = newBuilder();
      walk.vhosts.set(node, { builder, file, cert });
      walk.vhostOrder.push(node);
      visitServer(node, file, cert, builder, walk, true);
    } else if (LOCATION_SECTIONS.has(name)) visitLocation(node, file, cert, locationPattern(node), into, walk);
    else if (IF_SECTIONS.has(name)) visitIf(node, file, cert, into, walk);
    else if (SKIPPED_SECTIONS.has(name)) continue;
  }
}

function facts(section: Section | null, file: SourceFile, line: number, b: Builder): ContextFacts {
  return { section, file, line, directives: b.directives, inLocations: b.inLocations, inIfs: b.inIfs };
}

/**
 * LoadModule ids at certain places, given what is known loaded so far: the lines visitServer would
 * file as the main server's or a virtual host's own with certainty `yes`, found by the same descent
 * without building its entries (the fixpoint below walks every file several times).
 */
const LOAD_MODULE = ['loadmodule'];

function loadedModules(files: readonly SourceFile[], ctx: ConditionContext): Set<string> {
  const ids = new Set<string>();
  // only LoadModule lines add to the set: a file without one is not walked
  for (const file of files) if (file.role !== 'htaccess' && holdsAny(file.tree, LOAD_MODULE, [])) collectLoaded(file.tree, file, true, false, ctx, ids);
  return ids;
}

/** loadedModules' descent (module-level, not a closure per call: V8 optimizes it once per run). */
function collectLoaded(container: Section | ConfigFile, file: SourceFile, certain: boolean, inVhost: boolean, ctx: ConditionContext, ids: Set<string>): void {
  for (const node of container.body) {
    if (node.kind === 'directive') {
      if (certain && node.lowerName === 'loadmodule' && node.values[0]) ids.add(node.values[0].replace(/_module$/, ''));
      continue;
    }
    if (node.kind !== 'section') continue;
    const c = conditionOf(node, file, ctx);
    if (c) {
      if (c.kind !== 'no') collectLoaded(node, file, certain && c.kind === 'yes', inVhost, ctx, ids);
    } else if (node.lowerName === 'virtualhost' && !inVhost) collectLoaded(node, file, certain, true, ctx, ids);
  }
}

function walkFiles(files: readonly SourceFile[], ctx: ConditionContext): Walk {
  const walk: Walk = { ctx, main: newBuilder(), vhosts: new Map(), vhostOrder: [] };
  for (const file of files) {
    if (file.role === 'htaccess') continue;
    visitServer(file.tree, file, CERTAIN, walk.main, walk, false);
  }
  return walk;
}

/** Every `<Macro>` in the files, and whether its body (outside nested virtual hosts) maps URLs. */
function readMacros(files: readonly SourceFile[]): { all: Set<string>; mapping: Set<string> } {
  const macros = { all: new Set<string>(), mapping: new Set<string>() };
  for (const f of files) if (f.role !== 'htaccess') collectMacros(f.tree, macros);
  return macros;
}

function holdsMapping(s: Section): boolean {
  return s.body.some((n) => (n.kind === 'directive' ? isMappingDirective(n) : n.kind === 'section' && !n.is('VirtualHost') && holdsMapping(n)));
}

/** readMacros' walk (module-level: V8 optimizes it once per run). */
function collectMacros(container: Section | ConfigFile, into: { all: Set<string>; mapping: Set<string> }): void {
  for (const node of container.body) {
    if (node.kind !== 'section') continue;
    if (node.is('Macro')) {
      const name = (node.values[0] ?? '').toLowerCase();
      into.all.add(name);
      if (holdsMapping(node)) into.mapping.add(name);
    } else collectMacros(node, into);
  }
}

export interface ReadOptions {
  readonly version?: Version;
  /** ServerRoot when the files do not set it (relative paths are read against it). */
  readonly serverRoot?: string;
}

export function readServer(files: readonly SourceFile[], options: ReadOptions = {}): ServerFacts {
  const version = options.version ?? 'both';
  // LoadModule lines decide <IfModule>, which may hide LoadModule lines: read until it settles
  let loaded = new Set<string>();
  for (let round = 0; round < 4; round++) {
    const next = loadedModules(files, { loaded, version });
    if (next.size === loaded.size) break;
    loaded = next;
  }
  const walk = walkFiles(files, { loaded, version });
  const mainFile = files.find((f) => f.role === 'main') ?? files[0];
  const vhosts = new Map<Section, ContextFacts>();
  for (const section of walk.vhostOrder) {
    const v = walk.vhosts.get(section)!;
    vhosts.set(section, facts(section, v.file, section.line, v.builder));
  }
  let serverRoot: string | null = options.serverRoot ?? null;
  for (const e of walk.main.directives) if (e.d.is('ServerRoot') && e.cert.kind === 'yes' && e.d.values[0]) serverRoot = e.d.values[0];
  const noProxyEnv = files.some((f) => f.role !== 'htaccess' && /no-proxy/i.test(f.original));
  const macros = readMacros(files);
  const sureVhosts = walk.vhostOrder.filter((v) => walk.vhosts.get(v)!.cert.kind === 'yes');
  const mainServes = mainServerServes(walk.main.directives, sureVhosts, walk.vhostOrder.length);
  return {
    main: facts(null, mainFile, 0, walk.main),
    vhosts,
    loaded,
    mappingMacros: macros.mapping,
    macros: macros.all,
    noProxyEnv,
    serverRoot,
    version,
    mainServes,
  };
}

/** Facts for a `<VirtualHost>` the files did not show (a section from elsewhere): read from the section itself. */
export function readVirtualHost(section: Section, file: SourceFile, server: ServerFacts): ContextFacts {
  const walk: Walk = { ctx: { loaded: server.loaded, version: server.version }, main: newBuilder(), vhosts: new Map(), vhostOrder: [] };
  visitServer(section, file, CERTAIN, walk.main, walk, true);
  return facts(section, file, section.line, walk.main);
}
