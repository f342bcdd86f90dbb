/**
 * Runtime paths: every file or directory a directive makes httpd (or a module) write — pid file,
 * logs, mutex and lock directories, shared-memory caches, sockets, DAV lock databases, disk
 * caches — is pointed into the stage, so verifying never touches the host's /var/run, /var/log
 * or /var/lock, and a started stage never competes with the running server for them.
 */
import * as path from 'path';
import { makeDirs } from './stage-layout';

export type RuntimeKind = 'file' | 'dir' | 'log' | 'mutex' | 'socache';

/** Directive (lower case) → what its first argument names. */
export const RUNTIME_DIRECTIVES: ReadonlyMap<string, RuntimeKind> = new Map(Object.entries({
  pidfile: 'file',
  scoreboardfile: 'file',
  lockfile: 'file',
  rewritelock: 'file',
  davlockdb: 'file',
  scriptsock: 'file',
  ldapsharedcachefile: 'file',
  jkshmfile: 'file',
  wsgisocketprefix: 'file',
  defaultruntimedir: 'dir',
  cacheroot: 'dir',
  coredumpdirectory: 'dir',
  watchdogmutexpath: 'dir',
  mdstoredir: 'dir',
  secdatadir: 'dir',
  sectmpdir: 'dir',
  secuploaddir: 'dir',
  errorlog: 'log',
  customlog: 'log',
  transferlog: 'log',
  cookielog: 'log',
  scriptlog: 'log',
  forensiclog: 'log',
  globallog: 'log',
  rewritelog: 'log',
  secauditlog: 'log',
  secdebuglog: 'log',
  jklogfile: 'log',
  mutex: 'mutex',
  sslmutex: 'mutex',
  acceptmutex: 'mutex',
  sslsessioncache: 'socache',
  sslstaplingcache: 'socache',
} satisfies Record<string, RuntimeKind>));

/** Hands out stage paths for runtime values, one per occurrence, named after the original. */
export class RuntimePaths {
  private count = 0;
  readonly kinds = new Set<RuntimeKind>();

  constructor(
    private readonly run: string,
    private readonly logs: string,
    /** --verify=requests: piped and syslog logs become files too (the stage runs, and must not feed the host's log pipelines). */
    private readonly replaceLogPipes: boolean,
  ) {}

  private slug(value: string, fallback: string): string {
    const base = path.basename(value.replace(/\(.*$/, '').replace(/[/\\]+$/, ''));
    // `${APACHE_LOCK_DIR}` alone names itself by its variable
    const named = base.replace(/\$\{[^}]*\}/g, '') === '' ? base.replace(/[${}]/g, '') : base.replace(/\$\{[^}]*\}/g, '');
    const clean = named.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '');
    return `${++this.count}-${clean || fallback}`;
  }

  private file(value: string): string {
    return path.join(this.run, this.slug(value, 'file'));
  }

  private dir(value: string): string {
    const d = path.join(this.run, this.slug(value, 'dir'));
    makeDirs(d);
    return d;
  }

  /** The staged value for the first argument of a runtime directive, or null to keep it. */
  rewrite(kind: RuntimeKind, value: string): string | null {
    this.kinds.add(kind);
    switch (kind) {
      case 'file':
        return this.file(value);
      case 'dir':
        return this.dir(value);
      case 'log': {
        const piped = value.startsWith('|');
        const syslog = /^syslog(:|$)/i.test(value);
        if ((piped || syslog) && !this.replaceLogPipes) return null;
        return path.join(this.logs, this.slug(piped || syslog ? 'piped.log' : value, 'log'));
      }
      case 'mutex': {
        const colon = value.indexOf(':');
        if (colon < 0) return null;
        return `${value.slice(0, colon)}:${this.dir(value.slice(colon + 1))}`;
      }
      case 'socache': {
        const m = /^(shmcb|shmht|dbm|dc|shm):(.*?)(\(\d+\))?$/i.exec(value);
        if (!m || m[1].toLowerCase() === 'dc') return null;
        return `${m[1]}:${this.file(m[2])}${m[3] ?? ''}`;
      }
    }
  }
}
