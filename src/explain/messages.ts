/**
 * The messages httpd 2.4 prints for configurations written for 2.2: data only (explain.ts matches).
 * Wording measured on httpd 2.4.71 (docs/research/httpd24-facts.md §2–§9, and
 * __tests__/explain.test.ts runs `apache2 -t` on unmigrated 2.2 snippets and feeds the real stderr back).
 * In `pattern`, the message is matched after the `AH00526: Syntax error on line N of FILE:` and
 * `apache2: Syntax error on line N of FILE:` wrappers, log prefixes and AH numbers are removed.
 */

export interface MessageEntry {
  /** Stable key. */
  readonly id: string;
  /** Matched (case-insensitively) against the message; groups are passed to `cause`/`remedy`. */
  readonly pattern: RegExp;
  /** The message as httpd prints it (placeholders filled in); the tests check that it matches. */
  readonly sample: string;
  readonly cause: string | ((m: RegExpExecArray) => string);
  /** Ids of the transforms (transforms/index.ts) that fix it; empty when none does. */
  readonly transforms: readonly string[] | ((m: RegExpExecArray) => readonly string[]);
  readonly remedy: string | ((m: RegExpExecArray) => string);
}

/** Directive → why 2.4 calls it an invalid command. Keys are lowercase directive names. */
export interface DirectiveEntry {
  readonly cause: string;
  readonly transforms: readonly string[];
  readonly remedy: string;
}

const mutex = (name: string): DirectiveEntry => ({
  cause: `${name} was removed in 2.4: every lock is configured with the Mutex directive`,
  transforms: ['replace-mutex-directives'],
  remedy: 'write `Mutex MECHANISM[:existing-directory] NAME…` (e.g. `Mutex file:/var/lock/apache2 default`); the directory must exist, and a mutex name is only valid when its module is loaded',
});

const compat = (name: string): DirectiveEntry => ({
  cause: `${name} belongs to mod_access_compat, which is not loaded: 2.4 controls access with Require (mod_authz_core, mod_authz_host)`,
  transforms: ['access-to-require'],
  remedy: 'rewrite Order/Allow/Deny/Satisfy as Require (e.g. `Require all granted`, `Require ip 10.0.0.0/8`); only as a stopgap, load mod_access_compat',
});

const authzAuthoritative = (name: string): DirectiveEntry => ({
  cause: `${name} was removed in 2.4: providers are tried in the order Require lists them, and RequireAny/RequireAll combine them`,
  transforms: ['remove-authz-authoritative'],
  remedy: 'delete the line; express fall-through between providers with <RequireAny>/<RequireAll>',
});

const needsModule = (name: string, module: string): DirectiveEntry => ({
  cause: `${name} is defined by mod_${module}, which is not loaded`,
  transforms: ['load-modules'],
  remedy: `add \`LoadModule ${module}_module modules/mod_${module}.so\` (Debian: a2enmod ${module})`,
});

