/**
 * `--verify=requests`: the migrated server, staged with loopback addresses, empty content
 * skeletons and throw-away credentials (stage-replay.ts), is started in its own process group and
 * answers a request set derived from the original config (request-set.ts); each answer is
 * compared with 2.2's for the original config (predict.ts). Only loopback traffic, at most
 * MAX_LIVE requests, 8 at a time, each within 5 s and all within 2 minutes; the server is always
 * stopped (its process group), also when something fails.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ConfigFile, Section, directives, parse } from '../../cst';
import { RequestMismatch, RequestReplay, VerificationMessage } from '../../model/server-outcome';
import { RENAMED, readIfModule } from '../../modules/knowledge';
import { HttpdProbe } from '../../modules/probe';
import { ifVersionHolds } from '../../semantics/version-guards';
import { wrapperVerdict } from '../../semantics/access/wrappers';
import { freePorts, portOpen, spawnHttpd } from '../httpd-process';
import { MessageMapper, messageTexts } from '../httpd-messages';
import { mapPrefixes } from '../path-prefixes';
import { ServerFileText, realpathOr, serverRootOf, stageServer } from '../stage-server';
import { createStage, makeDirs, removeStage } from '../stage-layout';
import { HostContext, ServerView, Truth, readServerView } from './config-view';
import { ReplayUsers } from './credentials';
import { statusClass } from './predict';
import { PlannedRequest, planRequests, targetsOf } from './request-set';
import { Status, send } from './send';
import { addressKeys, replayStage } from './stage-replay';
import { PerDirectoryFile, UrlSpaceInput } from './url-space';

export interface ReplayInput {
  readonly main: ServerFileText;
  readonly files: readonly ServerFileText[];
  readonly serverRoot: string;
  readonly probe: HttpdProbe;
  /** Modules the staged server loads (from the configtest). */
  readonly modules: readonly string[];
  readonly keep: boolean;
  /** The migrated text of a per-directory file (as its own run writes it), or null to use it as it is. */
  readonly migratePerDirectory?: (realPath: string) => string | null;
}

export interface ReplayResult {
  readonly ok: boolean;
  readonly messages: VerificationMessage[];
  readonly staged: string[];
  readonly requests?: RequestReplay;
}

const CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 5000;
const TOTAL_MS = 120000;
const START_MS = 20000;

function truths(modules: ReadonlySet<string>, loaded22: ReadonlySet<string>): { t22: Truth; t24: Truth } {
  const ifModule = (s: Section, loaded: (id: string) => boolean) => {
    const test = readIfModule(s.values);
    return (test.id !== null && loaded(test.id)) !== test.negated;
  };
  const ifDefine = (s: Section) => (s.values[0] ?? '').startsWith('!');
  const t24: Truth = (s) => {
    if (s.is('IfModule')) return ifModule(s, (id) => modules.has(`${id}_module`));
    if (s.is('IfDefine')) return ifDefine(s);
    return ifVersionHolds(s.values) ?? true;
  };
  const back = new Map(Object.entries(RENAMED).map(([old, now]) => [now, old]));
  const t22: Truth = (s) => {
    const verdict = wrapperVerdict(s);
    if (verdict && verdict.kind !== 'unknown') return verdict.kind === 'both' || verdict.kind === 'only22';
    if (s.is('IfModule')) return ifModule(s, (id) => loaded22.has(id) || modules.has(`${id}_module`) || modules.has(`${RENAMED[id] ?? back.get(id) ?? id}_module`));
    if (s.is('IfDefine')) return ifDefine(s);
    return ifVersionHolds(s.values, [2, 2, 34]) ?? true;
  };
  return { t22, t24 };
}

async function inPool<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  return out;
}

function describe(r: PlannedRequest): string {
  return `${r.method} ${r.target.tls ? 'https' : 'http'}://${r.target.hostHeader}${r.uri} from ${r.address} as ${r.credential.label}`;
}

/** The last lines of the stage's error logs (a start that fails is logged there, not on stderr). */
function errorLogTail(dir: string): string {
  const out: string[] = [];
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!/error|piped/i.test(name)) continue;
    const lines = fs.readFileSync(path.join(dir, name), 'latin1').trimEnd().split('\n').slice(-6);
    if (lines.join('').trim()) out.push(...lines);
  }
  return out.join('\n');
}

