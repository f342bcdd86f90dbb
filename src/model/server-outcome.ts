/**
 * What one server's run produces, once its trees are released: the unit of every report
 * (JSON `servers`, SARIF, GitHub annotations, the review site) and of writing.
 */
import { Finding } from './finding';

/** A file that could not be used (missing, unreadable, binary, unbalanced) or written. */
export interface InputError {
  readonly path: string;
  readonly line?: number;
  readonly message: string;
}

export type FileRole = 'main' | 'included' | 'htaccess' | 'fragment' | 'context';

export type FileStatus = 'changed' | 'unchanged' | 'error';

export interface FileOutcome {
  /** Display path (relative to the working directory when inside it). */
  readonly path: string;
  readonly role: FileRole;
  readonly status: FileStatus;
  /** Why the file was left alone, when status is 'error'. */
  readonly error?: InputError;
}

/**
 * unchanged: nothing to do. migrated: changed, nothing for a human. review: changed or not, a
 * finding asks a human to look. manual: a finding a human must act on. error: a file failed.
 */
export type ServerStatus = 'unchanged' | 'migrated' | 'review' | 'manual' | 'error';

/** One module in a server's plan for 2.4. */
export interface ModulePlanEntry {
  /** Module id as in LoadModule without `_module`, e.g. `authz_core`. */
  readonly module: string;
  /** load: a LoadModule line was written for it. needed: it must be loaded, and the run could not write the line (no main config in the run, no LoadModule lines to add it beside). */
  readonly action: 'load' | 'needed';
  readonly reason: string;
  /** Display path of the file the line went into (load), or the file the need was reported in (needed). */
  readonly file: string;
}

/** The user's own httpd's judgement of the staged migrated server (`--verify`). */
export interface Verification {
  /** `configtest` (httpd -t) or `requests` (also a replayed request set). */
  readonly mode: 'configtest' | 'requests';
  /** httpd accepted the staged migrated server (and, for `requests`, every replayed answer matched). */
  readonly verified: boolean;
  /** Set when the server could not be verified at all (a fragment without its main config): the reason. It is then neither verified nor refused. */
  readonly skipped?: string;
  /** The httpd that judged, e.g. `/usr/sbin/apache2 (Apache/2.4.71 (Debian))`. */
  readonly httpd?: string;
  /** httpd's messages, each mapped back to the original file and line where it names one. */
  readonly messages: readonly VerificationMessage[];
  /** What was changed in the stage only (paths mapped, runtime paths pointed into it, …), one line each. */
  readonly staged?: readonly string[];
  /** Modules the staged server loads (`-t -D DUMP_MODULES`), e.g. `authz_core_module`. */
  readonly modules?: readonly string[];
  /** `-t -D DUMP_CONFIG` (mod_info): the configuration as httpd read it, stage paths mapped back. */
  readonly dump?: string;
  /** `--verify=requests`: the replay of requests derived from the config. */
  readonly requests?: RequestReplay;
}

export interface VerificationMessage {
  readonly text: string;
  /** Display path of the file the message names (the original file for staged ones). */
  readonly file?: string;
  /** Line in the original file; absent when the line was written by the migration (see migratedLine). */
  readonly line?: number;
  /** Line in the migrated text httpd read. */
  readonly migratedLine?: number;
  /** The explanation from `codemod explain`, when the message is known. */
  readonly explanation?: string;
}

/** One replayed request whose answer differs from what the 2.2 model predicts for the original config. */
export interface RequestMismatch {
  /** `GET http://www.example.com/private/x from 127.0.0.2 as alice (valid)`. */
  readonly request: string;
  /** 2.2's answer for the original config: 200 (granted), 401, 403 or 500. */
  readonly expected: number;
  /** The staged 2.4 server's HTTP status, or a transport failure. */
  readonly actual: number | string;
  /** The scopes (file:line) the model merged for this request. */
  readonly scopes: readonly string[];
}

export interface RequestReplay {
  /** Requests sent to the staged server. */
  readonly sent: number;
  /** The hosts the requests went to (`https://www.example.com`, as the Host header and scheme), with how many each. */
  readonly hosts: readonly { readonly host: string; readonly sent: number }[];
  readonly matched: number;
  readonly mismatches: readonly RequestMismatch[];
  /** Requests judged without sending them (client addresses outside 127.0.0.0/8), and how many agreed. */
  readonly static: { readonly evaluated: number; readonly matched: number; readonly mismatches: readonly RequestMismatch[] };
  /** What was not replayed and why (proxied or rewritten URLs, Digest/LDAP authentication, …), one line each. */
  readonly notReplayed: readonly string[];
}

export interface ServerOutcome {
  /** Stable, file-name safe id derived from the main config's path (or the fragment's). */
  readonly id: string;
  /** Display path of the main config; null for a fragment or per-directory file run on its own. */
  readonly main: string | null;
  readonly status: ServerStatus;
  readonly files: readonly FileOutcome[];
  readonly findings: readonly Finding[];
  readonly modules: readonly ModulePlanEntry[];
  readonly errors: readonly InputError[];
  /** Unified diff of this server's changed files (`git apply` accepts it); '' when none. */
  readonly patch: string;
  /** Set when `--verify` ran for this server. */
  readonly verification?: Verification;
}

/** A server's status from its files, findings and errors (the order of precedence above). */
export function serverStatus(files: readonly FileOutcome[], findings: readonly Finding[], errors: readonly InputError[]): ServerStatus {
  if (errors.length > 0 || files.some((f) => f.status === 'error')) return 'error';
  if (findings.some((f) => f.severity === 'manual')) return 'manual';
  if (findings.some((f) => f.severity === 'review')) return 'review';
  return files.some((f) => f.status === 'changed') ? 'migrated' : 'unchanged';
}
