/**
 * For one request (a host context and a URL path), what httpd does before its access checks:
 * mod_alias's Redirect (answered before any check) and Alias mapping, server-level RewriteRule and
 * ProxyPass (which take the URL elsewhere), DocumentRoot otherwise; then which access scopes it
 * merges, in httpd's order: `<Directory>` sections by depth with each directory's per-directory
 * file after them, regex directories, `<Files>` (top level, then nested in the directories that
 * applied, then in per-directory files), `<Location>`s. Sections of the main server come before
 * the virtual host's at each step, as httpd merges them.
 *
 * Regexes are JavaScript's: a pattern JavaScript cannot read makes the request unpredicted.
 */
import * as path from 'path';
import { ConfigFile, Node } from '../../cst';
import { fnmatchRegExp } from '../../server/expand-include-pattern';
import { AccessSection, HostContext, Truth, UrlDirective, scopeOf } from './config-view';

export interface PerDirectoryFile {
  readonly tree: ConfigFile;
  /** Display path. */
  readonly where: string;
}

export interface UrlSpaceInput {
  readonly main: HostContext;
  /** The virtual host answering, or null for the main server. */
  readonly host: HostContext | null;
  /** A content path as written → where it is on this machine (ServerRoot mapping). */
  readonly mapPath: (p: string) => string;
  /** The per-directory file of a directory (real path), under one of the names, or null. */
  readonly perDirectory: (dir: string, names: readonly string[]) => PerDirectoryFile | null;
  readonly truth: Truth;
  /** 22: an unset AllowOverride means All; 24: a per-directory file under an unset AllowOverride answers 500 (measured on 2.4.71). */
  readonly version: 22 | 24;
}

export type Resolution =
  | { readonly kind: 'scopes'; readonly fsPath: string; readonly chain: readonly ChainLink[] }
  | { readonly kind: 'skip'; readonly reason: string };

export interface ChainLink {
  readonly scope: AccessSection;
  /** Set when a per-directory file is refused by AllowOverride (2.2 answers 500). */
  readonly refused?: string;
}

function regexOf(pattern: string, flags = ''): RegExp | null {
  try {
    return new RegExp(pattern, flags);
  } catch {
    return null;
  }
}

/** mod_alias's alias_matches: the alias path as a prefix of the URL on a segment boundary (repeated slashes fold); the length matched, or 0. */
export function aliasMatches(uri: string, alias: string): number {
  let u = 0;
  let a = 0;
  while (a < alias.length) {
    if (alias[a] === '/') {
      if (uri[u] !== '/') return 0;
      while (alias[a] === '/') a++;
      while (uri[u] === '/') u++;
    } else if (uri[u++] !== alias[a++]) return 0;
  }
  if (alias[alias.length - 1] !== '/' && u < uri.length && uri[u] !== '/') return 0;
  return u;
}

function hostDirectives(input: UrlSpaceInput): UrlDirective[] {
  return input.host ? [...input.host.urlDirectives, ...input.main.urlDirectives] : input.main.urlDirectives;
}

/** Server-level rewriting that takes the URL away before access checks, or null. */
function rewrittenBy(input: UrlSpaceInput, uri: string): string | null {
  const contexts = input.host ? [input.host] : [input.main];
  const inherit = input.host?.urlDirectives.some((d) => d.name === 'rewriteoptions' && d.values.some((v) => /^inherit/i.test(v)));
  if (inherit) contexts.push(input.main);
  for (const ctx of contexts) {
    let on = false;
    for (const d of ctx.urlDirectives) {
      if (d.name === 'rewriteengine') on = (d.values[0] ?? '').toLowerCase() === 'on';
      if (d.name !== 'rewriterule' || !on || d.values.length < 2) continue;
      let pattern = d.values[0];
      const negate = pattern.startsWith('!');
      if (negate) pattern = pattern.slice(1);
      const nocase = /\bNC\b|nocase/i.test(d.values[2] ?? '');
      const re = regexOf(pattern, nocase ? 'i' : '');
      if (!re) return `RewriteRule ${d.values[0]} (${d.where}) is not a pattern the replay can read`;
      if (re.test(uri) !== negate) return `rewritten by RewriteRule ${d.values[0]} (${d.where})`;
    }
  }
  return null;
}

