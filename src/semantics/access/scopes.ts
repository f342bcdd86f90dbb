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
 */
import { ConfigFile, Section } from '../../cst';
import { SourceFile } from '../../server/types';
import { sectionIsTwoTwoOnly } from '../version-guards';
import { ReadResult, readScopeRules } from './read-rules';
import { SCOPE_SECTIONS } from './scope-sections';
import { Authz24Read, readAuthz24 } from './read-authz24';
import { wrapperVerdict } from './wrappers';

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

export interface AccessScope {
  readonly file: SourceFile;
  readonly container: Section | ConfigFile;
  readonly kind: ScopeKind;
  /** Literal path or URL for directory/location/files scopes without patterns; null otherwise. */
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
}


const WILDCARD = /[*?[]/;

function kindOf(section: Section): ScopeKind | null {
  const lower = section.name.toLowerCase();
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
  const lower = section.name.toLowerCase();
  if (values.length !== 1 || lower.endsWith('match') || kind === 'vhost') return null;
  const path = values[0];
  if (WILDCARD.test(path)) return null;
  return path;
}

/** Collects every scope of a server in config order, with its own rules. */
export function collectScopes(files: readonly SourceFile[]): AccessScope[] {
  const scopes: AccessScope[] = [];
  let order = 0;
  for (const file of files) {
    const top: AccessScope = {
      file,
      container: file.tree,
      kind: file.role === 'htaccess' ? 'htaccess' : 'server',
      path: null,
      vhost: null,
      enclosing: null,
      order: order++,
      isMainServer: file.role === 'main',
      read: readScopeRules(file.tree),
      authz: readAuthz24(file.tree),
    };
    scopes.push(top);
    const visit = (container: Section | ConfigFile, enclosing: AccessScope, vhost: Section | null) => {
      for (const node of container.body) {
        if (node.kind !== 'section') continue;
        if (sectionIsTwoTwoOnly(node)) continue;
        if (wrapperVerdict(node)?.kind === 'dead') continue;
        const kind = kindOf(node);
        if (!kind) {
          // transparent wrappers (<IfModule>, <IfDefine>, <Limit>…) are read as part of the scope or walked through
          if (!node.is('Limit', 'LimitExcept')) visit(node, enclosing, vhost);
          continue;
        }
        const scope: AccessScope = {
          file,
          container: node,
          kind,
          path: literalPath(node, kind),
          vhost: kind === 'vhost' ? node : vhost,
          enclosing,
          order: order++,
          isMainServer: false,
          read: readScopeRules(node),
          authz: readAuthz24(node),
        };
        scopes.push(scope);
        visit(node, scope, scope.vhost);
      }
    };
    visit(file.tree, top, null);
  }
  return scopes;
}

/** Component-wise path prefix: /var/www is a prefix of /var/www/x but not of /var/wwwx. */
function pathPrefix(a: string, b: string): boolean {
  const strip = (p: string) => p.replace(/\/+$/, '');
  const pa = strip(a);
  const pb = strip(b);
  return pa === '' || pb === pa || pb.startsWith(pa + '/');
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
  if (ra < rb) return true;
  if (ra > rb) return false;
  if (a.kind === 'directory' && b.kind === 'directory') {
    if (a.path === null || b.path === null) return true;
    if (a.path.replace(/\/+$/, '') === b.path.replace(/\/+$/, '')) return a.order < b.order;
    return pathPrefix(a.path, b.path);
  }
  if (a.kind === 'htaccess' || b.kind === 'htaccess') return true;
  // same rank, merged in config order: regex directories, files, locations
  return a.order < b.order && overlap(a.path, b.path, a.kind !== 'location');
}

/** Whenever `b` applies to a request, `a` applies too and is merged before it. */
export function surelyPrecedes(a: AccessScope, b: AccessScope): boolean {
  if (a === b) return false;
  if (isEnclosedBy(b, a)) return true;
  if (a.isMainServer) return true;
  if (a.kind === 'vhost') return b.vhost === a.vhost;
  if (a.kind === 'directory' && b.kind === 'directory' && a.path !== null && b.path !== null) {
    if (a.vhost !== null && a.vhost !== b.vhost) return false;
    const same = a.path.replace(/\/+$/, '') === b.path.replace(/\/+$/, '');
    return same ? a.order < b.order : pathPrefix(a.path, b.path);
  }
  return false;
}
