/**
 * Where access rules live in a server and how scopes can inherit from each
 * other at request time (httpd's merge order: server defaults, vhost
 * defaults, <Directory> by path depth with each directory's .htaccess,
 * regex directories, <Files>, then <Location> / <Proxy>).
 *
 * Two conservative relations drive the migration:
 * - mayPrecede(a, b): for some request, a is merged before b;
 * - surelyPrecedes(a, b): whenever b applies, a applies and comes first.
 * When they cannot be told apart from the text (patterns, unknown paths),
 * "may" answers yes and "surely" answers no.
 *
 * Which filesystem sections a <Location> meets is a fact of the URL space
 * (DocumentRoot, Alias, UserDir, RewriteRule …): a `SectionMeetings` oracle
 * built from the whole server answers it (null: every pair may meet, none
 * surely). Per-directory files are scopes of their server, read for the
 * directory the config names (`file.directory`). A file no Include reaches,
 * migrated as if included (`file.asIf`), may precede the others but never
 * surely: the server does not read it today.
 */
import { ConfigFile, Section } from '../../cst';
import { SourceFile } from '../../server/types';
import { sectionIsTwoTwoOnly } from '../version-guards';
import { ReadResult, readScopeRules } from './read-rules';
import { SCOPE_SECTIONS } from './scope-sections';
import { Authz24Read, readAuthz24 } from './read-authz24';
import { wrapperVerdict } from './wrappers';
import { globMatch } from '../url-space/glob';
import { FsPattern as FsSection, Meeting, UrlPattern as UrlSection } from '../url-space/types';

export type ScopeKind = 'server' | 'vhost' | 'directory' | 'htaccess' | 'directory-regex' | 'files' | 'location' | 'proxy';

const RANK: Record<ScopeKind, number> = {
  server: 0,
  vhost: 1,
  directory: 2,
  htaccess: 2,
  'directory-regex': 3,
  files: 4,
  location: 5,
  proxy: 5,
};

/** What the URL-space model is told and answers (src/semantics/url-space/types.ts). */
export type { Cause as MeetingCause, FsPattern as FsSection, Meeting, UrlPattern as UrlSection } from '../url-space/types';
/** Which filesystem sections a URL section meets on one request (src/semantics/url-space). */
export interface SectionMeetings {
  meets(loc: UrlSection, locVhost: Section | null, fs: FsSection, fsVhost: Section | null): Meeting;
  /** The hosts that answer requests: null (the main server, when some Listen address is not a virtual host's) and each <VirtualHost>. */
  readonly hosts: readonly (Section | null)[];
}

const EVERY_URL: UrlSection = { kind: 'prefix', path: '/' };

/** Whether some URL of `host` (null: any host) may map into the directory a per-directory file is read for. */
function hostReaches(space: SectionMeetings, host: Section | null, dir: string): boolean {
  return space.meets(EVERY_URL, host, { kind: 'htaccess', dir }, null).may;
}

/** A per-directory file's directory is reached by no host but `vhost` (so that host's sections apply whenever it does). */
function onlyHostReaching(vhost: Section, b: AccessScope): boolean {
  const space = b.space;
  if (!space || b.kind !== 'htaccess' || b.path === null || b.vhost !== null) return false;
  return space.hosts.every((h) => h === vhost || (h !== null && !hostReaches(space, h, b.path as string)));
}

export interface AccessScope {
  readonly file: SourceFile;
  readonly container: Section | ConfigFile;
  readonly kind: ScopeKind;
  /**
   * Literal path or URL for directory/location/files scopes without patterns, the directory a
   * per-directory file is read for; null otherwise.
   */
  readonly path: string | null;
  /** The enclosing <VirtualHost>, or null at main-server level (unknown for included fragments). */
  readonly vhost: Section | null;
  /** Textually enclosing scope (a <Files> inside a <Directory>), or null. */
  readonly enclosing: AccessScope | null;
  /** Position in the server's config order (files in include order, then line order). */
  readonly order: number;
  /** The top level of a main config (applies to every request of the server). */
  readonly isMainServer: boolean;
  readonly read: ReadResult;
  /** The scope's mod_authz_core configuration as 2.4 reads it (mixed configs). */
  readonly authz: Authz24Read;
  /** The server's URL space, shared by all its scopes (null: unknown). */
  readonly space: SectionMeetings | null;
}