export async function replayRequests(input: ReplayInput): Promise<ReplayResult> {
  const original = new Map<string, ConfigFile>();
  const migrated = new Map<string, ConfigFile>();
  const display = new Map<string, string>();
  for (const f of input.files) {
    original.set(f.realPath, parse(f.original));
    migrated.set(f.realPath, parse(f.migrated));
    display.set(f.realPath, f.displayPath);
  }
  const modules = new Set(input.modules);
  const loaded22 = new Set<string>();
  for (const tree of original.values()) {
    for (const n of directives(tree, 'LoadModule')) if (n.values[0]) loaded22.add(n.values[0].replace(/_module$/, ''));
  }
  const { t22, t24 } = truths(modules, loaded22);
  const { serverRoot } = serverRootOf(input.main, input.serverRoot);
  const mapPath = (p: string) => (path.isAbsolute(p) ? serverRoot.map(p) : path.resolve(serverRoot.root, p));

  const layout = createStage();
  let server: ReturnType<typeof spawnHttpd> | null = null;
  try {
    const keys = addressKeys([...migrated.values()]);
    const all = [...new Set([...keys.listen, ...keys.vhost])];
    const portList = await freePorts(all.length);
    const ports = new Map(all.map((k, i) => [k, portList[i]]));
    const replay = replayStage({ layout, ports, mapPath });
    const stage = stageServer({ main: input.main, files: input.files, serverRoot: input.serverRoot, probe: input.probe, layout, hooks: replay.hooks });
    const notes = [...stage.notes, 'Listen and <VirtualHost> addresses -> 127.0.0.1 on free ports', 'DocumentRoot, Alias targets and <Directory> paths -> empty skeletons holding only the migrated per-directory files', 'AuthUserFile / AuthGroupFile -> throw-away files'];
    if (input.keep) notes.push(`replay stage kept in ${layout.dir}`);

    // per-directory files: the original for the 2.2 model, the migrated text (as its own run
    // writes it) for the static 2.4 judgement and in the skeleton, for every one the model met
    const met = new Map<string, { original: string; migrated: string }>();
    const migratedText = (file: string, original: string) => input.migratePerDirectory?.(realpathOr(file)) ?? original;
    const perDirectory = (which: 'original' | 'migrated') => {
      const cache = new Map<string, PerDirectoryFile | null>();
      return (dir: string, names: readonly string[]): PerDirectoryFile | null => {
        for (const name of names) {
          const file = path.join(dir, name);
          if (!cache.has(file)) {
            let text: string | null = null;
            try {
              if (fs.statSync(file).isFile()) text = fs.readFileSync(file, 'latin1');
            } catch {
              text = null;
            }
            if (text !== null) {
              const texts = met.get(file) ?? { original: text, migrated: migratedText(file, text) };
              met.set(file, texts);
              text = texts[which];
            }
            cache.set(file, text === null ? null : { tree: parse(text), where: file });
          }
          const hit = cache.get(file);
          if (hit) return hit;
        }
        return null;
      };
    };
    const views: Record<'original' | 'migrated', ServerView> = {
      original: readServerView({ mainPath: input.main.realPath, context: stage.includeContext, tree: (p) => original.get(p) ?? null, display: (p) => display.get(p) ?? p, truth: t22 }),
      migrated: readServerView({ mainPath: input.main.realPath, context: stage.includeContext, tree: (p) => migrated.get(p) ?? null, display: (p) => display.get(p) ?? p, truth: t24 }),
    };
    const lookups = { original: perDirectory('original'), migrated: perDirectory('migrated') };
    const space = (which: 'original' | 'migrated', index: number): UrlSpaceInput => {
      const view = views[which];
      const host: HostContext | null = index < 0 ? null : (view.vhosts[index] ?? null);
      return { main: view.main, host, mapPath, perDirectory: lookups[which], truth: which === 'original' ? t22 : t24, version: which === 'original' ? 22 : 24 };
    };
    const notReplayed: string[] = [];
    const targets = targetsOf(views.original, ports, notReplayed);
    const users = new ReplayUsers();
    const set = planRequests({ original: views.original, migrated: views.migrated, space, ports, users, compatLoaded: modules.has('access_compat_module'), mapPath }, targets);
    notReplayed.push(...set.notReplayed);
    users.write(replay.htpasswd, replay.htgroups);

    const staticMismatches: RequestMismatch[] = set.statics.filter((s) => s.expected !== s.actual).map((s) => ({ request: s.text, expected: s.expected, actual: s.actual, scopes: s.scopes }));
    const staticResult = { evaluated: set.statics.length, matched: set.statics.length - staticMismatches.length, mismatches: staticMismatches };
    if (set.live.length === 0) {
      const requests: RequestReplay = { sent: 0, hosts: [], matched: 0, mismatches: [], static: staticResult, notReplayed };
      return { ok: staticMismatches.length === 0, messages: [], staged: notes, requests };
    }

    // the skeleton: every directory a request walks, and the migrated per-directory files met on the way
    for (const r of set.live) makeDirs(replay.docs(path.posix.dirname(r.fsPath)));
    for (const [file, texts] of met) {
      const staged = replay.docs(file);
      makeDirs(path.dirname(staged));
      fs.writeFileSync(staged, Buffer.from(stage.rewritePerDirectory(texts.migrated), 'latin1'), { mode: 0o644 });
    }

    const mapper = new MessageMapper(stage);
    server = spawnHttpd(input.probe.binary, [...stage.args, ...replay.extraArgs], stage.env, Math.ceil((START_MS + TOTAL_MS) / 1000) + 30);
    const wanted = [...new Set(set.live.map((r) => r.target.port))];
    const deadline = Date.now() + START_MS;
    let up = false;
    while (!server.gone() && Date.now() < deadline) {
      const open = await Promise.all(wanted.map(portOpen));
      if (open.every(Boolean)) {
        // httpd binds before its post-config hooks, which may still fail
        await new Promise((r) => setTimeout(r, 300));
        up = !server.gone();
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!up) {
      const why = server.gone() ? `exited (${server.exitStatus()})` : `did not listen within ${START_MS / 1000} s`;
      const output = `${server.stderr()}\n${errorLogTail(layout.logs)}`;
      const messages = [{ text: `the staged server did not start: it ${why}` }, ...messageTexts(mapPrefixes(output, stage.displayMaps)).map((t) => mapper.map(t))];
      return { ok: false, messages, staged: notes };
    }

    const until = Date.now() + TOTAL_MS;
    const statuses = await inPool(
      set.live.map((r) => () => (Date.now() > until ? Promise.resolve<Status>('not sent (time limit)') : send(r, REQUEST_TIMEOUT_MS))),
      CONCURRENCY,
    );
    const mismatches: RequestMismatch[] = [];
    const hosts = new Map<string, number>();
    let sent = 0;
    set.live.forEach((r, i) => {
      const s = statuses[i];
      if (s === 'not sent (time limit)') return;
      sent++;
      const host = `${r.target.tls ? 'https' : 'http'}://${r.target.hostHeader}`;
      hosts.set(host, (hosts.get(host) ?? 0) + 1);
      if (typeof s !== 'number' || statusClass(s) !== r.expected) mismatches.push({ request: describe(r), expected: r.expected, actual: s, scopes: r.scopes });
    });
    if (input.keep) {
      const rows = set.live.map((r, i) => `${describe(r)}\t${r.expected}\t${statuses[i]}\t${r.scopes.join(' ')}`);
      const statics = set.statics.map((s) => `${s.text}\t${s.expected}\t${s.actual}\t${s.scopes.join(' ')}`);
      fs.writeFileSync(path.join(layout.dir, 'replay.tsv'), ['request\t2.2\tmigrated\tscopes', ...rows, ...statics].join('\n') + '\n');
    }
    if (sent < set.live.length) notReplayed.push(`${set.live.length - sent} requests not sent: the replay's time limit (${TOTAL_MS / 1000} s) was reached`);
    const requests: RequestReplay = { sent, hosts: [...hosts].map(([host, n]) => ({ host, sent: n })), matched: sent - mismatches.length, mismatches, static: staticResult, notReplayed };
    return { ok: mismatches.length === 0 && staticMismatches.length === 0, messages: [], staged: notes, requests };
  } finally {
    if (server) await server.stop();
    if (!input.keep) removeStage(layout);
  }
}
