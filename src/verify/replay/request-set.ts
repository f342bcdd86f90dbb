/**
 * The bounded request set of `--verify=requests`, derived from the original config: per reachable
 * virtual host (and the main server where an address has no virtual host), URLs that reach each
 * `<Directory>`, `<Files>`, `<Location>` and Alias and each directory holding a per-directory
 * file; per URL the methods its rules single out (`<Limit>`, `<LimitExcept>`) plus GET and POST,
 * client addresses inside and outside each address rule, and no, valid and wrong credentials
 * where a Require applies. Each request carries 2.2's answer for the original config. Addresses
 * outside 127.0.0.0/8 cannot be sent from: those requests are judged statically against the
 * migrated config instead (and reported as such).
 */
import * as fs from 'fs';
import * as path from 'path';
import { fnmatchRegExp } from '../../server/expand-include-pattern';
import { parseIpSpec } from '../../semantics/access/ip-address';
import { MethodMask, Outcome, Request, RequireNode } from '../../semantics/access/types';
import { AccessSection, HostContext, ServerView } from './config-view';
import { Credential, NO_CREDENTIALS, ReplayUsers } from './credentials';
import { predict22, predict24 } from './predict';
import { addressKey } from './stage-replay';
import { ChainLink, UrlSpaceInput, resolveUrl } from './url-space';

export const PROBE = 'codemod-verify-probe.html';
export const MAX_LIVE = 1500;
const MAX_STATIC = 5000;
const MAX_URIS_PER_HOST = 40;
const MAX_PER_DIRECTORY_DIRS = 2000;
const OUTSIDE_LOOPBACK = ['127.0.0.2', '127.254.0.1'];
/** TEST-NET-1: outside every rule that does not name it; judged statically. */
const OUTSIDE_ANYWHERE = '192.0.2.1';
const SKIP_METHODS = new Set(['TRACE', 'CONNECT', 'OPTIONS', 'HEAD']);

export interface Target {
  /** `www.example.com (sites-enabled/www:1)` or `main server`. */
  readonly label: string;
  /** Index in the view's vhosts, or -1 for the main server. */
  readonly index: number;
  readonly hostHeader: string;
  readonly port: number;
  readonly tls: boolean;
}

export interface PlannedRequest {
  readonly target: Target;
  readonly uri: string;
  /** Where the model puts the URL's file on this machine. */
  readonly fsPath: string;
  readonly method: string;
  readonly address: string;
  readonly credential: Credential;
  readonly expected: Outcome;
  readonly scopes: readonly string[];
}

export interface StaticResult {
  readonly text: string;
  readonly expected: Outcome;
  readonly actual: Outcome;
  readonly scopes: readonly string[];
}

export interface RequestSet {
  readonly live: PlannedRequest[];
  readonly statics: StaticResult[];
  readonly notReplayed: string[];
}

export interface RequestSetInput {
  readonly original: ServerView;
  readonly migrated: ServerView;
  /** URL space of a host (-1 = main server) in the original and the migrated view. */
  readonly space: (view: 'original' | 'migrated', index: number) => UrlSpaceInput;
  readonly ports: ReadonlyMap<string, number>;
  readonly users: ReplayUsers;
  /** Whether the staged server loads mod_access_compat (for the static 2.4 judgement). */
  readonly compatLoaded: boolean;
  /** A content path as written → where it is on this machine. */
  readonly mapPath: (p: string) => string;
}