export const DIRECTIVES: Readonly<Record<string, DirectiveEntry>> = {
  order: compat('Order'),
  allow: compat('Allow'),
  deny: compat('Deny'),
  satisfy: compat('Satisfy'),
  require: {
    cause: 'Require is defined by mod_authz_core, which is not loaded (2.2 had it in mod_authz_user and friends)',
    transforms: ['access-to-require', 'load-modules'],
    remedy: 'load mod_authz_core (and the provider modules: authz_host for ip/host, authz_user for user/valid-user, authz_groupfile for group)',
  },
  user: {
    cause: 'User/Group are defined by mod_unixd, which this httpd does not have (Debian builds it in; other builds load it)',
    transforms: ['load-modules'],
    remedy: 'add `LoadModule unixd_module modules/mod_unixd.so` (not on Debian, where it is built in)',
  },
  group: {
    cause: 'User/Group are defined by mod_unixd, which this httpd does not have (Debian builds it in; other builds load it)',
    transforms: ['load-modules'],
    remedy: 'add `LoadModule unixd_module modules/mod_unixd.so` (not on Debian, where it is built in)',
  },
  authtype: needsModule('AuthType', 'authn_core'),
  authname: needsModule('AuthName', 'authn_core'),
  authuserfile: needsModule('AuthUserFile', 'authn_file'),
  authgroupfile: needsModule('AuthGroupFile', 'authz_groupfile'),
  rewritelog: {
    cause: 'RewriteLog was removed in 2.4: mod_rewrite writes its trace to the ErrorLog, at LogLevel rewrite:trace1…trace8',
    transforms: ['rewrite-log-to-log-level'],
    remedy: 'delete RewriteLog and RewriteLogLevel; for a trace, add `LogLevel warn rewrite:trace3` (level N of RewriteLogLevel is traceN) in the same context',
  },
  rewriteloglevel: {
    cause: 'RewriteLogLevel was removed in 2.4: use LogLevel rewrite:traceN',
    transforms: ['rewrite-log-to-log-level'],
    remedy: 'replace `RewriteLogLevel N` by `LogLevel rewrite:traceN` (or drop it if there was no RewriteLog: 2.2 logged nothing then)',
  },
  rewritelock: mutex('RewriteLock'),
  lockfile: mutex('LockFile'),
  acceptmutex: mutex('AcceptMutex'),
  sslmutex: mutex('SSLMutex'),
  sslstaplingmutex: mutex('SSLStaplingMutex'),
  watchdogmutexpath: mutex('WatchdogMutexPath'),
  dumpiologlevel: {
    cause: 'DumpIOLogLevel was removed in 2.4: mod_dumpio always logs at trace7',
    transforms: ['dump-io-log-level'],
    remedy: 'replace it by `LogLevel dumpio:trace7` in the same context',
  },
  authzuserauthoritative: authzAuthoritative('AuthzUserAuthoritative'),
  authzgroupfileauthoritative: authzAuthoritative('AuthzGroupFileAuthoritative'),
  authzdbmauthoritative: authzAuthoritative('AuthzDBMAuthoritative'),
  authzownerauthoritative: authzAuthoritative('AuthzOwnerAuthoritative'),
  authzdefaultauthoritative: authzAuthoritative('AuthzDefaultAuthoritative'),
  authzldapauthoritative: authzAuthoritative('AuthzLDAPAuthoritative'),
  authdigestnonceformat: {
    cause: 'AuthDigestNonceFormat was removed in 2.4',
    transforms: ['remove-auth-digest-options'],
    remedy: 'delete the line',
  },
  charsetoptions: needsModule('CharsetOptions', 'charset_lite'),
  extfilteroptions: needsModule('ExtFilterOptions', 'ext_filter'),
  filterdeclare: needsModule('FilterDeclare', 'filter'),
  filterprovider: needsModule('FilterProvider', 'filter'),
  addoutputfilterbytype: {
    cause: 'AddOutputFilterByType moved from the core to mod_filter in 2.4, which is not loaded',
    transforms: ['add-output-filter-by-type'],
    remedy: 'load mod_filter (`LoadModule filter_module modules/mod_filter.so`)',
  },
  sslprotocol: needsModule('SSLProtocol', 'ssl'),
  sslengine: needsModule('SSLEngine', 'ssl'),
  maxclients: {
    cause: 'MaxClients is defined by the MPM, and no MPM module is loaded (2.2 compiled the MPM in)',
    transforms: ['load-modules', 'rename-max-clients'],
    remedy: 'load an MPM (`LoadModule mpm_prefork_module modules/mod_mpm_prefork.so`, or worker/event) and rename MaxClients to MaxRequestWorkers',
  },
};

const UNKNOWN_DIRECTIVE: DirectiveEntry = {
  cause: 'the directive was removed in 2.4, or the module that defines it is not loaded',
  transforms: ['load-modules'],
  remedy: 'look the directive up in the 2.4 docs: if a module defines it, load that module; if it was removed, apply its replacement',
};

export function directiveEntry(name: string): DirectiveEntry {
  return DIRECTIVES[name.toLowerCase()] ?? UNKNOWN_DIRECTIVE;
}

