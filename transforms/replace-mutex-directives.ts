// Upgrade note "Misc: the mutex directives are replaced by Mutex mechanism[:directory] name".
//
// AcceptMutex, LockFile, SSLMutex, SSLStaplingMutex, RewriteLock and WatchdogMutexPath are
// `Invalid command` on 2.4; each becomes `Mutex mechanism[:directory] mutex-name` in place.
// Measured on httpd 2.4.71 (see __tests__/httpd-mutex-ssl.test.ts):
// - the part after `mech:` is a DIRECTORY that must exist when httpd starts (`Invalid Mutex
//   directory in argument …`), also for mechanisms that use no file (`sysvsem:/missing` fails); the
//   2.2 directives named a lock FILE, so its dirname is used, and only for file-based mechanisms
//   (fcntl, flock, file) and `default` (2.2 passed the lock file to APR's default mechanism too);
// - a started server keeps its mpm-accept / ssl-cache lock files in that directory;
// - `Mutex none` (2.2's `SSLMutex none|no`) is refused: "None is not allowed for mutex type
//   ssl-cache" — the line is dropped, so 2.4 uses its default mechanism;
// - mutex names are case-sensitive (`SSL-Cache` is invalid), mechanisms are not;
// - `mpm-accept` exists only under prefork and worker (`Mutex type mpm-accept is not valid` under
//   event, which has no accept mutex); ssl-cache / rewrite-map need their module, as the 2.2
//   directives did; Mutex cannot occur within <VirtualHost>.
// `AcceptMutex default` and `SSLMutex default|yes` are 2.4's default: they are removed.
// AcceptMutex (mechanism) and LockFile (directory) of one file combine into one Mutex line at
// the AcceptMutex's place, because on 2.4 each `Mutex … mpm-accept` line sets both.
import { ConfigFile, Directive, Node, ancestors, directives, remove, replaceWith } from '../src/cst';
import { ServerTree } from '../src/server/types';
import { appliesOn24, isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform, TransformContext } from './types';

/** 2.4's Mutex mechanisms (util_mutex.c). */
const MECHANISMS = new Set(['default', 'fcntl', 'flock', 'file', 'sysvsem', 'posixsem', 'pthread', 'sem']);
/** Mechanisms that keep a lock file in a directory. `default` may be one of them, depending on APR. */
const FILE_BASED = new Set(['fcntl', 'flock', 'file', 'default']);

const NAMES = ['AcceptMutex', 'LockFile', 'SSLMutex', 'SSLStaplingMutex', 'RewriteLock', 'WatchdogMutexPath'];

type Mechanism = { kind: 'mech'; mech: string; dir: string | null } | { kind: 'none' } | { kind: 'unknown' };

/** The directory part of a lock-file path ('' when it has none). */
function dirnameOf(file: string): string {
  const slash = file.lastIndexOf('/');
  if (slash === -1) return '';
  return slash === 0 ? '/' : file.slice(0, slash);
}

/** Reads a 2.2 mechanism argument (`fcntl`, `file:/path/to/lockfile`, `yes`, `none` …). */
function readMechanism(value: string): Mechanism {
  const colon = value.indexOf(':');
  const mech = (colon === -1 ? value : value.slice(0, colon)).toLowerCase();
  const file = colon === -1 ? null : value.slice(colon + 1);
  if (mech === 'none' || mech === 'no') return { kind: 'none' };
  const name = mech === 'yes' ? 'default' : mech;
  if (!MECHANISMS.has(name)) return { kind: 'unknown' };
  const dir = file !== null && FILE_BASED.has(name) ? dirnameOf(file) : null;
  return { kind: 'mech', mech: name, dir: dir === '' ? null : dir };
}

function mutexArg(mech: string, dir: string | null): string {
  return dir === null ? mech : `${mech}:${dir}`;
}

const MPM_ACCEPT_GUARDS = new Set(['prefork.c', 'worker.c', 'mpm_prefork_module', 'mpm_worker_module', '!event.c', '!mpm_event_module']);
const EVENT_GUARDS = new Set(['event.c', 'mpm_event_module']);

/** Whether an `mpm-accept` mutex can exist where `node` stands: not under event. */
function acceptMutexPossible(node: Node, eventServer: boolean): boolean {
  for (const s of ancestors(node)) {
    if (!s.is('IfModule')) continue;
    const arg = s.values.join('').replace(/\s+/g, '');
    if (MPM_ACCEPT_GUARDS.has(arg)) return true;
    if (EVENT_GUARDS.has(arg)) return false;
  }
  return !eventServer;
}