/** `Name:port` and `scheme://name` → the bare name a Host header carries. */
function bareName(name: string): string {
  return name.replace(/^[a-z]+:\/\//i, '').replace(/:\d+$/, '').replace(/\/.*$/, '');
}

/** The hosts the replay can reach on the staged server: a request to their address and name gets them. */
export function targetsOf(view: ServerView, ports: ReadonlyMap<string, number>, notes: string[]): Target[] {
  const listenKeys = view.listens.map((l) => addressKey(l[0] ?? '', true));
  const listening = (key: string) => {
    const [host, port] = [key.slice(0, key.lastIndexOf(':')), key.slice(key.lastIndexOf(':') + 1)];
    return listenKeys.some((l) => {
      const [lh, lp] = [l.slice(0, l.lastIndexOf(':')), l.slice(l.lastIndexOf(':') + 1)];
      return (port === '*' || lp === port) && (lh === '*' || host === '*' || lh === host);
    });
  };
  const out: Target[] = [];
  const bySet = new Map<string, number[]>();
  view.vhosts.forEach((v, i) => {
    const key = addressKey(v.addresses[0] ?? '*', false);
    bySet.set(key, [...(bySet.get(key) ?? []), i]);
  });
  const answers = (set: number[], name: string): number => {
    const hit = set.find((i) => {
      const v = view.vhosts[i];
      const names = [v.serverName ? bareName(v.serverName) : null, ...v.serverAliases.map(bareName)].filter((n): n is string => !!n);
      return names.some((n) => (/[*?]/.test(n) ? fnmatchRegExp(n.toLowerCase()).test(name.toLowerCase()) : n.toLowerCase() === name.toLowerCase()));
    });
    return hit ?? set[0];
  };
  view.vhosts.forEach((v, i) => {
    const key = addressKey(v.addresses[0] ?? '*', false);
    const label = `${v.serverName ? bareName(v.serverName) : '<VirtualHost ' + v.addresses.join(' ') + '>'} (${v.where})`;
    if (!listening(key)) {
      notes.push(`${label}: no Listen covers ${key}, the host is unreachable as configured`);
      return;
    }
    const set = bySet.get(key) as number[];
    const name = v.serverName ? bareName(v.serverName) : set[0] === i ? 'codemod-verify.invalid' : null;
    if (name === null || answers(set, name) !== i) {
      notes.push(`${label}: no Host name reaches it (an earlier virtual host on ${key} answers its names)`);
      return;
    }
    const verify = v.verifyClient ?? view.main.verifyClient;
    if ((v.ssl || view.main.ssl) && verify === 'require') {
      notes.push(`${label}: SSLVerifyClient require (the replay has no client certificate)`);
      return;
    }
    out.push({ label, index: i, hostHeader: name, port: ports.get(key) ?? 0, tls: v.ssl });
  });
  const covered = (key: string) => view.vhosts.some((v) => v.addresses.some((a) => {
    const k = addressKey(a, false);
    const [kh, kp] = [k.slice(0, k.lastIndexOf(':')), k.slice(k.lastIndexOf(':') + 1)];
    const [lh, lp] = [key.slice(0, key.lastIndexOf(':')), key.slice(key.lastIndexOf(':') + 1)];
    return (kp === '*' || kp === lp) && (kh === '*' || kh === lh);
  }));
  const mainKey = listenKeys.find((k) => !covered(k));
  if (mainKey) out.push({ label: `main server (${view.main.where})`, index: -1, hostHeader: view.main.serverName ? bareName(view.main.serverName) : 'localhost', port: ports.get(mainKey) ?? 0, tls: view.main.ssl });
  return out;
}

// ------------------------------------------------------------------ URLs

function instantiateWildcard(pattern: string): string | null {
  const guess = pattern.replace(/\*/g, 'codemod').replace(/\?/g, 'x').replace(/\[!?\^?([^\]])[^\]]*\]/g, '$1');
  const ok = guess.split('/').every((part, i) => fnmatchRegExp(pattern.split('/')[i] ?? '').test(part));
  return ok ? guess : null;
}

/** A string the regex matches, guessed from its text (`\.php$` → `x.php`), or null. */
export function sampleForRegex(source: string, prefix = ''): string | null {
  let re: RegExp;
  try {
    re = new RegExp(source);
  } catch {
    return null;
  }
  const simplified = source
    .replace(/^\^/, '')
    .replace(/\$$/, '')
    .replace(/\(\?[a-z]+\)/g, '')
    .replace(/\((?:\?:)?([^()|]*)(\|[^()]*)?\)/g, '$1')
    .replace(/\[\^[^\]]*\][*+]?/g, 'codemod')
    .replace(/\[([^\]\\])[^\]]*\][*+?]?/g, '$1')
    .replace(/\\[dD]\+?/g, '1')
    .replace(/\\[wW]\+?/g, 'codemod')
    .replace(/\.\*|\.\+/g, 'codemod')
    .replace(/\\(.)/g, '$1')
    .replace(/[?*+]/g, '');
  const named = simplified.startsWith('.') ? [`codemod${simplified}`, `${prefix}codemod${simplified}`] : [];
  for (const candidate of [...named, simplified, prefix + simplified, `codemod${simplified}`, `${prefix}codemod${simplified}`]) {
    if (re.test(candidate)) return candidate;
  }
  return null;
}

function joinUri(prefix: string, rest: string): string {
  return (prefix.replace(/\/+$/, '') + '/' + rest.replace(/^\/+/, '')).replace(/\/{2,}/g, '/');
}

interface Root {
  readonly uri: string;
  readonly dir: string;
}