/** Where the URL's file is, or why the request is not replayed. */
export function translate(input: UrlSpaceInput, uri: string): { fsPath: string } | { skip: string } {
  const directives = hostDirectives(input);
  for (const d of directives) {
    if (!d.name.startsWith('redirect')) continue;
    const args = d.values.length >= 2 && /^(permanent|temp|seeother|gone|\d{3})$/i.test(d.values[0]) ? d.values.slice(1) : d.values;
    const hit = d.name === 'redirectmatch' ? regexOf(args[0] ?? '')?.test(uri) : aliasMatches(uri, args[0] ?? '') > 0;
    if (hit) return { skip: `redirected by ${d.name} (${d.where}) before any access check` };
  }
  const rewritten = rewrittenBy(input, uri);
  if (rewritten) return { skip: rewritten };
  for (const d of directives) {
    if (d.name === 'proxypass' && d.values.length >= 2 && aliasMatches(uri, d.values[0]) > 0) return { skip: `proxied by ProxyPass ${d.values[0]} (${d.where}): the replay sends nothing off this machine` };
    if (d.name === 'proxypassmatch' && d.values.length >= 2 && (regexOf(d.values[0])?.test(uri) ?? true)) return { skip: `proxied by ProxyPassMatch ${d.values[0]} (${d.where})` };
    if (d.name === 'userdir' && uri.startsWith('/~')) return { skip: 'a UserDir URL' };
  }
  for (const d of directives) {
    if ((d.name === 'alias' || d.name === 'scriptalias') && d.values.length >= 2) {
      const n = aliasMatches(uri, d.values[0]);
      if (n > 0) return { fsPath: input.mapPath(d.values[1]).replace(/\/+$/, '') + (uri.slice(n).startsWith('/') || uri.slice(n) === '' ? '' : '/') + uri.slice(n) };
    }
    if ((d.name === 'aliasmatch' || d.name === 'scriptaliasmatch') && d.values.length >= 2) {
      const re = regexOf(d.values[0]);
      if (!re) return { skip: `${d.name} ${d.values[0]} (${d.where}) is not a pattern the replay can read` };
      const m = re.exec(uri);
      if (m) return { fsPath: input.mapPath(d.values[1].replace(/\$(\d)/g, (_x, i: string) => m[Number(i)] ?? '')) };
    }
  }
  const root = input.host?.documentRoot ?? input.main.documentRoot;
  if (!root) return { skip: 'no DocumentRoot' };
  return { fsPath: input.mapPath(root).replace(/\/+$/, '') + uri };
}

/** `/a/b/` → ['/', '/a/', '/a/b/']: the directories httpd walks for a file in `/a/b/`. */
function levels(dir: string): string[] {
  const parts = dir.split('/').filter(Boolean);
  const out = ['/'];
  for (let i = 1; i <= parts.length; i++) out.push('/' + parts.slice(0, i).join('/') + '/');
  return out;
}