/** The server runs the event MPM: `--mpm event`, or the config already loads it. */
function eventServer(ctx: TransformContext): boolean {
  if (ctx.options.mpm === 'event') return true;
  for (const f of ctx.server.files) if (directives(f.tree, 'LoadModule').some(loadsEvent)) return true;
  return false;
}

// module-level tests (not closures per call): V8 optimizes them once per run
function loadsEvent(d: Directive): boolean {
  return (d.values[0] ?? '').toLowerCase() === 'mpm_event_module';
}

/**
 * Files of the server (other than `self`) with an AcceptMutex that applies on 2.4, as they were before
 * this transform: found once per server, on the first file this transform sees, before it edits any.
 */
const acceptMutexFiles = new WeakMap<ServerTree, string[]>();
function otherAcceptMutexFiles(server: ServerTree, self: ConfigFile): string[] {
  let found = acceptMutexFiles.get(server);
  if (!found) {
    found = [];
    for (const f of server.files) if (directives(f.tree, 'AcceptMutex').some(appliesOn24)) found.push(f.displayPath);
    acceptMutexFiles.set(server, found);
  }
  let mine: string | undefined;
  for (const f of server.files) {
    if (f.tree !== self) continue;
    mine = f.displayPath;
    break;
  }
  return found.filter((p) => p !== mine);
}

function inVirtualHost(d: Directive): boolean {
  return ancestors(d).some((s) => s.is('VirtualHost'));
}

function describe(d: Directive): string {
  return `${d.name} ${d.values.join(' ')}`.trim();
}

/** Replaces `d` by a Mutex line, or removes it when `arg` is null. */
function put(d: Directive, arg: string | null, mutex: string): string {
  if (arg === null) {
    remove(d);
    return '';
  }
  replaceWith(d, [`Mutex ${arg} ${mutex}`]);
  return `Mutex ${arg} ${mutex}`;
}

function dirNote(dir: string | null): string {
  return dir === null
    ? ''
    : `; "${dir}" is a directory on 2.4 (2.2 named a lock file in it) and must exist when httpd starts, else 2.4 refuses the config (Invalid Mutex directory)`;
}

