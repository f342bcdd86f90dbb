/**
 * The stage of `--verify=requests` (on top of stage-server.ts): every `Listen` and `<VirtualHost>`
 * address moves to 127.0.0.1 on a free port, one port per distinct address:port of the original
 * (so name-based and address-based virtual hosts keep answering as they did); DocumentRoot, Alias
 * targets and `<Directory>` paths move into docs/, empty skeletons that hold only the migrated
 * per-directory files (no content of the host is served, no script of it runs); every
 * AuthUserFile / AuthGroupFile is the throw-away file in auth/.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ConfigFile, walk } from '../../cst';
import { StageHooks } from '../stage-server';
import { StageLayout, makeDirs } from '../stage-layout';

/** `80` → `*:80`, `10.0.0.1:80` → `10.0.0.1:80`, `[::]:443` → `*:443`; a vhost address without port → `addr:*`. */
export function addressKey(value: string, fromListen: boolean): string {
  let v = value.trim();
  if (/^\d+$/.test(v)) return `*:${v}`;
  let host = v;
  let port = '*';
  const bracket = /^\[([^\]]*)\](?::(\d+|\*))?$/.exec(v);
  if (bracket) {
    host = bracket[1];
    port = bracket[2] ?? '*';
  } else {
    const colon = v.lastIndexOf(':');
    if (colon > 0 && v.indexOf(':') === colon) {
      host = v.slice(0, colon);
      port = v.slice(colon + 1);
    }
  }
  v = host.toLowerCase();
  if (v === '*' || v === '_default_' || v === '0.0.0.0' || v === '::') host = '*';
  if (fromListen && port === '*') port = '80';
  return `${host}:${port}`;
}

/** Every Listen and VirtualHost address key in the trees (all of them, whatever conditions hold: the stage rewrites text). */
export function addressKeys(trees: readonly ConfigFile[]): { listen: string[]; vhost: string[] } {
  const listen = new Set<string>();
  const vhost = new Set<string>();
  for (const tree of trees) {
    for (const node of walk(tree)) {
      if (node.kind === 'directive' && node.is('Listen') && node.values.length > 0) listen.add(addressKey(node.values[0], true));
      else if (node.kind === 'section' && node.is('VirtualHost')) for (const v of node.values) vhost.add(addressKey(v, false));
    }
  }
  return { listen: [...listen], vhost: [...vhost] };
}

export interface ReplayStageOptions {
  readonly layout: StageLayout;
  /** Address key → local port. */
  readonly ports: ReadonlyMap<string, number>;
  /** A content path as written → where it is on this machine (ServerRoot mapping; relative paths from ServerRoot). */
  readonly mapPath: (p: string) => string;
}

export interface ReplayStage {
  readonly hooks: StageHooks;
  /** `-c "Listen 127.0.0.1:PORT"` for addresses that virtual hosts use and no Listen line names. */
  readonly extraArgs: string[];
  /** Stage location of a path of this machine (the docs/ skeleton). */
  readonly docs: (realPath: string) => string;
  readonly htpasswd: string;
  readonly htgroups: string;
}

const REGEX_META = '.*+?()[]{}|$^';

/** The literal path an anchored regex starts with (`^/var/www/`), and the rest; null when it does not start with one. */
function anchoredPrefix(regex: string): { literal: string; rest: string } | null {
  if (!regex.startsWith('^/')) return null;
  let i = 1;
  let literal = '';
  let lastSlash = { at: 1, literal: '' };
  while (i < regex.length) {
    const c = regex[i];
    if (c === '\\' && i + 1 < regex.length && !/[A-Za-z0-9]/.test(regex[i + 1])) {
      literal += regex[i + 1];
      i += 2;
    } else if (REGEX_META.includes(c) || c === '\\') break;
    else {
      literal += c;
      i++;
    }
    if (literal.endsWith('/')) lastSlash = { at: i, literal };
  }
  if (lastSlash.literal === '') return null;
  return { literal: lastSlash.literal, rest: regex.slice(lastSlash.at) };
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export function replayStage(options: ReplayStageOptions): ReplayStage {
  const { layout, ports } = options;
  const docs = (real: string) => path.join(layout.docs, real);
  const htpasswd = path.join(layout.auth, 'htpasswd');
  const htgroups = path.join(layout.auth, 'htgroups');
  const local = (key: string) => `127.0.0.1:${ports.get(key) ?? 0}`;

  const content = (value: string, regex: boolean): string | null => {
    if (value.includes('${')) return null;
    if (regex) {
      const anchored = anchoredPrefix(value);
      if (!anchored) return null; // unanchored: matches the skeleton's paths as it matched the host's
      return `^${escapeRegex(docs(options.mapPath(anchored.literal)).replace(/\/?$/, '/'))}${anchored.rest}`;
    }
    if (value === '/') return null;
    const real = options.mapPath(value);
    const staged = docs(real);
    if (/[*?[]/.test(value)) return staged;
    let isFile = false;
    try {
      isFile = fs.statSync(real).isFile();
    } catch {
      isFile = false;
    }
    if (isFile) {
      makeDirs(path.dirname(staged));
      if (!fs.existsSync(staged)) fs.writeFileSync(staged, '', { mode: 0o644 });
    } else makeDirs(staged);
    return staged;
  };

  const used = new Set<string>();
  const hooks: StageHooks = {
    listen(values) {
      const key = addressKey(values[0], true);
      used.add(key);
      return local(key);
    },
    virtualHost(values) {
      return values.map((v) => local(addressKey(v, false)));
    },
    contentPath: content,
    authFile(kind) {
      return kind === 'user' ? htpasswd : htgroups;
    },
  };
  return {
    hooks,
    get extraArgs() {
      const out: string[] = [];
      for (const [key, port] of ports) if (!used.has(key) && !key.startsWith('*:')) out.push('-c', `Listen 127.0.0.1:${port}`);
      return out;
    },
    docs,
    htpasswd,
    htgroups,
  };
}