export const MESSAGES: readonly MessageEntry[] = [
  {
    id: 'bom',
    // httpd escapes the bytes in its message: `'\xef\xbb\xbfServerRoot'` as text
    pattern: /Invalid command '(?:\\xef\\xbb\\xbf|\xef\xbb\xbf|\ufeff)([^']*)'/i,
    sample: "Invalid command '\\xef\\xbb\\xbfServerRoot', perhaps misspelled or defined by a module not included in the server configuration",
    cause: 'the file starts with a UTF-8 byte order mark, which httpd on Unix does not strip (2.2 did not either; only Windows builds skip it)',
    transforms: ['byte-order-mark'],
    remedy: 'remove the first three bytes (EF BB BF) of the file',
  },
  {
    id: 'invalid-command',
    pattern: /Invalid command '(?!\\xef\\xbb\\xbf)([^'\xef\ufeff][^']*)'/i,
    sample: "Invalid command 'Order', perhaps misspelled or defined by a module not included in the server configuration",
    cause: (m) => (DIRECTIVES[m[1].toLowerCase()] ? directiveEntry(m[1]).cause : `${m[1]}: ${directiveEntry(m[1]).cause}`),
    transforms: (m) => directiveEntry(m[1]).transforms,
    remedy: (m) => directiveEntry(m[1]).remedy,
  },
  {
    id: 'couldnt-check-user',
    pattern: /couldn't check user/i,
    sample: "AH00025: configuration error:  couldn't check user: /private/",
    cause: 'a Require that needs an authenticated user (valid-user, user, group) applies where no AuthType/AuthName/provider is configured; 2.2 ignored such a Require when access rules alone decided (Satisfy Any, or no authentication configured), 2.4 answers 500',
    transforms: ['access-to-require'],
    remedy: 'add AuthType, AuthName and the provider (AuthBasicProvider/AuthUserFile) to the scope, or remove the user Require where only host rules should apply',
  },
  {
    id: 'no-authentication-done',
    pattern: /No authentication done but request not allowed without authentication/i,
    sample: 'AH01630: No authentication done but request not allowed without authentication for /private/. Authentication not configured?',
    cause: 'the scope requires a user (Require valid-user/user/group) but no authentication module ran: AuthType is missing',
    transforms: ['access-to-require'],
    remedy: 'add AuthType/AuthName and a provider, or rewrite the access rules so that the host rules decide (Require ip … inside <RequireAny>)',
  },
  {
    id: 'client-denied',
    pattern: /client denied by server configuration/i,
    sample: 'AH01630: client denied by server configuration: /var/www/html/private',
    cause: 'the request was refused by access control: in 2.4 a section with Require replaces what it inherits, and Order/Allow/Deny (mod_access_compat) combined with Require behaves differently from 2.2',
    transforms: ['access-to-require'],
    remedy: 'migrate every scope of the server to Require (not just some), and check the effective policy of the path',
  },
  {
    id: 'default-type',
    pattern: /Ignoring deprecated use of DefaultType/i,
    sample: 'AH00117: Ignoring deprecated use of DefaultType in line 1 of /etc/apache2/apache2.conf.',
    cause: 'DefaultType has no effect in 2.4: files of unknown type are sent without Content-Type',
    transforms: ['remove-default-type'],
    remedy: 'delete DefaultType; map the files with AddType or ForceType if clients need a type',
  },
  {
    id: 'options-mixed',
    pattern: /Either all Options must start with \+ or -, or no Option may/i,
    sample: 'Either all Options must start with + or -, or no Option may.',
    cause: 'an Options line mixes +/- options with bare ones (2.2 accepted it: a bare option reset the list)',
    transforms: ['options-mixed-signs'],
    remedy: 'write either only bare options (the full list) or only +/- options',
  },
  {
    id: 'options-all-none',
    pattern: /You may not use 'Options [+-](All|None)'/i,
    sample: "You may not use 'Options +All' or 'Options -All'.",
    cause: (m) => `Options +${m[1]} / -${m[1]} is not allowed in 2.4`,
    transforms: ['options-mixed-signs'],
    remedy: (m) =>
      m[1].toLowerCase() === 'all'
        ? 'spell the options out with the same sign (`+Indexes +Includes +FollowSymLinks +ExecCGI`, or `-…`): a bare `All` would replace the inherited options instead of adding to them'
        : 'drop `+None` / `-None` (it changes nothing when other signed options follow), or write a bare `None` first',
  },
  {
    id: 'options-first',
    pattern: /'Options (All|None)' must be the first [Oo]ption given/,
    sample: "'Options None' must be the first Option given.",
    cause: (m) => `2.4 accepts \`${m[1]}\` only as the first word of an Options line; 2.2 also took it later on the line (\`Options Indexes ${m[1]}\`)`,
    transforms: ['options-mixed-signs'],
    remedy: (m) => `move \`${m[1]}\` to the front, or write the options 2.2 ended up with (\`Indexes None\` meant \`Indexes\`)`,
  },
  {
    id: 'name-virtual-host',
    pattern: /NameVirtualHost has no effect/i,
    sample: 'AH00548: NameVirtualHost has no effect and will be removed in the next release /etc/apache2/ports.conf:8',
    cause: '2.4 enables name-based virtual hosting by itself for every address:port with several VirtualHosts',
    transforms: ['remove-name-virtual-host'],
    remedy: 'delete the NameVirtualHost lines',
  },
  {
    id: 'authz-provider',
    pattern: /Unknown Authz provider: ?(\S+)/i,
    sample: 'Unknown Authz provider: ip',
    cause: (m) => `no loaded module provides \`Require ${m[1]}\` (${AUTHZ_PROVIDERS[m[1].toLowerCase()] ?? 'a provider module'} is not loaded)`,
    transforms: ['load-modules', 'access-to-require'],
    remedy: (m) => `load ${AUTHZ_PROVIDERS[m[1].toLowerCase()] ?? 'the module that provides it'}`,
  },
  {
    id: 'authn-provider',
    pattern: /Unknown Authn provider: ?(\S+)/i,
    sample: 'Unknown Authn provider: file',
    cause: (m) => `no loaded module provides the authentication provider "${m[1]}" (mod_authn_${m[1]})`,
    transforms: ['load-modules'],
    remedy: (m) => `load mod_authn_${m[1]} (\`LoadModule authn_${m[1]}_module modules/mod_authn_${m[1]}.so\`)`,
  },
  {
    id: 'no-mpm',
    pattern: /No MPM loaded/i,
    sample: 'AH00534: apache2: Configuration error: No MPM loaded.',
    cause: '2.4 loads the MPM as a module (2.2 compiled it in)',
    transforms: ['load-modules'],
    remedy: 'load exactly one of mod_mpm_prefork, mod_mpm_worker, mod_mpm_event (prefork if mod_php or other non-thread-safe modules are used)',
  },
  {
    id: 'more-than-one-mpm',
    pattern: /More than one MPM loaded/i,
    sample: 'AH00534: apache2: Configuration error: More than one MPM loaded.',
    cause: 'two LoadModule lines load an MPM',
    transforms: [],
    remedy: 'keep one mpm_* LoadModule line (Debian: a2dismod mpm_event; a2enmod mpm_prefork)',
  },
  {
    id: 'include-wildcard',
    pattern: /(?:No matches for the wildcard '([^']*)' in '([^']*)'|Include\/IncludeOptional: Could not open directory (\S+)|Could not open configuration file (\S+?):? No such file or directory)/i,
    sample: "Include/IncludeOptional: No matches for the wildcard '*.conf' in '/etc/apache2/conf.d', failing",
    cause: 'an Include names files that do not exist: 2.4 fails where a wildcard matches nothing or the directory is missing (2.2 accepted an empty wildcard)',
    transforms: ['include-optional-wildcard'],
    remedy: 'use IncludeOptional for paths that may match nothing',
  },
  {
    id: 'built-in-module',
    pattern: /module (\S+) is built-in and can't be loaded/i,
    sample: "module unixd_module is built-in and can't be loaded",
    cause: (m) => `${m[1]} is compiled into this httpd; loading it again is a fatal error in 2.4`,
    transforms: ['rename-module-references'],
    remedy: (m) => `delete the \`LoadModule ${m[1]} …\` line (\`apache2 -l\` lists the built-in modules)`,
  },
  {
    id: 'cannot-load-missing',
    pattern: /Cannot load (\S+) into server: .*(?:cannot open shared object file|No such file or directory)/i,
    sample: 'Cannot load /usr/lib/apache2/modules/mod_disk_cache.so into server: /usr/lib/apache2/modules/mod_disk_cache.so: cannot open shared object file: No such file or directory',
    cause: (m) =>
      `${m[1]} does not exist: the module was renamed or removed in 2.4 (mod_disk_cache → mod_cache_disk, mod_authn_alias → mod_authn_core; mod_authz_default, mod_mem_cache removed), or the path is relative to a different ServerRoot`,
    transforms: ['rename-module-references'],
    remedy: 'load the 2.4 name, or delete the line for a removed module; relative paths are resolved against ServerRoot',
  },
  {
    id: 'cannot-load-symbol',
    pattern: /Cannot load (\S+) into server: .*undefined symbol: (\S+)/i,
    sample: 'Cannot load /usr/lib/apache2/modules/mod_proxy_http.so into server: /usr/lib/apache2/modules/mod_proxy_http.so: undefined symbol: ap_proxy_location_reverse_map',
    cause: (m) => `${m[1]} needs a module that is not loaded before it (symbol ${m[2]}: ap_proxy_* → mod_proxy, ap_cache_* → mod_cache, dav_* → mod_dav, ap_hook_session_* → mod_session)`,
    transforms: [],
    remedy: 'load the module it depends on first (LoadModule lines run in file order)',
  },
  {
    id: 'keep-alive',
    pattern: /KeepAlive must be On or Off/i,
    sample: 'KeepAlive must be On or Off',
    cause: '2.4 accepts only On/Off (2.2 took any value but Off/0 as On)',
    transforms: ['normalize-keep-alive'],
    remedy: 'write KeepAlive On or KeepAlive Off',
  },
  {
    id: 'debug-level-option',
    pattern: /Invalid (CharsetOptions|ExtFilterOptions) option: DebugLevel=(\S*)/i,
    sample: 'Invalid CharsetOptions option: DebugLevel=4',
    cause: (m) => `the DebugLevel option of ${m[1]} was removed in 2.4`,
    transforms: ['debug-level-option'],
    remedy: (m) => `drop DebugLevel=${m[2]} and set \`LogLevel ${m[1].toLowerCase() === 'charsetoptions' ? 'charset_lite' : 'ext_filter'}:traceN\` in the same section`,
  },
  {
    id: 'filter-provider',
    pattern: /FilterProvider takes three arguments|Error parsing FilterProvider expression/i,
    sample: 'FilterProvider takes three arguments, filter-name provider-name match-expression',
    cause: 'FilterProvider takes an ap_expr in 2.4 instead of 2.2\'s dispatch and match arguments (resp=Content-Type $text/html)',
    transforms: ['filter-provider-expression'],
    remedy: 'write `FilterProvider NAME PROVIDER "%{CONTENT_TYPE} =~ m#^text/html#"`',
  },
  {
    id: 'sslv2',
    pattern: /SSLProtocol: SSLv2 is no longer supported|SSLv3 not supported by this version of OpenSSL/i,
    sample: 'SSLProtocol: SSLv2 is no longer supported',
    cause: 'SSLProtocol names a protocol 2.4 (or its OpenSSL) no longer has',
    transforms: ['ssl-drop-sslv2'],
    remedy: 'remove SSLv2/SSLv3 (`SSLProtocol all -SSLv3` or `TLSv1.2 TLSv1.3`); `-SSLv2` is harmless',
  },
  {
    id: 'mutex-directory',
    pattern: /Invalid Mutex directory in argument (\S+)/i,
    sample: 'Invalid Mutex directory in argument file:/var/lock/apache2/accept.lock',
    cause: (m) => `${m[1]}: the path after file:/flock:/fcntl: must be an existing directory (LockFile named a file)`,
    transforms: ['replace-mutex-directives'],
    remedy: 'point the Mutex at an existing directory',
  },
  {
    id: 'mutex-type',
    pattern: /Mutex type (\S+) is not valid/i,
    sample: 'Mutex type rewrite-map is not valid',
    cause: (m) => `mutex ${m[1]} belongs to a module that is not loaded (rewrite-map → mod_rewrite, ssl-cache/ssl-stapling → mod_ssl; mpm-accept does not exist under the event MPM)`,
    transforms: ['replace-mutex-directives'],
    remedy: 'guard the Mutex line with <IfModule> of its module, or drop it',
  },
  {
    id: 'log-level-module',
    pattern: /Cannot find module (\S+)/i,
    sample: 'Cannot find module rewrite',
    cause: (m) => `a LogLevel ${m[1]}:LEVEL names a module that is not loaded`,
    transforms: ['rewrite-log-to-log-level', 'dump-io-log-level', 'debug-level-option'],
    remedy: (m) => `load mod_${m[1]}, or put the LogLevel line inside <IfModule mod_${m[1]}.c>`,
  },
  {
    id: 'log-level-keyword',
    pattern: /Log level keyword must be one of/i,
    sample: 'Log level keyword must be one of emerg/alert/crit/error/warn/notice/info/debug/trace1/.../trace8',
    cause: 'LogLevel names a level 2.4 does not know',
    transforms: [],
    remedy: 'use emerg … debug or trace1 … trace8',
  },
  {
    id: 'piped-log',
    pattern: /unable to start piped log program|Couldn't start ErrorLog process|piped log program '[^']*' failed unexpectedly/i,
    sample: "(2)No such file or directory: AH00104: unable to start piped log program 'cat >> /var/log/apache2/access.log'",
    cause: '2.4 runs a piped log command without a shell (and without PATH search) unless it is written |$command; 2.2 always used /bin/sh',
    transforms: ['piped-log-shell'],
    remedy: 'write the target as "|$command" when it uses shell syntax (>>, |, ;, $VAR) or a program without a path, or name the program by its absolute path',
  },
  {
    id: 'max-clients',
    pattern: /MaxClients is deprecated, use MaxRequestWorkers instead/i,
    sample: 'AH00521: MaxClients is deprecated, use MaxRequestWorkers instead.',
    cause: 'MaxClients is a deprecated alias in 2.4',
    transforms: ['rename-max-clients'],
    remedy: 'rename it to MaxRequestWorkers',
  },
  {
    id: 'max-requests-per-child',
    pattern: /MaxRequestsPerChild is deprecated, use MaxConnectionsPerChild instead/i,
    sample: 'AH00545: MaxRequestsPerChild is deprecated, use MaxConnectionsPerChild instead.',
    cause: 'MaxRequestsPerChild is a deprecated alias in 2.4',
    transforms: ['rename-max-requests-per-child'],
    remedy: 'rename it to MaxConnectionsPerChild',
  },
  {
    id: 'crl-check',
    pattern: /CRL storage locations configured, but CRL checking \(SSLCARevocationCheck\) is not enabled/i,
    sample: 'AH01902: Host localhost:443: X.509 CRL storage locations configured, but CRL checking (SSLCARevocationCheck) is not enabled',
    cause: '2.4 ignores SSLCARevocationPath/File unless SSLCARevocationCheck is set: revoked client certificates are accepted',
    transforms: ['ssl-revocation-check'],
    remedy: 'add `SSLCARevocationCheck chain` beside the CRL lines',
  },
  {
    id: 'not-allowed-here',
    pattern: /\.htaccess: (\S+) not allowed here/i,
    sample: '/var/www/html/.htaccess: Options not allowed here',
    cause: (m) => `AllowOverride for this directory does not permit ${m[1]}: 2.4 defaults to AllowOverride None (2.2: All)`,
    transforms: ['allow-override-default', 'allow-override-for-htaccess'],
    remedy: 'set AllowOverride in the <Directory> of this .htaccess to the categories it uses (e.g. AllowOverride AuthConfig FileInfo Options)',
  },
  {
    id: 'directory-index-forbidden',
    pattern: /server-generated directory index forbidden by Options directive/i,
    sample: 'AH01276: Cannot serve directory /var/www/html/files/: No matching DirectoryIndex (index.html) found, and server-generated directory index forbidden by Options directive',
    cause: 'the directory has no index file and Options does not include Indexes: 2.4\'s default Options is FollowSymlinks (2.2: All)',
    transforms: [],
    remedy: 'add `Options +Indexes` to the <Directory> that should be listed',
  },
  {
    id: 'useless-allow-override',
    pattern: /Useless use of AllowOverride/i,
    sample: 'AH00114: Useless use of AllowOverride in line 2 of /etc/apache2/sites-enabled/000-default.conf.',
    cause: 'AllowOverride only works in <Directory> (not <Location>/<Files>; in <DirectoryMatch> it is silently ignored)',
    transforms: [],
    remedy: 'move it into the matching <Directory>',
  },
  {
    id: 'proxy-peer-check',
    pattern: /SSL Proxy: Peer certificate (?:does not match for hostname|is expired)/i,
    sample: 'AH02411: SSL Proxy: Peer certificate does not match for hostname localhost',
    cause: 'SSLProxyCheckPeerName/CN and SSLProxyCheckPeerExpire default to On in 2.4 (off in 2.2): a backend certificate with another name or expired now fails with 500',
    transforms: ['pin-changed-defaults'],
    remedy: 'fix the backend certificate, or set SSLProxyCheckPeerName off / SSLProxyCheckPeerExpire off for that proxy',
  },
  {
    id: 'trailing-comment',
    pattern: /^(?!order )(\S+) takes one argument, |Illegal option #/i,
    sample: 'Timeout takes one argument, Timeout duration (sec)',
    cause: 'often a comment after the value on the same line (`Timeout 300 # seconds`): `#` starts a comment only at the start of a line, so it is read as another argument',
    transforms: [],
    remedy: 'move the comment to its own line',
  },
  {
    id: 'order-syntax',
    pattern: /order takes one argument, 'allow,deny', 'deny,allow', or 'mutual-failure'/i,
    sample: "order takes one argument, 'allow,deny', 'deny,allow', or 'mutual-failure'",
    cause: 'Order needs its two words joined by a comma without a space (mod_access_compat)',
    transforms: ['access-to-require'],
    remedy: 'write `Order allow,deny`, or migrate the scope to Require',
  },
  {
    id: 'syntax-error-location',
    pattern: /Syntax error on line (\d+) of ([^:]+):/i,
    sample: 'AH00526: Syntax error on line 12 of /etc/apache2/apache2.conf:',
    cause: (m) => `httpd refused line ${m[1]} of ${m[2]}; the message that follows (the next line of its output) says why`,
    transforms: [],
    remedy: 'paste the next line too, or run `codemod` on the file',
  },
];

/** `Require X` → the module that provides X. */
export const AUTHZ_PROVIDERS: Readonly<Record<string, string>> = {
  ip: 'mod_authz_host',
  host: 'mod_authz_host',
  local: 'mod_authz_host',
  'forward-dns': 'mod_authz_host',
  user: 'mod_authz_user',
  'valid-user': 'mod_authz_user',
  group: 'mod_authz_groupfile',
  'file-owner': 'mod_authz_owner',
  'file-group': 'mod_authz_owner',
  'dbm-group': 'mod_authz_dbm',
  'dbd-group': 'mod_authz_dbd',
  'ldap-user': 'mod_authnz_ldap',
  'ldap-group': 'mod_authnz_ldap',
  'ldap-dn': 'mod_authnz_ldap',
  'ldap-attribute': 'mod_authnz_ldap',
  'ldap-filter': 'mod_authnz_ldap',
  env: 'mod_authz_core',
  all: 'mod_authz_core',
  method: 'mod_authz_core',
  expr: 'mod_authz_core',
};