export const replaceMutexDirectives: Transform = {
  id: 'replace-mutex-directives',
  title: 'Replace AcceptMutex, LockFile, SSLMutex, RewriteLock, SSLStaplingMutex, WatchdogMutexPath with Mutex',
  row: 'Misc: the mutex directives are replaced by Mutex mechanism[:directory] name',
  order: 450,
  triggers: { directives: NAMES },
  applyFile(tree, ctx) {
    if (ctx.file?.role === 'htaccess') return;
    // asked on every file, so the per-server answer is taken before this transform edits any of them
    const others = otherAcceptMutexFiles(ctx.server, tree);
    const all = [...directives(tree, ...NAMES)].filter((d) => !isTwoTwoOnly(d));
    const placed = all.filter((d) => !inVirtualHost(d));
    // where each line stood before any edit (edits detach nodes)
    const parentOf = new Map(all.map((d) => [d, d.parent]));
    const event = placed.some((d) => d.is('AcceptMutex', 'LockFile')) && eventServer(ctx);
    const accepts = placed.filter((d) => d.is('AcceptMutex'));
    const locks = placed.filter((d) => d.is('LockFile'));
    const lastLock = locks[locks.length - 1];
    const lockDir = lastLock ? dirnameOf(lastLock.values[0] ?? '') || null : null;

    for (const d of all) {
      const value = d.values[0] ?? '';
      const was = describe(d);
      if (!placed.includes(d)) {
        ctx.note(d, 'mutex-in-virtualhost', `${was} inside <VirtualHost> left alone: 2.2 refused it there too, and 2.4's Mutex is server-wide only`, 'manual');
        continue;
      }
      if (d.values.length !== 1) {
        ctx.note(d, 'mutex-unknown-mechanism', `${was}: expected one argument; left alone, write the Mutex line by hand`, 'manual');
        continue;
      }
      if (d.is('AcceptMutex') || d.is('LockFile')) {
        if (!acceptMutexPossible(d, event)) {
          remove(d);
          ctx.note(d, 'accept-mutex-removed', `${was} removed: the event MPM has no accept mutex (2.4 refuses "Mutex … mpm-accept" under event)`, 'info');
          continue;
        }
      }
      if (d.is('LockFile')) {
        if (accepts.length > 0) {
          const apart = accepts.some((a) => parentOf.get(a) !== parentOf.get(d));
          remove(d);
          const lines = accepts.map((a) => a.line).join(', ');
          const used = accepts.some((a) => {
            const m = readMechanism(a.values[0] ?? '');
            return m.kind === 'mech' && FILE_BASED.has(m.mech);
          });
          ctx.note(
            d,
            'lock-file-merged',
            (used && lockDir !== null
              ? `${was} removed: its directory goes into the Mutex line written for AcceptMutex (line ${lines})`
              : used
                ? `${was} removed: a lock file without a directory; 2.4 keeps it in DefaultRuntimeDir`
                : `${was} removed: the AcceptMutex mechanism (line ${lines}) uses no lock file`) +
              (apart ? '; on 2.2 it applied to every accept mutex, on 2.4 only where that Mutex line applies (it sits in another section)' : ''),
            apart ? 'review' : 'info',
          );
          continue;
        }
        const dir = dirnameOf(value) || null;
        const now = put(d, mutexArg('default', dir), 'mpm-accept');
        ctx.note(
          d,
          'mutex-replaced',
          `${was} → ${now}` +
            (dir === null ? ' (a lock file without a directory: 2.4 keeps it in DefaultRuntimeDir)' : dirNote(dir)) +
            (others.length > 0 ? `; AcceptMutex is set in ${others.join(', ')}: on 2.4 the last "Mutex … mpm-accept" line wins, merge them by hand` : ''),
          dir !== null || others.length > 0 ? 'review' : 'info',
        );
        continue;
      }

      const mutex = d.is('AcceptMutex')
        ? 'mpm-accept'
        : d.is('SSLMutex')
          ? 'ssl-cache'
          : d.is('SSLStaplingMutex')
            ? 'ssl-stapling'
            : d.is('RewriteLock')
              ? 'rewrite-map'
              : 'watchdog-callback';
      let mech: Mechanism;
      if (d.is('RewriteLock') || d.is('WatchdogMutexPath')) {
        // both named a path for a lock of APR's default mechanism: RewriteLock a file, WatchdogMutexPath a directory
        const dir = d.is('RewriteLock') ? dirnameOf(value) : value;
        mech = { kind: 'mech', mech: 'default', dir: dir === '' ? null : dir };
      } else {
        mech = readMechanism(value);
      }
      if (mech.kind === 'unknown') {
        ctx.note(d, 'mutex-unknown-mechanism', `${was}: 2.4 has no mutex mechanism "${value}" (it has ${[...MECHANISMS].join(', ')}); left alone, write "Mutex <mechanism> ${mutex}" by hand`, 'manual');
        continue;
      }
      if (mech.kind === 'none') {
        remove(d);
        ctx.note(
          d,
          'mutex-none-removed',
          `${was} removed: 2.4 refuses "Mutex none ${mutex}" ("None is not allowed for mutex type ${mutex}"); it now locks with the default mechanism, which 2.2 advised anyway`,
          'review',
        );
        continue;
      }
      let dir = mech.dir;
      if (d.is('AcceptMutex') && lockDir !== null && FILE_BASED.has(mech.mech)) dir = lockDir;
      if (mech.mech === 'default' && dir === null) {
        remove(d);
        ctx.note(d, 'mutex-default-removed', `${was} removed: the default mechanism is what 2.4 uses for ${mutex} without a Mutex line`, 'info');
        continue;
      }
      const now = put(d, mutexArg(mech.mech, dir), mutex);
      const merged = d.is('AcceptMutex') && lastLock && dir === lockDir && dir !== null ? ` (directory from LockFile on line ${lastLock.line})` : '';
      const unused = d.is('AcceptMutex') && lastLock && !FILE_BASED.has(mech.mech) ? ` (${mech.mech} uses no lock file: LockFile is dropped)` : '';
      ctx.note(d, 'mutex-replaced', `${was} → ${now}${merged}${unused}${dirNote(dir)}`, dir !== null ? 'review' : 'info');
    }
  },
};