function contentRoots(input: RequestSetInput, host: HostContext | null): Root[] {
  const main = input.original.main;
  const roots: Root[] = [];
  const docroot = host?.documentRoot ?? main.documentRoot;
  if (docroot) roots.push({ uri: '/', dir: input.mapPath(docroot).replace(/\/+$/, '') });
  for (const d of [...(host?.urlDirectives ?? []), ...main.urlDirectives]) {
    if ((d.name === 'alias' || d.name === 'scriptalias') && d.values.length >= 2) roots.push({ uri: d.values[0], dir: input.mapPath(d.values[1]).replace(/\/+$/, '') });
  }
  return roots;
}

function uriForDir(roots: readonly Root[], dir: string): string | null {
  const d = dir.replace(/\/+$/, '');
  for (const r of roots) {
    if (d === r.dir) return r.uri;
    if (d.startsWith(r.dir + '/')) return joinUri(r.uri, d.slice(r.dir.length + 1) + '/');
  }
  return null;
}

/** Directories below the content roots that hold a per-directory file (bounded walk, symlinked directories not followed). */
function perDirectoryDirs(roots: readonly Root[], names: readonly string[]): string[] {
  const out: string[] = [];
  let budget = MAX_PER_DIRECTORY_DIRS;
  const visit = (dir: string, depth: number) => {
    if (budget-- <= 0 || depth > 8) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => names.includes(e.name) && e.isFile())) out.push(dir);
    for (const e of entries) if (e.isDirectory() && !e.isSymbolicLink()) visit(path.join(dir, e.name), depth + 1);
  };
  for (const r of roots) visit(r.dir, 0);
  return out;
}