function directoryMatches(scope: AccessSection, level: string, mapPath: (p: string) => string): boolean {
  const pattern = scope.pattern === '/' ? '/' : mapPath(scope.pattern).replace(/\/+$/, '') + '/';
  if (!/[*?[]/.test(pattern)) return pattern === level;
  const a = pattern.split('/').filter(Boolean);
  const b = level.split('/').filter(Boolean);
  return a.length === b.length && a.every((p, i) => fnmatchRegExp(p).test(b[i]));
}

function filesMatch(scope: AccessSection, name: string): boolean | null {
  if (scope.regex) {
    const re = regexOf(scope.pattern);
    return re ? re.test(name) : null;
  }
  return /[*?[]/.test(scope.pattern) ? fnmatchRegExp(scope.pattern).test(name) : scope.pattern === name;
}

function locationMatches(scope: AccessSection, uri: string): boolean | null {
  if (scope.regex) {
    const re = regexOf(scope.pattern);
    return re ? re.test(uri) : null;
  }
  if (/[*?[]/.test(scope.pattern)) {
    const parts = scope.pattern.split('/');
    const uparts = uri.split('/');
    return parts.length <= uparts.length && parts.every((p, i) => fnmatchRegExp(p).test(uparts[i]));
  }
  return uri.startsWith(scope.pattern);
}

const LIMIT = new Set(['order', 'allow', 'deny']);
const AUTHCONFIG = new Set(['authtype', 'authname', 'authuserfile', 'authgroupfile', 'require', 'satisfy', 'authbasicprovider', 'authdbmuserfile', 'authdbmgroupfile', 'authmerging', 'authbasicauthoritative']);

/** Why 2.2 refuses a per-directory file under this AllowOverride (500), null when it reads it, 'unknown' when the model cannot tell. */
function overrideRefusal(tree: ConfigFile, allow: readonly string[], list: readonly string[]): string | null | 'unknown' {
  if (allow.includes('all')) return null;
  const names = new Set<string>();
  const visit = (body: readonly Node[]) => {
    for (const n of body) {
      if (n.kind === 'directive') names.add(n.name.toLowerCase());
      else if (n.kind === 'section') visit(n.body);
    }
  };
  visit(tree.body);
  for (const name of names) {
    if (list.includes(name)) continue;
    if (LIMIT.has(name) && !allow.includes('limit')) return `${name} needs AllowOverride Limit`;
    if (AUTHCONFIG.has(name) && !allow.includes('authconfig')) return `${name} needs AllowOverride AuthConfig`;
    if (!LIMIT.has(name) && !AUTHCONFIG.has(name)) return 'unknown';
  }
  return null;
}

/** The scopes merged for a URL, in httpd's order; 2.2's AllowOverride default is All. */
export function resolveUrl(input: UrlSpaceInput, uri: string): Resolution {
  const t = translate(input, uri);
  if ('skip' in t) return { kind: 'skip', reason: t.skip };
  const fsPath = path.posix.normalize(t.fsPath);
  const dir = fsPath.endsWith('/') ? fsPath : path.posix.dirname(fsPath) + '/';
  const name = fsPath.endsWith('/') ? '' : path.posix.basename(fsPath);
  const contexts = input.host ? [input.main, input.host] : [input.main];
  const all = contexts.flatMap((c) => c.sections);
  const names = input.host?.accessFileNames ?? input.main.accessFileNames ?? ['.htaccess'];

  const chain: ChainLink[] = [];
  const directories: AccessSection[] = [];
  const filesFromDirs: AccessSection[] = [];
  let allow: readonly string[] | null = null;
  let list: readonly string[] = [];
  const plain = all.filter((s) => s.kind === 'directory');
  for (const level of levels(dir)) {
    for (const s of plain) {
      if (!directoryMatches(s, level, input.mapPath)) continue;
      chain.push({ scope: s });
      directories.push(s);
      filesFromDirs.push(...s.nested);
      if (s.allowOverride) allow = s.allowOverride;
      if (s.allowOverrideList) list = s.allowOverrideList.filter((w) => w !== 'none');
    }
    const effective = allow ?? (input.version === 22 ? ['all'] : null);
    if (effective?.includes('none') && list.length === 0) continue;
    const file = input.perDirectory(level, names);
    if (!file) continue;
    const refusal = effective === null ? 'AllowOverride is not set: 2.4 answers 500 for its directives' : overrideRefusal(file.tree, effective, list);
    if (refusal === 'unknown') return { kind: 'skip', reason: `${file.where} holds directives whose AllowOverride class the replay does not know` };
    const top = scopeOf('directory', level, false, file.tree, file.where, input.truth);
    chain.push(refusal ? { scope: top, refused: `${file.where}: ${refusal}` } : { scope: top });
    for (const n of file.tree.body) {
      if (n.kind === 'section' && n.is('Files', 'FilesMatch')) {
        const tilde = n.values[0] === '~';
        filesFromDirs.push(scopeOf('files', (tilde ? n.values[1] : n.values[0]) ?? '', tilde || n.is('FilesMatch'), n, `${file.where}:${n.line}`, input.truth));
      }
    }
  }
  for (const s of all.filter((x) => x.kind === 'directory-regex')) {
    const re = regexOf(s.pattern);
    if (!re) return { kind: 'skip', reason: `<DirectoryMatch ${s.pattern}> (${s.where}) is not a pattern the replay can read` };
    if (re.test(dir)) chain.push({ scope: s });
  }
  for (const s of [...all.filter((x) => x.kind === 'files'), ...filesFromDirs]) {
    const hit = filesMatch(s, name);
    if (hit === null) return { kind: 'skip', reason: `<Files ${s.pattern}> (${s.where}) is not a pattern the replay can read` };
    if (hit) chain.push({ scope: s });
  }
  for (const s of all.filter((x) => x.kind === 'location')) {
    const hit = locationMatches(s, uri);
    if (hit === null) return { kind: 'skip', reason: `<Location ${s.pattern}> (${s.where}) is not a pattern the replay can read` };
    if (hit) chain.push({ scope: s });
  }
  return { kind: 'scopes', fsPath, chain };
}
