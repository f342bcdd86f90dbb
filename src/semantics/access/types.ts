/**
 * The access-control model shared by the 2.2 rule reader, both evaluators
 * (2.2 with its merge rules; 2.4 Require trees with theirs), the compiler
 * from 2.2 rules to a Require tree, and the emitter.
 *
 * Reference: docs/research/access-semantics.md (httpd 2.2 and 2.4.71 source,
 * measured on 2.4.71 in docs/research/access-measurements.md).
 */

/**
 * A set of HTTP methods as `<Limit>` / `<LimitExcept>` define them. Method
 * names are upper case; HEAD is folded into GET (httpd gives them one method
 * number). `{ except: true, methods: [] }` is every method.
 */
export interface MethodMask {
  readonly except: boolean;
  readonly methods: readonly string[];
}

export const ALL_METHODS: MethodMask = { except: true, methods: [] };

/** One word after `Allow from` / `Deny from`. */
export type HostEntry =
  | { readonly kind: 'all' }
  /** As written: full or partial IPv4 (`10.1`), net/mask, CIDR, IPv6. */
  | { readonly kind: 'ip'; readonly spec: string }
  /** A host or domain name (matched after double-reverse DNS, on whole labels). */
  | { readonly kind: 'host'; readonly name: string }
  /** `env=VAR` (negated: `env=!VAR`, 2.4's mod_access_compat only). */
  | { readonly kind: 'env'; readonly name: string; readonly negated: boolean }
  /** A word httpd silently takes for a host name that can never match (`127.0.0.x`, `a,b`). */
  | { readonly kind: 'never'; readonly word: string };

export interface AccessEntry {
  readonly entry: HostEntry;
  readonly methods: MethodMask;
}

export type Order = 'deny,allow' | 'allow,deny' | 'mutual-failure';

/** mod_authz_host's per-section record: present when the section has any Order/Allow/Deny. */
export interface HostRecord {
  /** Order lines in file order with the methods each applies to; later wins per method; default deny,allow. */
  readonly orders: readonly { readonly order: Order; readonly methods: MethodMask }[];
  readonly allows: readonly AccessEntry[];
  readonly denys: readonly AccessEntry[];
}

/** One 2.2 `Require` line: its words (`valid-user`, `user a b`, `group g`, `file-owner` …) and methods. */
export interface AuthRequire {
  readonly words: readonly string[];
  readonly methods: MethodMask;
}

export interface SatisfySetting {
  readonly value: 'all' | 'any';
  readonly methods: MethodMask;
}

/** `Authz*Authoritative Off` switches that were set (2.2 default: all On). */
export interface Authoritative {
  readonly user: boolean;
  readonly groupFile: boolean;
  readonly dbm: boolean;
  readonly owner: boolean;
  readonly default: boolean;
}

/** What one section (or .htaccess, or server-level scope) sets by itself, in 2.2 terms. */
export interface ScopeRules22 {
  /** null: the section has no Order/Allow/Deny (inherits the parent's record). */
  readonly host: HostRecord | null;
  /** null: no Require line (inherits the parent's); otherwise all of this section's Require lines. */
  readonly requires: readonly AuthRequire[] | null;
  /** Satisfy lines in file order (per method; unset methods inherit). */
  readonly satisfy: readonly SatisfySetting[];
  /** AuthType value if set here (inherited separately), else null. */
  readonly authType: string | null;
  /** `AuthDBMGroupFile` set here (inherited separately): `Require group` belongs to mod_authz_dbm. */
  readonly dbmGroups: boolean | null;
  /** Authz*Authoritative values set here; null fields inherit. */
  readonly authoritative: Partial<Authoritative>;
}

/** The merged 2.2 view in effect for one request location. */
export interface Effective22 {
  readonly host: HostRecord | null;
  readonly requires: readonly AuthRequire[];
  readonly satisfy: readonly SatisfySetting[];
  readonly authType: string | null;
  readonly dbmGroups: boolean;
  readonly authoritative: Authoritative;
}

/** An abstract request. */
export interface Request {
  /** Client address (IPv4 dotted quad or IPv6). */
  readonly ip: string;
  /** The client's verified (double-reverse) host name, or null when lookup fails. */
  readonly hostName: string | null;
  /** Names of environment variables set for the request (SetEnvIf …); case-insensitive. */
  readonly env: readonly string[];
  /** Upper-case method; HEAD counts as GET. */
  readonly method: string;
  /** No credentials, wrong credentials, or a user that authenticates, with its groups. */
  readonly credentials: { readonly kind: 'none' } | { readonly kind: 'bad' } | { readonly kind: 'user'; readonly user: string; readonly groups: readonly string[] };
  /**
   * Owner and group of the file served, for `Require file-owner` / `file-group`
   * (mod_authz_owner). Absent: the model knows no file, and those lines never match.
   */
  readonly file?: { readonly owner: string; readonly group: string };
}

/** 200 granted, 401 authentication required/failed, 403 forbidden, 500 configuration error. */
export type Outcome = 200 | 401 | 403 | 500;

/** A 2.4 authorization tree (mod_authz_core). */
export type RequireNode =
  | {
      readonly kind: 'require';
      /** Provider name: all, ip, host, env, method, valid-user, user, group, dbm-group, … */
      readonly provider: string;
      readonly args: readonly string[];
      readonly negate: boolean;
      /** Methods from an enclosing `<Limit>`; undefined = all. */
      readonly methods?: MethodMask;
    }
  | {
      readonly kind: 'all' | 'any' | 'none';
      readonly children: readonly RequireNode[];
      readonly methods?: MethodMask;
    };
