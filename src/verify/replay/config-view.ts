/**
 * A server's configuration read the way httpd reads it, for the request replay: the main config
 * with every Include spliced in where it stands (so a `<Directory>` in an included file belongs
 * to the `<VirtualHost>` that includes it), conditional sections decided by a `truth` function
 * (2.2's answer for the original tree, 2.4's for the migrated one), and per context (main server,
 * each virtual host) what the replay needs: addresses, names, DocumentRoot, the URL-space
 * directives (Alias…, Redirect…, ProxyPass…, RewriteRule) and the access sections in config order.
 *
 * Read-only over src/semantics/access (rules are read with readScopeRules / readAuthz24).
 */
import { ConfigFile, Directive, Node, Section } from '../../cst';
import { includeTargets, IncludeContext } from '../../server/resolve-includes';
import { ReadResult, readScopeRules } from '../../semantics/access/read-rules';
import { Authz24Read, readAuthz24 } from '../../semantics/access/read-authz24';
import { Assumptions, unknownKey } from '../../semantics/access/wrappers';
import { realpathOr } from '../stage-server';

export type SectionKind = 'directory' | 'directory-regex' | 'files' | 'location';

export interface AccessSection {
  readonly kind: SectionKind;
  /** The path, URL or name as written (the regex for regex forms). */
  readonly pattern: string;
  readonly regex: boolean;
  /** The section, or a per-directory file's top level. */
  readonly section: Section | ConfigFile;
  /** `file:line` for reports. */
  readonly where: string;
  readonly read: ReadResult;
  readonly authz: Authz24Read;
  /** AllowOverride in this section (Directory only), lower-case words; null when not set. */
  readonly allowOverride: readonly string[] | null;
  /** AllowOverrideList in this section (2.4), lower-case directive names; null when not set. */
  readonly allowOverrideList: readonly string[] | null;
  /** `<Files>` nested in this `<Directory>`. */
  readonly nested: AccessSection[];
  /** Auth directives set here (lower-case name → values), for credentials. */
  readonly auth: ReadonlyMap<string, readonly string[]>;
  /** Set when the scope holds something that decides answers outside the access model (or sends requests elsewhere): why. */
  readonly beyondModel: string | null;
}

export interface UrlDirective {
  readonly name: string;
  readonly values: readonly string[];
  readonly where: string;
}

export interface HostContext {
  /** `<VirtualHost>` addresses; empty for the main server. */
  readonly addresses: readonly string[];
  readonly where: string;
  serverName: string | null;
  readonly serverAliases: string[];
  documentRoot: string | null;
  /** Alias, ScriptAlias, AliasMatch, ScriptAliasMatch, Redirect*, ProxyPass*, RewriteRule, RewriteEngine, RewriteOptions, in order. */
  readonly urlDirectives: UrlDirective[];
  readonly sections: AccessSection[];
  accessFileNames: string[] | null;
  ssl: boolean;
  /** SSLVerifyClient at this level (or in one of its sections), lower case. */
  verifyClient: string | null;
}

export interface ServerView {
  readonly main: HostContext;
  readonly vhosts: HostContext[];
  /** `Listen` arguments in effect. */
  readonly listens: (readonly string[])[];
  /** Directive names met anywhere (lower case), to tell what the replay cannot model. */
  readonly seen: ReadonlySet<string>;
}

/** Truth of a conditional section (`<IfModule>`, `<IfDefine>`, `<IfVersion>`) on the httpd being modelled. */
export type Truth = (section: Section) => boolean;

export interface ViewInput {
  /** Absolute path of the main config as the include context sees it. */
  readonly mainPath: string;
  readonly context: IncludeContext;
  /** Tree of a file by its real path (the original or the migrated text); null to skip it. */
  tree(realPath: string): ConfigFile | null;
  /** Display path of a file by its real path. */
  display(realPath: string): string;
  readonly truth: Truth;
}

