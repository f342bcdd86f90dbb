/**
 * What the codemod knows about modules across 2.2 → 2.4: the 2.2 standard
 * modules, the renamed and removed ones, well-known third-party modules (which
 * must be rebuilt or replaced for 2.4), load-order dependencies, and how an
 * `<IfModule>` argument names a module.
 */
import { TABLE_BUILTINS, TABLE_MODULES, idOfSource, sourceOf } from './table';

/** 2.2 module ids renamed in 2.4 (LoadModule id, file and `<IfModule>` names all change). */
export const RENAMED: Readonly<Record<string, string>> = {
  disk_cache: 'cache_disk',
  // <AuthnProviderAlias> moved to mod_authn_core (measured: `-L` lists it under mod_authn_core.c)
  authn_alias: 'authn_core',
};

export interface RemovedModule {
  /** Why nothing replaces it, or what does. */
  readonly advice: string;
  /** Directives of the removed module that 2.4 does not know (used to tell whether the config relied on it). */
  readonly directives: readonly string[];
}

/** 2.2 modules that 2.4 no longer has. */
export const REMOVED: Readonly<Record<string, RemovedModule>> = {
  authn_default: {
    advice: 'mod_authn_core answers when no authentication module does, nothing to load instead',
    directives: ['AuthDefaultAuthoritative'],
  },
  authz_default: {
    advice: 'mod_authz_core denies when no authorization rule grants, nothing to load instead',
    directives: ['AuthzDefaultAuthoritative'],
  },
  mem_cache: {
    advice:
      'for a memory cache use mod_cache_socache with a shared-memory provider ' +
      '(LoadModule cache_socache_module + socache_shmcb_module, `CacheEnable socache /`, `CacheSocache shmcb`); ' +
      '`CacheEnable mem` caches nothing on 2.4 (measured: accepted at start-up, no provider)',
    directives: ['MCacheSize', 'MCacheMaxObjectCount', 'MCacheMinObjectSize', 'MCacheMaxObjectSize', 'MCacheRemovalAlgorithm', 'MCacheMaxStreamingBuffer'],
  },
};

/** Module ids shipped with httpd 2.2 (all platforms), besides the MPMs. */
const STANDARD_22 = new Set(
  (
    'actions alias asis auth_basic auth_digest authn_alias authn_anon authn_dbd authn_dbm authn_default authn_file ' +
    'authnz_ldap authz_dbm authz_default authz_groupfile authz_host authz_owner authz_user autoindex bucketeer cache ' +
    'case_filter case_filter_in cern_meta cgi cgid charset_lite dav dav_fs dav_lock dbd deflate dir disk_cache dumpio ' +
    'echo env example expires ext_filter file_cache filter headers ident imagemap include info isapi ldap log_config ' +
    'log_forensic logio mem_cache mime mime_magic negotiation nw_ssl optional_fn_export optional_fn_import ' +
    'optional_hook_export optional_hook_import proxy proxy_ajp proxy_balancer proxy_connect proxy_ftp proxy_http ' +
    'proxy_scgi reqtimeout rewrite setenvif so speling ssl status substitute suexec unique_id userdir usertrack ' +
    'version vhost_alias'
  ).split(' '),
);

/** 2.4 standard modules a given build may lack (platform-specific or optional), besides those in the table. */
const STANDARD_24_EXTRA = new Set(
  (
    'privileges isapi nw_ssl socache_dc journald systemd firehose serf policy apreq arm4 ssl_ct proxy_http2 lua ' +
    'mpm_winnt mpm_netware mpmt_os2 optional_fn_export optional_fn_import optional_hook_export optional_hook_import ' +
    'example_hooks example_ipc'
  ).split(' '),
);

/** MPM ids: 2.2 compiled one in (no LoadModule); 2.4 loads one (Debian) or compiles one in. */
export const MPMS = ['mpm_prefork', 'mpm_worker', 'mpm_event'] as const;

/** Whether an id names an MPM module. */
export function isMpm(id: string): boolean {
  return id.startsWith('mpm_') || id === 'mpmt_os2';
}

/** Modules that are always compiled in (LoadModule itself needs mod_so). */
export const ALWAYS_BUILTIN: ReadonlySet<string> = new Set(['core', 'http', 'so']);

/**
 * Modules some 2.4 builds compile in and others load (Debian compiles them in, upstream's
 * default build loads them): loading a built-in is fatal ("module X is built-in and can't be
 * loaded"), so without a probed httpd their LoadModule lines are guarded.
 */
export const MAYBE_BUILTIN: ReadonlySet<string> = new Set([...TABLE_BUILTINS].filter((id) => !ALWAYS_BUILTIN.has(id)));

/** Whether a module id is a standard 2.4 module (whether or not this machine's build has it). */
export function isStandard24(id: string): boolean {
  return TABLE_MODULES.has(id) || TABLE_BUILTINS.has(id) || STANDARD_24_EXTRA.has(id) || isMpm(id);
}