const WILDCARD = /[*?[]/;

function kindOf(section: Section): ScopeKind | null {
  const lower = section.lowerName;
  if (!SCOPE_SECTIONS.has(lower)) return null;
  const regex = section.values[0] === '~' || lower.endsWith('match');
  if (lower.startsWith('directory')) return regex ? 'directory-regex' : 'directory';
  if (lower.startsWith('location')) return 'location';
  if (lower.startsWith('files')) return 'files';
  if (lower.startsWith('proxy')) return 'proxy';
  return 'vhost';
}

function literalPath(section: Section, kind: ScopeKind): string | null {
  const values = section.values;
  const lower = section.lowerName;
  if (values.length !== 1 || lower.endsWith('match') || kind === 'vhost') return null;
  const path = values[0];
  if (WILDCARD.test(path)) return null;
  return path;
}

/** What collectScopes carries down its walk. */
interface Collecting {
  readonly scopes: AccessScope[];
  readonly file: SourceFile;
  readonly space: SectionMeetings | null;
  order: number;
}

/** A module-level walk (not a closure per file): V8 keeps one optimized copy of it. */
function collectSections(container: Section | ConfigFile, enclosing: AccessScope, vhost: Section | null, into: Collecting): void {
  for (const node of container.body) {
    if (node.kind !== 'section') continue;
    if (sectionIsTwoTwoOnly(node)) continue;
    if (wrapperVerdict(node)?.kind === 'dead') continue;
    const kind = kindOf(node);
    if (!kind) {
      // transparent wrappers (<IfModule>, <IfDefine>, <Limit>…) are read as part of the scope or walked through
      if (!node.is('Limit', 'LimitExcept')) collectSections(node, enclosing, vhost, into);
      continue;
    }
    const scope: AccessScope = {
      file: into.file,
      container: node,
      kind,
      path: literalPath(node, kind),
      vhost: kind === 'vhost' ? node : vhost,
      enclosing,
      order: into.order++,
      isMainServer: false,
      read: readScopeRules(node),
      authz: readAuthz24(node),
      space: into.space,
    };
    into.scopes.push(scope);
    collectSections(node, scope, scope.vhost, into);
  }
}

/** Collects every scope of a server in config order, with its own rules. */
export function collectScopes(files: readonly SourceFile[], space: SectionMeetings | null = null): AccessScope[] {
  const scopes: AccessScope[] = [];
  let order = 0;
  for (const file of files) {
    const top: AccessScope = {
      file,
      container: file.tree,
      kind: file.role === 'htaccess' ? 'htaccess' : 'server',
      path: file.role === 'htaccess' ? (file.directory ?? null) : null,
      vhost: null,
      enclosing: null,
      order: order++,
      isMainServer: file.role === 'main' || (file.role === 'context' && order === 1),
      read: readScopeRules(file.tree),
      authz: readAuthz24(file.tree),
      space,
    };
    scopes.push(top);
    const into: Collecting = { scopes, file, space, order };
    collectSections(file.tree, top, null, into);
    order = into.order;
  }
  return scopes;
}

/** A <Directory> argument (or a per-directory file's directory) as components; wildcards stay in theirs. */
function dirPattern(s: AccessScope): string[] | null {
  if (s.kind === 'htaccess') return s.path === null ? null : components(s.path);
  if (s.kind !== 'directory' || s.container.kind !== 'section') return null;
  const value = s.container.values[0];
  return value === undefined ? null : components(value);
}

function components(p: string): string[] {
  return p.split('/').filter((c) => c !== '');
}

/** One component of a <Directory> pattern against another (fnmatch per component; two patterns may always meet). */
function componentsMeet(a: string, b: string): boolean {
  const wa = WILDCARD.test(a);
  const wb = WILDCARD.test(b);
  if (!wa && !wb) return a === b;
  if (wa && wb) return true;
  return globMatch(wa ? a : b, wa ? b : a);
}


/** Some directory matched by one pattern lies at or below some directory matched by the other. */
function dirPatternsMeet(a: readonly string[], b: readonly string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (!componentsMeet(a[i], b[i])) return false;
  return true;
}

/** Every directory `b` matches lies at or below the one literal directory `a` names. */
function dirPatternCovers(a: readonly string[], b: readonly string[]): boolean {
  if (a.some((c) => WILDCARD.test(c)) || a.length > b.length) return false;
  return a.every((c, i) => c === b[i]);
}

/** Component-wise path prefix: /var/www is a prefix of /var/www/x but not of /var/wwwx. */
function pathPrefix(a: string, b: string): boolean {
  const strip = (p: string) => p.replace(/\/+$/, '');
  const pa = strip(a);
  const pb = strip(b);
  return pa === '' || pb === pa || pb.startsWith(pa + '/');
}

function samePath(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

function overlap(a: string | null, b: string | null, componentWise: boolean): boolean {
  if (a === null || b === null) return true;
  if (componentWise) return pathPrefix(a, b) || pathPrefix(b, a);
  return a.startsWith(b) || b.startsWith(a);
}

function isEnclosedBy(inner: AccessScope, outer: AccessScope): boolean {
  for (let s = inner.enclosing; s; s = s.enclosing) if (s === outer) return true;
  return false;
}

/** A scope of a file the server does not read today (migrated as if included). */
function isVirtual(s: AccessScope): boolean {
  return s.file.asIf !== undefined;
}


/** What the URL-space oracle is told about a directory-like scope, or null when it is not confined to a directory. */
function fsSection(s: AccessScope): FsSection | null {
  if (s.kind === 'htaccess' && s.path !== null) return { kind: 'htaccess', dir: s.path };
  if (s.kind === 'directory' && s.container.kind === 'section') {
    const value = s.container.values[0];
    return value !== undefined ? { kind: 'dir', path: value } : null;
  }
  if (s.kind === 'directory-regex' && s.container.kind === 'section') {
    const values = s.container.values;
    const source = values[0] === '~' ? values[1] : values[0];
    return source !== undefined ? { kind: 'dir-regex', source } : null;
  }
  if (s.kind === 'files' && s.enclosing) return fsSection(s.enclosing);
  return null;
}

function urlSection(s: AccessScope): UrlSection | null {
  if (s.kind !== 'location' || s.container.kind !== 'section') return null;
  const values = s.container.values;
  if (s.container.is('LocationMatch')) return values[0] !== undefined ? { kind: 'regex', source: values[0] } : null;
  if (values[0] === '~') return values[1] !== undefined ? { kind: 'regex', source: values[1] } : null;
  return values[0] !== undefined ? { kind: 'prefix', path: values[0] } : null;
}

/**
 * Answers per location and directory-like scope: planning asks about one pair many times (once per
 * part of the access configuration, again for the merge order of each combination), and the
 * answer depends only on the two sections and the server's URL space.
 */
const meetings = new WeakMap<AccessScope, Map<AccessScope, Meeting | null>>();

/** The URL-space answer for a directory-like scope and a location, or null when the oracle cannot be asked. */
export function meeting(dirLike: AccessScope, location: AccessScope): Meeting | null {
  let byDir = meetings.get(location);
  if (!byDir) meetings.set(location, (byDir = new Map()));
  let met = byDir.get(dirLike);
  if (met === undefined) byDir.set(dirLike, (met = askSpace(dirLike, location)));
  return met;
}

function askSpace(dirLike: AccessScope, location: AccessScope): Meeting | null {
  const space = location.space;
  if (!space) return null;
  const fs = fsSection(dirLike);
  const url = urlSection(location);
  if (!fs || !url) return null;
  return space.meets(url, location.vhost, fs, dirLike.vhost);
}

/** Two directory-like scopes confined to unrelated paths never apply to one request. */
function disjointRegions(a: AccessScope, b: AccessScope): boolean {
  const ra = regionPattern(a);
  const rb = regionPattern(b);
  return ra !== null && rb !== null && !dirPatternsMeet(ra, rb);
}

/** Like region(), with wildcards: the components of the <Directory> (or per-directory file) a scope is confined to. */
function regionPattern(s: AccessScope): string[] | null {
  for (let c: AccessScope | null = s; c; c = c.enclosing) {
    if (c.kind === 'directory' || c.kind === 'htaccess') return dirPattern(c);
    if (c.kind === 'directory-regex') return null;
  }
  return null;
}

/** For some request, `a` may be merged before `b`. */
export function mayPrecede(a: AccessScope, b: AccessScope): boolean {
  if (a === b) return false;
  if (isEnclosedBy(b, a)) return true;
  if (isEnclosedBy(a, b)) return false;
  if (a.isMainServer) return true;
  if (b.isMainServer) return false;
  if (a.vhost && b.vhost && a.vhost !== b.vhost) return false;
  if (a.kind === 'vhost') return b.vhost === a.vhost || b.vhost === null;
  if (b.kind === 'vhost') return a.kind === 'server';
  if (a.kind === 'server') return true;
  const ra = RANK[a.kind];
  const rb = RANK[b.kind];
  if (ra > rb) return false;
  if (a.vhost !== null && b.kind === 'htaccess' && b.vhost === null && b.path !== null && b.space && !hostReaches(b.space, a.vhost, b.path)) return false;
  if (b.kind === 'location' && ra < rb) {
    const met = meeting(a, b);
    return met ? met.may : true;
  }
  if (ra < rb) return b.kind === 'proxy' || !disjointRegions(a, b);
  // same rank
  const dirLike = (s: AccessScope) => s.kind === 'directory' || s.kind === 'htaccess';
  if (dirLike(a) && dirLike(b)) {
    const pa = dirPattern(a);
    const pb = dirPattern(b);
    if (pa === null || pb === null) return true;
    if (!dirPatternsMeet(pa, pb)) return false;
    // httpd walks directories by depth: sections with fewer components first; at one depth,
    // <Directory> sections in config order, then the per-directory file
    if (pa.length !== pb.length) return pa.length < pb.length;
    if (a.kind !== b.kind) return a.kind === 'directory';
    return a.order < b.order;
  }
  if (disjointRegions(a, b)) return false;
  const containers = filesContainers(a, b);
  if (containers) {
    const [ca, cb] = containers;
    const first = ca.kind === 'directory' || ca.kind === 'htaccess' ? (cb.kind === 'directory' || cb.kind === 'htaccess') && mayPrecede(ca, cb) : true;
    return first && overlap(a.path, b.path, true);
  }
  // same rank, merged in config order: regex directories, files, locations
  return a.order < b.order && overlap(a.path, b.path, a.kind !== 'location');
}

/**
 * Two <Files> sections whose containers differ and at least one of them is a <Directory> or a
 * per-directory file: they are merged in their containers' order, not in config order (core merges
 * a directory's <Files> list after its parent's: the server's and virtual host's own <Files> first,
 * then those of each directory section as the directory walk merges it). Null otherwise.
 */
export function filesContainers(a: AccessScope, b: AccessScope): [AccessScope, AccessScope] | null {
  if (a.kind !== 'files' || b.kind !== 'files' || !a.enclosing || !b.enclosing || a.enclosing === b.enclosing) return null;
  const dirLike = (s: AccessScope) => s.kind === 'directory' || s.kind === 'htaccess';
  return dirLike(a.enclosing) || dirLike(b.enclosing) ? [a.enclosing, b.enclosing] : null;
}

/** Whenever `b` applies to a request, `a` applies too and is merged before it. */
export function surelyPrecedes(a: AccessScope, b: AccessScope): boolean {
  if (a === b) return false;
  if (isEnclosedBy(b, a)) return true;
  // the server does not read a file placed as if included: it precedes nothing surely
  if (isVirtual(a) && a.file !== b.file) return false;
  if (a.isMainServer) return true;
  if (a.kind === 'vhost') return b.vhost === a.vhost;
  // the top level of an included file: server level, unless an Include inside a <VirtualHost> read it
  if (a.kind === 'server') return false;
  const dirLike = (s: AccessScope) => s.kind === 'directory' || s.kind === 'htaccess';
  if (dirLike(a) && a.path !== null && a.vhost !== null && a.vhost !== b.vhost && !onlyHostReaching(a.vhost, b)) return false;
  if (dirLike(a) && dirLike(b) && a.path !== null) {
    const pb = dirPattern(b);
    if (pb === null) return false;
    if (b.path !== null && samePath(a.path, b.path)) return a.kind !== b.kind ? a.kind === 'directory' : a.order < b.order;
    const pa = components(a.path);
    return pa.length < pb.length && dirPatternCovers(pa, pb);
  }
  if (dirLike(a) && a.path !== null && b.kind !== 'location' && b.kind !== 'proxy') {
    // a <Files> (or regex directory) inside a <Directory> at or below a's path
    const rb = regionPattern(b);
    return rb !== null && b.kind !== 'directory-regex' && dirPatternCovers(components(a.path), rb);
  }
  if (dirLike(a) && b.kind === 'location') {
    const met = meeting(a, b);
    return met ? met.surely : false;
  }
  return false;
}