const CONDITIONALS = new Set(['ifmodule', 'ifdefine', 'ifversion']);
const URL_DIRECTIVES = new Set([
  'alias', 'scriptalias', 'aliasmatch', 'scriptaliasmatch',
  'redirect', 'redirectmatch', 'redirecttemp', 'redirectpermanent',
  'proxypass', 'proxypassmatch', 'rewriterule', 'rewriteengine', 'rewriteoptions', 'userdir',
]);
const AUTH_DIRECTIVES = new Set(['authtype', 'authname', 'authuserfile', 'authgroupfile', 'authbasicprovider', 'authdbmuserfile', 'authdbmgroupfile', 'authldapurl']);

function newHost(addresses: readonly string[], where: string): HostContext {
  return { addresses, where, serverName: null, serverAliases: [], documentRoot: null, urlDirectives: [], sections: [], accessFileNames: null, ssl: false, verifyClient: null };
}

/** Outcomes of the unknown wrappers inside a section, for the access readers. */
export function assumptionsFor(container: { body: readonly Node[] }, truth: Truth): Assumptions {
  const out = new Map<string, boolean>();
  const visit = (body: readonly Node[]) => {
    for (const n of body) {
      if (n.kind !== 'section') continue;
      const k = unknownKey(n);
      if (k) out.set(k.key, truth(n) !== k.negate);
      visit(n.body);
    }
  };
  visit(container.body);
  return out;
}

/** Auth directives directly in a section (through true conditionals), last value wins. */
function authOf(section: { body: readonly Node[] }, truth: Truth): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  const visit = (body: readonly Node[]) => {
    for (const n of body) {
      if (n.kind === 'directive' && AUTH_DIRECTIVES.has(n.name.toLowerCase())) out.set(n.name.toLowerCase(), n.values);
      else if (n.kind === 'section' && CONDITIONALS.has(n.name.toLowerCase()) && truth(n)) visit(n.body);
    }
  };
  visit(section.body);
  return out;
}

/**
 * Directives in a scope that answer or route requests outside the access model: per-directory
 * RewriteRule (may forbid, or proxy elsewhere), SSLRequire/SSLRequireSSL (mod_ssl's own access
 * check), a proxy handler.
 */