/** Whether a module id is a standard 2.2 module. */
export function isStandard22(id: string): boolean {
  return STANDARD_22.has(id) || isMpm(id) || ['core', 'http'].includes(id);
}

export interface ThirdParty {
  /** The module's usual name. */
  readonly name: string;
  /** What to rebuild, install or use instead for 2.4. */
  readonly advice: string;
}

const PHP =
  'rebuild or install PHP for httpd 2.4 (Debian: `apt install libapache2-mod-php`, prefork MPM only) ' +
  'or run PHP-FPM behind mod_proxy_fcgi';

/** Well-known third-party modules by LoadModule id (without `_module`). */
export const THIRD_PARTY: Readonly<Record<string, ThirdParty>> = {
  php4: { name: 'mod_php4', advice: PHP },
  php5: { name: 'mod_php5', advice: PHP },
  php7: { name: 'mod_php7', advice: PHP },
  php: { name: 'mod_php', advice: PHP },
  python: {
    name: 'mod_python',
    advice: 'mod_python is unmaintained for 2.4: port the application to WSGI and use mod_wsgi (Debian: libapache2-mod-wsgi-py3)',
  },
  wsgi: { name: 'mod_wsgi', advice: 'install mod_wsgi built for 2.4 (Debian: libapache2-mod-wsgi-py3)' },
  jk: { name: 'mod_jk', advice: 'rebuild mod_jk for 2.4 (Debian: libapache2-mod-jk), or proxy to Tomcat with mod_proxy_ajp' },
  perl: { name: 'mod_perl', advice: 'install mod_perl 2.0.9 or later, built for 2.4 (Debian: libapache2-mod-perl2)' },
  fastcgi: {
    name: 'mod_fastcgi',
    advice: 'mod_fastcgi does not build for 2.4: use mod_proxy_fcgi (standard) or mod_fcgid (Debian: libapache2-mod-fcgid)',
  },
  fcgid: { name: 'mod_fcgid', advice: 'install mod_fcgid built for 2.4 (Debian: libapache2-mod-fcgid)' },
  suphp: {
    name: 'mod_suphp',
    advice: 'mod_suphp is discontinued: run PHP-FPM pools per user behind mod_proxy_fcgi (or mod_fcgid + suexec)',
  },
  ruid2: { name: 'mod_ruid2', advice: 'install mod_ruid2 built for 2.4 (Debian: libapache2-mod-ruid2), or use mpm-itk' },
  security2: { name: 'ModSecurity 2', advice: 'install ModSecurity 2.9+ built for 2.4 (Debian: libapache2-mod-security2)' },
  security: { name: 'ModSecurity 1', advice: 'ModSecurity 1 does not exist for 2.4: install ModSecurity 2.9+ (libapache2-mod-security2)' },
  passenger: { name: 'Phusion Passenger', advice: 'install Passenger built for 2.4 (Debian: libapache2-mod-passenger)' },
  auth_kerb: { name: 'mod_auth_kerb', advice: 'install mod_auth_kerb for 2.4, or move to mod_auth_gssapi (libapache2-mod-auth-gssapi)' },
  auth_pam: { name: 'mod_auth_pam', advice: 'use mod_authnz_pam (libapache2-mod-authnz-pam) or mod_authnz_external + pwauth' },
  authnz_external: { name: 'mod_authnz_external', advice: 'install mod_authnz_external built for 2.4 (libapache2-mod-authnz-external)' },
  auth_mysql: { name: 'mod_auth_mysql', advice: 'use the standard mod_authn_dbd + mod_dbd (AuthBasicProvider dbd, AuthDBDUserPWQuery)' },
  evasive20: { name: 'mod_evasive', advice: 'install mod_evasive built for 2.4 (Debian: libapache2-mod-evasive)' },
  evasive: { name: 'mod_evasive', advice: 'install mod_evasive built for 2.4 (Debian: libapache2-mod-evasive)' },
  rpaf: { name: 'mod_rpaf', advice: 'use the standard mod_remoteip (RemoteIPHeader, RemoteIPInternalProxy)' },
  xsendfile: { name: 'mod_xsendfile', advice: 'install mod_xsendfile built for 2.4 (Debian: libapache2-mod-xsendfile)' },
  dav_svn: { name: 'mod_dav_svn', advice: 'install Subversion\'s modules built for 2.4 (Debian: libapache2-mod-svn)' },
  authz_svn: { name: 'mod_authz_svn', advice: 'install Subversion\'s modules built for 2.4 (Debian: libapache2-mod-svn)' },
  mono: { name: 'mod_mono', advice: 'install mod_mono built for 2.4 (Debian: libapache2-mod-mono)' },
  geoip: { name: 'mod_geoip', advice: 'install mod_geoip for 2.4, or move to mod_maxminddb' },
  pagespeed: { name: 'mod_pagespeed', advice: 'install the 2.4 build of mod_pagespeed (mod_pagespeed_ap24.so)' },
  qos: { name: 'mod_qos', advice: 'install mod_qos built for 2.4 (Debian: libapache2-mod-qos)' },
  bw: { name: 'mod_bw', advice: 'install mod_bw built for 2.4, or use the standard mod_ratelimit' },
  cband: { name: 'mod_cband', advice: 'mod_cband does not build for 2.4: use mod_ratelimit, mod_qos or mod_bw' },
  limitipconn: { name: 'mod_limitipconn', advice: 'install mod_limitipconn for 2.4, or use mod_qos' },
  mpm_itk: { name: 'mpm-itk', advice: 'install mpm-itk for 2.4 (Debian: libapache2-mpm-itk; a module on top of prefork in 2.4)' },
  itk: { name: 'mpm-itk', advice: 'install mpm-itk for 2.4 (Debian: libapache2-mpm-itk; a module on top of prefork in 2.4)' },
};