function urisFor(input: RequestSetInput, host: HostContext | null): string[] {
  const main = input.original.main;
  const roots = contentRoots(input, host);
  const sections: AccessSection[] = [...main.sections, ...(host?.sections ?? [])];
  const uris = new Set<string>([`/${PROBE}`]);
  const dirUris: string[] = [];
  const addDir = (uri: string | null) => {
    if (uri === null) return;
    uris.add(joinUri(uri, PROBE));
    dirUris.push(uri);
  };
  for (const r of roots) if (r.uri !== '/') addDir(r.uri);
  for (const s of sections) {
    if (s.kind === 'directory' && s.pattern !== '/') {
      const literal = /[*?[]/.test(s.pattern) ? instantiateWildcard(s.pattern) : s.pattern;
      if (literal) addDir(uriForDir(roots, input.mapPath(literal)));
    }
  }
  const names = host?.accessFileNames ?? main.accessFileNames ?? ['.htaccess'];
  for (const dir of perDirectoryDirs(roots, names)) addDir(uriForDir(roots, dir));
  const fileSections = sections.flatMap((s) => [s, ...s.nested]).filter((s) => s.kind === 'files');
  for (const s of fileSections) {
    const name = s.regex ? sampleForRegex(s.pattern) : /[*?[]/.test(s.pattern) ? instantiateWildcard(s.pattern) : s.pattern;
    if (!name || name.includes('/')) continue;
    for (const d of ['/', ...dirUris.slice(0, 3)]) uris.add(joinUri(d, name));
  }
  for (const s of sections.filter((x) => x.kind === 'location')) {
    const uri = s.regex ? sampleForRegex(s.pattern, '/') : /[*?[]/.test(s.pattern) ? instantiateWildcard(s.pattern) : s.pattern;
    if (!uri || !uri.startsWith('/')) continue;
    if (uri.endsWith('/')) uris.add(joinUri(uri, PROBE));
    else {
      uris.add(uri);
      uris.add(joinUri(uri, PROBE));
    }
  }
  return [...uris].slice(0, MAX_URIS_PER_HOST);
}

// ------------------------------------------------------------------ variants

function masksOf(chain: readonly ChainLink[]): MethodMask[] {
  const out: MethodMask[] = [];
  const tree = (n: RequireNode | null) => {
    if (!n) return;
    if (n.methods) out.push(n.methods);
    if (n.kind !== 'require') n.children.forEach(tree);
  };
  for (const { scope } of chain) {
    const r = scope.read.rules;
    if (r.host) out.push(...r.host.orders.map((o) => o.methods), ...r.host.allows.map((a) => a.methods), ...r.host.denys.map((d) => d.methods));
    out.push(...(r.requires ?? []).map((q) => q.methods), ...r.satisfy.map((x) => x.methods));
    tree(scope.authz.tree);
  }
  return out;
}

function methodsFor(chain: readonly ChainLink[]): string[] {
  const named = masksOf(chain).flatMap((m) => m.methods).filter((m) => /^[A-Z-]+$/.test(m) && !SKIP_METHODS.has(m));
  return [...new Set(['GET', 'POST', ...named])].slice(0, 6);
}

/** The words the chain's address rules name: host names (`Allow from .example.com`, `Require host`) or IP specs (`Allow from 10.1`, `Require ip`). */
function ruleWords(chain: readonly ChainLink[], kind: 'host' | 'ip'): string[] {
  const words: string[] = [];
  const tree = (n: RequireNode | null) => {
    if (!n) return;
    if (n.kind === 'require') {
      if (n.provider === kind) words.push(...n.args);
    } else n.children.forEach(tree);
  };
  for (const { scope } of chain) {
    const host = scope.read.rules.host;
    for (const { entry } of host ? [...host.allows, ...host.denys] : []) {
      if (entry.kind === 'host' && kind === 'host') words.push(entry.name);
      if (entry.kind === 'ip' && kind === 'ip') words.push(entry.spec);
    }
    tree(scope.authz.tree);
  }
  return [...new Set(words)];
}

/** An address inside the spec (its network with the lowest host bit set), and whether it lies in 127.0.0.0/8. */
export function insideAddress(spec: string): { address: string; loopback: boolean } | null {
  const parsed = parseIpSpec(spec);
  if (!('subnet' in parsed)) return null;
  const { family, network, mask } = parsed.subnet;
  const bytes = [...network];
  const last = bytes.length - 1;
  if (mask[last] !== 255) bytes[last] |= 1;
  if (family === 4) return { address: bytes.join('.'), loopback: bytes[0] === 127 };
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return { address: groups.join(':'), loopback: false };
}

function credentialsFor(chain: readonly ChainLink[], users: ReplayUsers, note: (reason: string) => void): Credential[] {
  const requires = chain.flatMap(({ scope }) => [...(scope.read.rules.requires ?? []).map((r) => r.words), ...leafWords(scope.authz.tree)]);
  if (requires.length === 0) return [NO_CREDENTIALS];
  const nearest = (name: string): readonly string[] | null => {
    for (let i = chain.length - 1; i >= 0; i--) {
      const v = chain[i].scope.auth.get(name);
      if (v) return v;
    }
    return null;
  };
  const authType = (nearest('authtype')?.[0] ?? '').toLowerCase();
  const providers = (nearest('authbasicprovider') ?? ['file']).map((p) => p.toLowerCase());
  if (authType !== 'basic' || !providers.includes('file') || !nearest('authuserfile')) {
    note(`no credentials sent where authentication is not Basic with an AuthUserFile (AuthType ${authType || 'unset'}, providers ${providers.join(' ')})`);
    return [NO_CREDENTIALS];
  }
  const out: Credential[] = [NO_CREDENTIALS, users.valid(users.plain), users.bad()];
  const groupFile = nearest('authgroupfile') !== null;
  for (const words of requires) {
    const kind = (words[0] ?? '').toLowerCase();
    if (kind === 'user') for (const u of words.slice(1, 3)) {
      const user = users.named(u);
      if (user) out.push(users.valid(user));
    }
    if ((kind === 'group') && groupFile) for (const g of words.slice(1, 3)) {
      const user = users.member(g);
      if (user) out.push(users.valid(user));
    }
  }
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.label) && !!seen.add(c.label)).slice(0, 8);
}

function leafWords(n: RequireNode | null): string[][] {
  if (!n) return [];
  if (n.kind === 'require') return [[n.provider, ...n.args]];
  return n.children.flatMap(leafWords);
}

/**
 * The request as the model sees it. httpd looks up a client's name only for host-name rules, with
 * the system resolver: 127.0.0.1 is `localhost` (and the replay sends from no other address where
 * such rules apply); a static request may carry a name.
 */
function modelRequest(ip: string, method: string, credential: Credential, hostName: string | null = ip === '127.0.0.1' ? 'localhost' : null): Request {
  return { ip, hostName, env: [], method, credentials: credential.model };
}

/** Round-robin over the per-URL lists, so a cap keeps every URL represented. */
function interleave<T>(lists: T[][], cap: number): { kept: T[]; dropped: number } {
  const kept: T[] = [];
  const total = lists.reduce((n, l) => n + l.length, 0);
  for (let i = 0; kept.length < Math.min(cap, total); i++) for (const l of lists) if (i < l.length && kept.length < cap) kept.push(l[i]);
  return { kept, dropped: total - kept.length };
}

export function planRequests(input: RequestSetInput, targets: readonly Target[]): RequestSet {
  const notes: string[] = [];
  // one line per reason, naming the URLs it applies to
  const byReason = new Map<string, string[]>();
  const note = (reason: string, url?: string) => {
    const urls = byReason.get(reason) ?? [];
    if (url && !urls.includes(url)) urls.push(url);
    byReason.set(reason, urls);
  };
  const perUri: PlannedRequest[][] = [];
  const statics: StaticResult[] = [];
  for (const target of targets) {
    const host = target.index < 0 ? null : input.original.vhosts[target.index];
    const sameShape = input.migrated.vhosts.length === input.original.vhosts.length;
    for (const uri of urisFor(input, host)) {
      const resolved = resolveUrl(input.space('original', target.index), uri);
      if (resolved.kind === 'skip') {
        note(resolved.reason, `${target.hostHeader}${uri}`);
        continue;
      }
      const chain = resolved.chain;
      const scopes = chain.map((l) => l.scope.where);
      const migrated = sameShape ? resolveUrl(input.space('migrated', target.index), uri) : null;
      const creds = credentialsFor(chain, input.users, (reason) => note(reason, `${target.hostHeader}${uri}`));
      const live = ['127.0.0.1'];
      const elsewhere: { address: string; hostName: string | null }[] = [];
      const specs = ruleWords(chain, 'ip');
      const names = ruleWords(chain, 'host');
      for (const spec of specs) {
        const inside = insideAddress(spec);
        if (!inside) continue;
        if (inside.loopback) live.push(inside.address);
        else elsewhere.push({ address: inside.address, hostName: null });
      }
      if (specs.length > 0 || names.length > 0) elsewhere.push({ address: OUTSIDE_ANYWHERE, hostName: null });
      for (const name of names) elsewhere.push({ address: OUTSIDE_ANYWHERE, hostName: name.startsWith('.') ? `codemod${name}` : name });
      if (names.length > 0) {
        // name lookups of other loopback addresses may leave the machine: only 127.0.0.1 (localhost)
        live.length = 1;
        note('host-name rules: live requests only from 127.0.0.1 (localhost, so name lookups stay on this machine), other names judged statically', `${target.hostHeader}${uri}`);
      } else if (live.length > 1) live.push(...OUTSIDE_LOOPBACK);
      const list: PlannedRequest[] = [];
      for (const method of methodsFor(chain)) {
        for (const credential of creds) {
          for (const address of [...new Set(live)].slice(0, 6)) {
            const p = predict22(chain, modelRequest(address, method, credential));
            if ('skip' in p) {
              note(p.skip, `${target.hostHeader}${uri}`);
              continue;
            }
            list.push({ target, uri, fsPath: resolved.fsPath, method, address, credential, expected: p.outcome, scopes });
          }
          for (const { address, hostName } of elsewhere.slice(0, 6)) {
            if (statics.length >= MAX_STATIC) break;
            const req = modelRequest(address, method, credential, hostName);
            const p = predict22(chain, req);
            if (!migrated || migrated.kind === 'skip') {
              note(`the migrated config could not be judged statically (${migrated?.kind === 'skip' ? migrated.reason : 'its virtual hosts differ'})`, `${target.hostHeader}${uri}`);
              continue;
            }
            const q = predict24(migrated.chain, req, input.compatLoaded);
            if ('skip' in p || 'skip' in q) {
              note('skip' in p ? p.skip : (q as { skip: string }).skip, `${target.hostHeader}${uri}`);
              continue;
            }
            const from = hostName ? `${address} (${hostName})` : address;
            statics.push({ text: `${method} ${target.tls ? 'https' : 'http'}://${target.hostHeader}${uri} from ${from} as ${credential.label} (judged statically)`, expected: p.outcome, actual: q.outcome, scopes });
          }
        }
      }
      perUri.push(list);
    }
  }
  const { kept, dropped } = interleave(perUri, MAX_LIVE);
  if (dropped > 0) note(`${dropped} further requests not sent (at most ${MAX_LIVE} per server)`);
  for (const [reason, urls] of byReason) {
    const shown = urls.slice(0, 4).join(', ') + (urls.length > 4 ? ` and ${urls.length - 4} more` : '');
    notes.push(urls.length > 0 ? `${reason}: ${shown}` : reason);
  }
  return { live: kept, statics, notReplayed: notes };
}