function beyondModelOf(section: { body: readonly Node[] }, truth: Truth, where: string): string | null {
  const visit = (body: readonly Node[]): string | null => {
    for (const n of body) {
      if (n.kind === 'directive') {
        const name = n.name.toLowerCase();
        if (name === 'rewriterule') return `${where}: per-directory RewriteRule (may forbid, redirect or proxy)`;
        if (name === 'sslrequire' || name === 'sslrequiressl') return `${where}: ${n.name} (mod_ssl's own access check)`;
        if (name === 'sethandler' && /^"?proxy:/i.test(n.values[0] ?? '')) return `${where}: a proxy handler (the replay sends nothing off this machine)`;
      } else if (n.kind === 'section') {
        const lower = n.name.toLowerCase();
        if (CONDITIONALS.has(lower) && !truth(n)) continue;
        if (lower === 'limit' || lower === 'limitexcept' || CONDITIONALS.has(lower)) {
          const found = visit(n.body);
          if (found) return found;
        }
      }
    }
    return null;
  };
  return visit(section.body);
}

/** Reads one scope (a section, or a per-directory file's top level) with the given truth. */
export function scopeOf(kind: SectionKind, pattern: string, regex: boolean, section: Section | ConfigFile, where: string, truth: Truth): AccessSection {
  const assume = assumptionsFor(section, truth);
  return {
    kind,
    pattern,
    regex,
    section,
    where,
    read: readScopeRules(section, assume),
    authz: readAuthz24(section, assume),
    allowOverride: null,
    allowOverrideList: null,
    nested: [],
    auth: authOf(section, truth),
    beyondModel: beyondModelOf(section, truth, where),
  };
}

function sectionKind(section: Section): { kind: SectionKind; pattern: string; regex: boolean } | null {
  const name = section.name.toLowerCase();
  const values = section.values;
  const tilde = values[0] === '~';
  const pattern = (tilde ? values[1] : values[0]) ?? '';
  const regex = tilde || name.endsWith('match');
  if (name === 'directory' || name === 'directorymatch') return { kind: regex ? 'directory-regex' : 'directory', pattern, regex };
  if (name === 'files' || name === 'filesmatch') return { kind: 'files', pattern, regex };
  if (name === 'location' || name === 'locationmatch') return { kind: 'location', pattern, regex };
  return null;
}

export function readServerView(input: ViewInput): ServerView {
  const main = newHost([], input.display(input.mainPath));
  const vhosts: HostContext[] = [];
  const listens: (readonly string[])[] = [];
  const seen = new Set<string>();
  const { truth } = input;

  const visitDirective = (d: Directive, host: HostContext, display: string, depth: number) => {
    const name = d.name.toLowerCase();
    seen.add(name);
    const where = `${display}:${d.line}`;
    if (name === 'include' || name === 'includeoptional') {
      if (depth > 16 || d.values.length === 0) return;
      for (const target of includeTargets(d.values[0], input.context)) {
        const real = realpathOr(target);
        const tree = input.tree(real);
        if (tree) visitBody(tree.body, host, input.display(real), depth + 1, null);
      }
    } else if (name === 'listen') listens.push(d.values);
    else if (name === 'servername') host.serverName = d.values[0] ?? null;
    else if (name === 'serveralias') host.serverAliases.push(...d.values);
    else if (name === 'documentroot') host.documentRoot = d.values[0] ?? null;
    else if (name === 'accessfilename') host.accessFileNames = [...d.values];
    else if (name === 'sslengine') host.ssl = (d.values[0] ?? '').toLowerCase() === 'on';
    else if (name === 'sslverifyclient') host.verifyClient = (d.values[0] ?? '').toLowerCase();
    else if (URL_DIRECTIVES.has(name)) host.urlDirectives.push({ name, values: d.values, where });
  };

  const visitBody = (body: readonly Node[], host: HostContext, display: string, depth: number, inDirectory: AccessSection | null): void => {
    for (const node of body) {
      if (node.kind === 'directive') {
        if (inDirectory) {
          const name = node.name.toLowerCase();
          seen.add(name);
          const words = node.values.map((v) => v.toLowerCase());
          if (name === 'allowoverride') (inDirectory as { allowOverride: readonly string[] | null }).allowOverride = words;
          else if (name === 'allowoverridelist') (inDirectory as { allowOverrideList: readonly string[] | null }).allowOverrideList = words;
          else if (name === 'sslverifyclient') host.verifyClient = words[0] ?? null;
          else if (name === 'proxypass') host.urlDirectives.push({ name, values: node.values, where: `${display}:${node.line}` });
          else if (name === 'include' || name === 'includeoptional') visitDirective(node, host, display, depth);
        } else visitDirective(node, host, display, depth);
        continue;
      }
      if (node.kind !== 'section') continue;
      const lower = node.name.toLowerCase();
      if (CONDITIONALS.has(lower)) {
        if (truth(node)) visitBody(node.body, host, display, depth, inDirectory);
        continue;
      }
      if (lower === 'virtualhost' && !inDirectory && host === main) {
        const vhost = newHost(node.values, `${display}:${node.line}`);
        vhosts.push(vhost);
        visitBody(node.body, vhost, display, depth, null);
        continue;
      }
      const kind = sectionKind(node);
      if (!kind) continue; // <Proxy>, <Limit> (read with its scope), <If> …
      const scope = scopeOf(kind.kind, kind.pattern, kind.regex, node, `${display}:${node.line}`, truth);
      if (inDirectory && kind.kind === 'files') inDirectory.nested.push(scope);
      else host.sections.push(scope);
      if (kind.kind === 'directory' || kind.kind === 'directory-regex') visitBody(node.body, host, display, depth, scope);
      else if (lower === 'location' || lower === 'locationmatch') {
        // `ProxyPass URL` inside a <Location> proxies that location
        for (const n of node.body) if (n.kind === 'directive' && n.is('ProxyPass')) host.urlDirectives.push({ name: 'proxypass', values: [kind.pattern, ...n.values], where: `${display}:${n.line}` });
      }
    }
  };

  const mainTree = input.tree(realpathOr(input.mainPath));
  if (mainTree) visitBody(mainTree.body, main, input.display(realpathOr(input.mainPath)), 0, null);
  return { main, vhosts, listens, seen };
}