export type ModuleKind = 'standard' | 'renamed' | 'removed' | 'third-party' | 'unknown';

/** How 2.4 sees a module id found in a 2.2 config. */
export function classify(id: string): ModuleKind {
  if (id in RENAMED) return 'renamed';
  if (id in REMOVED) return 'removed';
  if (isStandard24(id)) return 'standard';
  if (id in THIRD_PARTY) return 'third-party';
  return 'unknown';
}

/**
 * Modules that must be loaded before a module can be (measured: "undefined symbol: ap_proxy_…"
 * for proxy_*, ap_cache_* for cache_*, dav_* for dav_fs/dav_lock, ap_hook_session_* for session_*)
 * or without which it cannot work (authnz_ldap → ldap, *_dbd → dbd). mod_proxy_balancer refuses to start
 * without mod_slotmem_shm even when no balancer is configured (measured: AH01177 at start-up, `-t` passes).
 */
export function dependencies(id: string): string[] {
  // measured on 2.4.71: Order/Allow/Deny with mod_access_compat but no mod_authz_core answers 500 (AH00025 "couldn't check user")
  if (id === 'access_compat') return ['authz_core'];
  if (id === 'proxy_html') return ['xml2enc'];
  if (id === 'proxy_balancer') return ['proxy', 'slotmem_shm'];
  if (id.startsWith('proxy_') || id.startsWith('lbmethod_')) return ['proxy'];
  if (id === 'cache_disk' || id === 'cache_socache') return ['cache'];
  if (id === 'dav_fs' || id === 'dav_lock') return ['dav'];
  if (id.startsWith('session_')) return id === 'session_dbd' ? ['session', 'dbd'] : ['session'];
  if (id === 'authnz_ldap') return ['ldap'];
  if (id === 'authn_dbd' || id === 'authz_dbd') return ['dbd'];
  return [];
}

/** 2.2 source names that differ from `mod_<id>.c` (2.2 and 2.4 agree on these). */
const SOURCE_22: Readonly<Record<string, string>> = {
  'prefork.c': 'mpm_prefork',
  'worker.c': 'mpm_worker',
  'event.c': 'mpm_event',
  'mpm_winnt.c': 'mpm_winnt',
  'mpm_netware.c': 'mpm_netware',
  'mpmt_os2.c': 'mpmt_os2',
  'util_ldap.c': 'ldap',
  'http_core.c': 'http',
  'core.c': 'core',
};

export interface IfModuleTest {
  readonly negated: boolean;
  /** The module the test names, as an id; null when it names no module httpd could match. */
  readonly id: string | null;
  /** The word as written (without `!`). */
  readonly name: string;
  /** `source` for `mod_x.c`, `symbol` for `x_module`. */
  readonly form: 'source' | 'symbol' | 'other';
}

/**
 * Reads `<IfModule …>` arguments. httpd matches a loaded module's source name
 * (`mod_cache_disk.c`) or its symbol (`cache_disk_module`), case-sensitively (measured).
 * `!` may stand alone before the name.
 */
export function readIfModule(values: readonly string[]): IfModuleTest {
  let word = values[0] ?? '';
  let negated = false;
  if (word.startsWith('!')) {
    negated = true;
    word = word.slice(1) || values[1] || '';
  }
  if (word.endsWith('_module')) return { negated, name: word, id: word.slice(0, -'_module'.length), form: 'symbol' };
  if (word.endsWith('.c')) {
    const id = idOfSource(word) ?? SOURCE_22[word] ?? (word.startsWith('mod_') ? word.slice(4, -2) : null);
    return { negated, name: word, id, form: 'source' };
  }
  return { negated, name: word, id: null, form: 'other' };
}

/** How `<IfModule>` spells a module in a given form on 2.4. */
export function ifModuleName(id: string, form: 'source' | 'symbol'): string {
  return form === 'symbol' ? `${id}_module` : sourceOf(id);
}
