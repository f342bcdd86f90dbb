/**
 * Every finding code the tool reports, with its severities, a one-line summary (SARIF rule
 * shortDescription, the review pages) and its meaning (the README's Findings tables, SARIF
 * fullDescription; Markdown). The README tables are rendered from this list and checked by
 * __tests__/report-finding-codes.test.ts: add a code here first.
 */
import { Severity } from '../model/finding';

export interface FindingCode {
  readonly code: string;
  /** The severities it is reported with; the first is the usual one. */
  readonly severities: readonly Severity[];
  /** One line, plain text. */
  readonly summary: string;
  /** Markdown, as in the README. */
  readonly meaning: string;
}

export interface FindingGroup {
  readonly title: string;
  readonly codes: readonly FindingCode[];
}

export const FINDING_GROUPS: readonly FindingGroup[] = [
  {
    title: 'Core, access control, AllowOverride',
    codes: [
      {
        code: 'max-clients-renamed',
        severities: ['info'],
        summary: 'MaxClients renamed to MaxRequestWorkers',
        meaning: '`MaxClients` renamed to `MaxRequestWorkers`',
      },
      {
        code: 'max-requests-per-child-renamed',
        severities: ['info'],
        summary: 'MaxRequestsPerChild renamed to MaxConnectionsPerChild',
        meaning: '`MaxRequestsPerChild` renamed to `MaxConnectionsPerChild`',
      },
      {
        code: 'name-virtual-host-removed',
        severities: ['info'],
        summary: 'NameVirtualHost removed',
        meaning: '`NameVirtualHost` removed (no effect in 2.4, which warns AH00548)',
      },
      {
        code: 'default-type-removed',
        severities: ['info', 'review'],
        summary: 'DefaultType removed',
        meaning: '`DefaultType` removed; `review` when its value was not `none`, with a hint (AddType / ForceType) because 2.4 sends no Content-Type for unknown files',
      },
      {
        code: 'keep-alive-normalized',
        severities: ['info'],
        summary: 'KeepAlive value normalized to On or Off',
        meaning: '`KeepAlive` value other than On/Off replaced by what 2.2 meant (`0` → Off, anything else but Off → On)',
      },
      {
        code: 'access-migrated',
        severities: ['info'],
        summary: 'Access rules rewritten as Require',
        meaning: 'a scope\'s Order/Allow/Deny/Satisfy (and the Require lines it combines with) rewritten as Require',
      },
      {
        code: 'access-review',
        severities: ['review'],
        summary: 'Migrated access rules to review',
        meaning: 'a migrated scope a human should look at: `Deny from all` + authentication kept as `Require all denied` (2.2 answered 403 even with valid credentials); a 2.2-style section below 2.4-style ones that, read as 2.2 rules, sets neither host rules nor Require (only Satisfy) loses its lines and keeps what the sections above require; `env=!` read with 2.4\'s meaning; host words that can never match dropped',
      },
      {
        code: 'access-authtype-granted',
        severities: ['info'],
        summary: 'Require all granted added where AuthType stood alone',
        meaning: 'a section sets `AuthType` (not None) but no Require, Order/Allow/Deny or Satisfy applies there, in it or in any section that may come before it: 2.2 never asked for credentials there and served every request; 2.4 answers 500 (AH01627 "AuthType configured with no corresponding authorization directives"), so `Require all granted` is written in the section. Sections below it with their own Require keep them',
      },
      {
        code: 'access-kept',
        severities: ['manual'],
        summary: 'Access rules kept on mod_access_compat',
        meaning: 'Order/Allow/Deny/Satisfy left as they were and mod_access_compat (with mod_authz_core) scheduled, with the reason: a construct the model lacks, rules under `<IfDefine>` or an unknown `<IfModule>`, a scope whose inheritance changes with the request in a way the migration cannot carry (naming the line the URL space cannot see past), or a neighbour that stays (a migrated scope would inherit its Order/Allow/Deny on compat, or it inherits from this one). Only those scopes are kept; every other scope of the server migrates. Each kept scope gets a comment line, `# httpd-codemod kept these access rules on mod_access_compat (access-kept): …`, so that a later run keeps it too (reason: "an earlier run kept them") instead of reading it below the migrated sections by the boundary rule and migrating it in a second step; rewrite the rules by hand, then delete the comment',
      },
      {
        code: 'access-kept-pinned',
        severities: ['review'],
        summary: 'Kept section given a copy of rules it inherited',
        meaning: 'a kept scope inherited Order/Allow/Deny or Require from a scope that is migrated: a copy of those lines (or `Require all granted` where it inherited none) is written into it, so it answers as before on mod_access_compat. Also a kept scope that sets only `Satisfy` (or only Order/Allow/Deny): 2.2 kept the host rules (or the Satisfy) it inherited, compat resets them; where one section is their source on every request, a copy of its lines is written in, migrated or not, and no `access-compat-hazard` is left',
      },
      {
        code: 'access-mixed-differs',
        severities: ['review'],
        summary: 'Mixed 2.2/2.4 rules answer a request differently than 2.4+compat does today',
        meaning: 'the config mixes 2.2 and 2.4 rules (or sits under 2.4 parents given with `--context`); the migration follows the nearer-section-replaces rule, which differs from what httpd 2.4 + mod_access_compat answers today: one concrete request (method, target, client, credentials) with both status codes',
      },
      {
        code: 'access-context-assumed',
        severities: ['review'],
        summary: 'No main config in the run: a stock 2.4 main config is assumed above',
        meaning: 'once per run without a main config: the sections above its files are taken to be a stock 2.4 main config, which requires no authentication, so each migrated section\'s Require replaces what it inherits (no AuthMerging); the remedy is `--context MAIN_CONFIG`',
      },
      {
        code: 'context-override-needed',
        severities: ['manual'],
        summary: 'A --context file lacks the AllowOverride the migrated files need',
        meaning: 'reported against a `--context` file, which the run never writes: its `<Directory>` must allow what the migrated per-directory files now use (`AllowOverrideList Require …`), or its `<Directory />` sets no AllowOverride',
      },
      {
        code: 'access-compat-hazard',
        severities: ['manual'],
        summary: 'mod_access_compat answers otherwise than 2.2 did',
        meaning: 'a kept scope where mod_access_compat answers otherwise than 2.2 did (a child with only `Satisfy` resets the inherited host rules: it grants more; a child with its own Order resets an inherited `Satisfy Any`: it grants less; `Satisfy Any` without Require), with the fix; the first two only where the inherited lines differ by request (otherwise they are copied in: `access-kept-pinned`)',
      },
      {
        code: 'access-dual-version',
        severities: ['info'],
        summary: 'Dual-version access block decided for 2.4',
        meaning: 'a dual-version access block (`<IfModule mod_authz_core.c>` / `<IfModule !mod_authz_core.c>`, `<IfModule mod_version.c>` with `<IfVersion>` and an `<IfModule !mod_version.c>` fallback, `<IfModule mod_access.c>` / `!mod_access_compat` …): which branch 2.4 runs and why the others never do. Left as it is when that branch is 2.4 syntax (it keeps working on 2.2; nothing is loaded for the 2.2 branches, no mod_access_compat); when it still holds Order/Allow/Deny/Satisfy, access-to-require migrates it',
      },
      {
        code: 'access-dual-skipped',
        severities: ['info'],
        summary: 'Access rules written for 2.4 only despite --dual-syntax',
        meaning: '`--dual-syntax` was asked for, but this scope is written for 2.4 only (its lines already use 2.4 syntax, or they are spread over sections holding other directives)',
      },
      {
        code: 'htaccess-needs-authconfig',
        severities: ['review'],
        summary: 'Migrated .htaccess needs AllowOverride AuthConfig',
        meaning: 'a migrated `.htaccess` run without its server uses Require, which needs `AllowOverride AuthConfig` (or `AllowOverrideList Require`) on its directory',
      },
      {
        code: 'htaccess-override-list-added',
        severities: ['review'],
        summary: 'AllowOverrideList added for migrated per-directory files',
        meaning: '`AllowOverrideList` added so migrated per-directory files may hold Require (and `<RequireAll>` …); it also says what this grants: a Require in those files replaces the server\'s Require rules, which `Limit` alone could not do in 2.2',
      },
      {
        code: 'htaccess-override-list-guarded',
        severities: ['info'],
        summary: 'AllowOverrideList None added to a child directory',
        meaning: '`AllowOverrideList None` added so a child directory that allowed neither Limit nor AuthConfig does not inherit the list',
      },
      {
        code: 'htaccess-not-visible',
        severities: ['manual'],
        summary: 'Per-directory files of a Limit-only directory not visible',
        meaning: 'a directory allows only `Limit` and its per-directory files cannot be seen (not in the run, and the path is a wildcard, outside the copied ServerRoot, or absent from this machine)',
      },
      {
        code: 'htaccess-not-read',
        severities: ['info'],
        summary: 'Per-directory file under AllowOverride None migrated on its own',
        meaning: 'a per-directory file with access lines whose directory is governed by `AllowOverride None`: httpd never read it, so it is no source of rules for its neighbours; it is migrated on its own (right once AllowOverride lets it in)',
      },
      {
        code: 'htaccess-refused-on-22',
        severities: ['review'],
        summary: 'Per-directory file already refused on 2.2 left alone',
        meaning: 'a per-directory file that 2.2 already refused (500): an AuthConfig directive under `AllowOverride Limit` only, or Order/Allow/Deny under an AllowOverride without `Limit`; it is left alone, since its lines as Require would start answering where 2.2 did not',
      },
    ],
  },
  {
    title: 'Logging',
    codes: [
      {
        code: 'rewrite-log-replaced',
        severities: ['info', 'review'],
        summary: 'RewriteLogLevel replaced by LogLevel rewrite:traceN',
        meaning: '`RewriteLogLevel N` → `LogLevel rewrite:traceN` (merged into the context\'s LogLevel line, or written after a later one that would reset it); `review` when VirtualHosts now inherit the trace (2.2 passed it on only with `RewriteOptions inherit`), or no RewriteLog is visible in a fragment',
      },
      {
        code: 'rewrite-log-file-gone',
        severities: ['review'],
        summary: 'RewriteLog removed: the trace goes to the ErrorLog',
        meaning: '`RewriteLog` removed: 2.4 has no separate rewrite log; the trace goes to that context\'s ErrorLog, tagged `[rewrite:traceN]`',
      },
      {
        code: 'rewrite-log-removed',
        severities: ['info'],
        summary: 'RewriteLog/RewriteLogLevel that logged nothing removed',
        meaning: 'RewriteLog/RewriteLogLevel removed because 2.2 logged nothing (level 0, no RewriteLog, `/dev/null`, or overridden)',
      },
      {
        code: 'dump-io-log-level-replaced',
        severities: ['info'],
        summary: 'DumpIOLogLevel replaced by LogLevel dumpio:trace7',
        meaning: '`DumpIOLogLevel` → `LogLevel dumpio:trace7`',
      },
      {
        code: 'dump-io-level-added',
        severities: ['info'],
        summary: 'LogLevel dumpio:trace7 added',
        meaning: '`LogLevel dumpio:trace7` added where 2.2 logged DumpIOInput/Output at its default level (debug)',
      },
      {
        code: 'dump-io-level-unknown',
        severities: ['review'],
        summary: 'DumpIO on, LogLevel outside the run',
        meaning: 'DumpIO is on but the server\'s LogLevel is in files outside the run: nothing written (trace7 logs every byte, credentials included); the message says what to add',
      },
      {
        code: 'dump-io-log-level-removed',
        severities: ['info'],
        summary: 'DumpIOLogLevel that logged nothing removed',
        meaning: 'removed: the context\'s LogLevel was below it, so 2.2 printed nothing',
      },
      {
        code: 'debug-level-replaced',
        severities: ['info'],
        summary: 'DebugLevel= option replaced by a module LogLevel',
        meaning: '`DebugLevel=n` of CharsetOptions/ExtFilterOptions → `LogLevel charset_lite:…` / `ext_filter:…`',
      },
      {
        code: 'debug-level-removed',
        severities: ['info'],
        summary: 'DebugLevel= option that enabled nothing removed',
        meaning: '`DebugLevel=n` dropped: n enabled no messages, or LogLevel was below debug',
      },
      {
        code: 'debug-level-htaccess',
        severities: ['review'],
        summary: 'DebugLevel= option dropped in a .htaccess',
        meaning: '`DebugLevel=` dropped in a `.htaccess` (LogLevel is not allowed there): set the module level in the server config',
      },
      {
        code: 'piped-log-shell',
        severities: ['info'],
        summary: 'Piped log command that needs a shell written with |$',
        meaning: 'a piped log command that needs a shell (redirects, pipes, `$VAR`, …) written `|$command`, as 2.2 ran it; 2.4 runs `|command` without a shell',
      },
    ],
  },
  {
    title: 'Mutexes, SSL, authentication',
    codes: [
      {
        code: 'mutex-replaced',
        severities: ['info', 'review'],
        summary: 'Mutex directive replaced by Mutex',
        meaning: '`AcceptMutex` / `LockFile` / `SSLMutex` / `RewriteLock` / `SSLStaplingMutex` / `WatchdogMutexPath` → `Mutex mechanism[:dir] name`; `review` when a directory is named (it must exist when 2.4 starts) or AcceptMutex is set in another file',
      },
      {
        code: 'mutex-default-removed',
        severities: ['info'],
        summary: 'Mutex setting equal to 2.4\'s default removed',
        meaning: '`AcceptMutex default` / `SSLMutex default|yes` removed: 2.4\'s default',
      },
      {
        code: 'mutex-none-removed',
        severities: ['review'],
        summary: 'SSLMutex none removed',
        meaning: '`SSLMutex none|no` removed: 2.4 refuses `Mutex none`, the default mechanism is used',
      },
      {
        code: 'lock-file-merged',
        severities: ['info', 'review'],
        summary: 'LockFile merged into the accept mutex\'s Mutex line',
        meaning: '`LockFile`\'s directory moved into the accept mutex\'s `Mutex` line; `review` when they were in different sections',
      },
      {
        code: 'accept-mutex-removed',
        severities: ['info'],
        summary: 'AcceptMutex/LockFile removed under the event MPM',
        meaning: '`AcceptMutex`/`LockFile` removed under the event MPM, which has no accept mutex',
      },
      {
        code: 'mutex-unknown-mechanism',
        severities: ['manual'],
        summary: 'Mutex mechanism 2.4 lacks',
        meaning: 'a mechanism 2.4 lacks, or wrong arguments; left alone',
      },
      {
        code: 'mutex-in-virtualhost',
        severities: ['manual'],
        summary: 'Mutex directive inside a VirtualHost',
        meaning: 'a mutex directive inside `<VirtualHost>`; left alone',
      },
      {
        code: 'revocation-check-added',
        severities: ['info'],
        summary: 'SSLCARevocationCheck added where CRLs are configured',
        meaning: '`SSL[Proxy]CARevocationCheck chain no_crl_for_cert_ok` added where CRLs are configured (2.4 ignores them without it; plain `chain` would also refuse CAs without a CRL, which 2.2 accepted)',
      },
      {
        code: 'sslv2-protocol-removed',
        severities: ['info'],
        summary: 'SSLv2 removed from SSLProtocol',
        meaning: 'SSLv2 removed from `SSL[Proxy]Protocol` (same protocol set)',
      },
      {
        code: 'sslv2-protocol-manual',
        severities: ['manual'],
        summary: 'SSLv2 in SSLProtocol cannot be removed safely',
        meaning: 'removing SSLv2 would leave no protocol or change the others; left alone',
      },
      {
        code: 'sslv3-protocol-removed',
        severities: ['info', 'review'],
        summary: 'SSLv3 removed from SSLProtocol',
        meaning: 'SSLv3 removed from `SSL[Proxy]Protocol` (2.4.71\'s OpenSSL has none and refuses the line); `info` when 2.2 did not enable it anyway, `review` when SSLv3-only clients lose access or only TLSv1/1.1 remain (OpenSSL 3 refuses those at its default security level)',
      },
      {
        code: 'sslv3-protocol-manual',
        severities: ['manual'],
        summary: 'SSLv3 in SSLProtocol cannot be removed safely',
        meaning: 'SSLv3 was the only protocol, or removing it would change the others; left alone',
      },
      {
        code: 'ssl-session-cache-renamed',
        severities: ['info'],
        summary: 'SSL session cache shm:/shmht: renamed to shmcb:',
        meaning: '`SSLSessionCache`/`SSLStaplingCache` `shm:`/`shmht:` → `shmcb:` (2.2 aliases 2.4 refuses; provider names are case-sensitive in 2.4)',
      },
      {
        code: 'ssl-session-cache-distcache',
        severities: ['manual'],
        summary: 'SSL session cache dc: needs a module Debian lacks',
        meaning: '`dc:` needs mod_socache_dc, which Debian\'s 2.4 does not ship: choose shmcb or memcache',
      },
      {
        code: 'sslv2-ciphers-removed',
        severities: ['info'],
        summary: 'SSLv2 words removed from a cipher suite',
        meaning: 'SSLv2 words removed from a cipher suite (the selected ciphers are the same)',
      },
      {
        code: 'sslv2-ciphers-manual',
        severities: ['manual'],
        summary: 'Cipher suite selects nothing without its SSLv2 words',
        meaning: 'the cipher suite selects nothing without its SSLv2 words; left alone',
      },
      {
        code: 'auth-digest-nonce-format-removed',
        severities: ['info'],
        summary: 'AuthDigestNonceFormat removed',
        meaning: '`AuthDigestNonceFormat` removed (2.2 never implemented it; 2.4 rejects it). `AuthDigestNcCheck` still exists in 2.4 and is kept',
      },
      {
        code: 'authz-authoritative-removed',
        severities: ['info', 'review'],
        summary: 'Authz*Authoritative On removed',
        meaning: '`Authz*Authoritative On` removed; `review` when the section mixes Require providers',
      },
      {
        code: 'authz-authoritative-off-removed',
        severities: ['manual'],
        summary: 'Authz*Authoritative Off removed: provider order to write',
        meaning: '`Authz*Authoritative Off` removed: write the provider order with `<RequireAny>`/`<RequireAll>`',
      },
    ],
  },
  {
    title: 'Filters, Options, Include',
    codes: [
      {
        code: 'filter-provider-expression',
        severities: ['info'],
        summary: 'FilterProvider rewritten as an expression',
        meaning: 'old `FilterProvider name provider dispatch match` rewritten as a 2.4 expression with 2.2\'s matching rules',
      },
      {
        code: 'filter-provider-manual',
        severities: ['manual'],
        summary: 'FilterProvider without an exact 2.4 expression',
        meaning: 'a FilterProvider the tool cannot express exactly (unknown dispatch, bad number or regex); left alone',
      },
      {
        code: 'add-output-filter-by-type-needs-filter',
        severities: ['info'],
        summary: 'AddOutputFilterByType needs mod_filter',
        meaning: '`AddOutputFilterByType` lives in mod_filter in 2.4; the planner loads it',
      },
      {
        code: 'options-signs-normalized',
        severities: ['info', 'review'],
        summary: 'Options line mixing signs rewritten',
        meaning: 'an `Options` line mixing `+`/`-` with bare words (refused by 2.4) rewritten to what 2.2.12+ made of it (checked by simulating subdirectories below it); `review` in `.htaccess` when the full option list was written (check `AllowOverride Options=`)',
      },
      {
        code: 'options-signs-exec-by-release',
        severities: ['review'],
        summary: 'Options line whose SSI #exec depended on the 2.2 release rewritten',
        meaning: 'such a line rewritten with the 2.2.12+ meaning, where 2.2.0–2.2.11 gave a different SSI `#exec`; the message names where',
      },
      {
        code: 'options-mixed-signs-manual',
        severities: ['manual'],
        summary: 'Options line mixing signs without an exact 2.4 equivalent',
        meaning: 'such a line has no exact 2.4 equivalent; the reason is given',
      },
      {
        code: 'options-includes-exec-by-release',
        severities: ['review'],
        summary: 'Options Includes with IncludesNOEXEC depended on the 2.2 release',
        meaning: 'an Options line combining Includes/All with IncludesNOEXEC: no `#exec` on 2.2.0–2.2.11, `#exec` on 2.2.12+ and 2.4; kept with the 2.2.12+ meaning',
      },
      {
        code: 'include-wildcard-optional',
        severities: ['info'],
        summary: 'Include wildcard matching nothing became IncludeOptional',
        meaning: 'an `Include` wildcard that matches nothing on the scanned tree (fatal on 2.4) became `IncludeOptional`',
      },
      {
        code: 'include-target-missing',
        severities: ['manual'],
        summary: 'Include target missing',
        meaning: 'a literal Include target, or the directory before a wildcard, is missing; 2.2 and 2.4 both refuse to start',
      },
      {
        code: 'include-wildcard-unchecked',
        severities: ['review'],
        summary: 'Include wildcard not checked',
        meaning: 'a wildcard Include the tool could not check (no ServerRoot, unknown `${VAR}`)',
      },
      {
        code: 'bom-removed',
        severities: ['review'],
        summary: 'UTF-8 byte order mark removed',
        meaning: 'a UTF-8 byte order mark removed from a config file: httpd on Unix (2.2 and 2.4) reads it as part of the first directive and does not start; the file\'s lines now take effect',
      },
      {
        code: 'bom-in-htaccess',
        severities: ['manual'],
        summary: '.htaccess starting with a byte order mark',
        meaning: 'a `.htaccess` starting with a BOM answers 500 for its whole directory; left alone, because removing it would put its directives into effect',
      },
    ],
  },
  {
    title: 'Changed behaviour and defaults',
    codes: [
      {
        code: 'cache-session-identifiers-exact',
        severities: ['review'],
        summary: 'CacheIgnoreURLSessionIdentifiers matches exact names in 2.4',
        meaning: '2.4 strips only exact session parameter names in `CacheIgnoreURLSessionIdentifiers`',
      },
      {
        code: 'cache-enable-forward-proxy-added',
        severities: ['info'],
        summary: 'CacheEnable for forward-proxied content added',
        meaning: '`CacheEnable TYPE http://*:` added so forward-proxied content is still cached',
      },
      {
        code: 'cache-enable-forward-proxy-path',
        severities: ['manual'],
        summary: 'CacheEnable path on a forward proxy needs per-host lines',
        meaning: '`CacheEnable TYPE /path` on a forward proxy needs per-host `http://host/path` lines',
      },
      {
        code: 'ldap-trusted-client-cert-scope',
        severities: ['manual'],
        summary: 'Server-level LDAPTrustedClientCert fails on 2.4',
        meaning: 'server/vhost-level `LDAPTrustedClientCert` fails on 2.4; move it into the LDAP auth sections',
      },
      {
        code: 'ssi-legacy-expr-parser-added',
        severities: ['info'],
        summary: 'SSILegacyExprParser on added',
        meaning: '`SSILegacyExprParser on` added where SSI is enabled; remove it once pages use the new `#if expr` syntax',
      },
      {
        code: 'ssi-legacy-expr-parser-htaccess',
        severities: ['manual'],
        summary: 'SSI enabled in a .htaccess needs SSILegacyExprParser',
        meaning: 'a `.htaccess` enables SSI: add the directive to its `<Directory>`',
      },
      {
        code: 'ssi-legacy-expr-parser-needed',
        severities: ['manual', 'review'],
        summary: 'SSI needs SSILegacyExprParser',
        meaning: 'SSI enabled at server level (manual), or used without a section that enables it (review)',
      },
      {
        code: 'proxy-scgi-pathinfo-set',
        severities: ['info'],
        summary: 'proxy-scgi-pathinfo set for an SCGI backend',
        meaning: '`SetEnvIf Request_URI ^ proxy-scgi-pathinfo` added so the SCGI backend still gets PATH_INFO',
      },
      {
        code: 'proxy-scgi-pathinfo-review',
        severities: ['review'],
        summary: 'SCGI backend reached without PATH_INFO',
        meaning: 'another route to `scgi://` (BalancerMember, RewriteRule [P]): PATH_INFO is no longer sent',
      },
      {
        code: 'ssl-dn-legacy-format',
        severities: ['info'],
        summary: 'SSLOptions +LegacyDNStringFormat added',
        meaning: '`+LegacyDNStringFormat` added where a whole DN is compared or exported',
      },
      {
        code: 'ssl-dn-string-used',
        severities: ['manual'],
        summary: 'Whole DN string used where the legacy format cannot be added',
        meaning: 'a whole DN is used where the option cannot safely be added',
      },
      {
        code: 'ssl-dn-format-changed',
        severities: ['info'],
        summary: 'DNs exported in RFC 2253 form',
        meaning: '`StdEnvVars` now exports DNs in RFC 2253 form (no client certificates seen)',
      },
      {
        code: 'substitute-line-limit',
        severities: ['info'],
        summary: 'Substitute has a 1 MB line limit in 2.4',
        meaning: 'lines over 1 MB break `Substitute` on 2.4 (`SubstituteMaxLineLength`)',
      },
      {
        code: 'dav-lock-db-delete',
        severities: ['review'],
        summary: 'Old DavLockDB files to delete',
        meaning: 'delete the old DavLockDB files before starting 2.4 (the format changed)',
      },
      {
        code: 'directory-match-end-anchor',
        severities: ['manual'],
        summary: 'DirectoryMatch with $ applies on 2.4 only',
        meaning: 'a `<DirectoryMatch>` with `$` never applied on 2.2 but applies on 2.4',
      },
      {
        code: 'default-changed',
        severities: ['info', 'review'],
        summary: 'Server relies on a default that changed',
        meaning: 'the server relies on a default that changed (EnableSendfile, FileETag, Options, Timeout, LimitRequestBody, RequestReadTimeout, SSLProxyCheckPeerCN/Expire)',
      },
      {
        code: 'default-pinned',
        severities: ['info', 'review'],
        summary: '2.2 default written explicitly',
        meaning: 'with `--pin-defaults`: the 2.2 value written explicitly',
      },
      {
        code: 'allow-override-all-explicit',
        severities: ['review'],
        summary: 'AllowOverride All written where 2.2\'s default applied',
        meaning: '`AllowOverride All` written where 2.2\'s default applied (2.4\'s unset AllowOverride reads `.htaccess` and answers 500 for every directive in it); in a run without the main config, in a `<Directory>` with per-directory files below it and no AllowOverride on its way (a stock 2.4 main config sets None at `<Directory />`)',
      },
      {
        code: 'allow-override-default-unclear',
        severities: ['manual'],
        summary: 'AllowOverride of <Directory /> set only under a condition',
        meaning: '`<Directory />` sets AllowOverride only under a condition where no new section can be put first',
      },
      {
        code: 'allow-override-ignored',
        severities: ['review'],
        summary: 'AllowOverride where httpd ignores or refuses it',
        meaning: 'AllowOverride(List) where httpd ignores or refuses it (DirectoryMatch, Location, Files)',
      },
    ],
  },
  {
    title: 'Modules',
    codes: [
      {
        code: 'module-loaded',
        severities: ['info'],
        summary: 'LoadModule added for a needed module',
        meaning: 'a `LoadModule` line added for a module the migrated directives need',
      },
      {
        code: 'mpm-loaded',
        severities: ['review'],
        summary: 'MPM loaded as a module',
        meaning: 'the MPM (compiled into 2.2, a module in 2.4) is loaded; `--mpm` chooses which',
      },
      {
        code: 'module-builtin-guarded',
        severities: ['info'],
        summary: 'LoadModule of a possible built-in guarded',
        meaning: 'an existing LoadModule of a module some 2.4 builds compile in guarded with `<IfModule !x_module>` (loading a built-in is fatal)',
      },
      {
        code: 'module-renamed',
        severities: ['info', 'review'],
        summary: 'LoadModule renamed to the 2.4 module',
        meaning: 'LoadModule renamed to the 2.4 module (`disk_cache` → `cache_disk`, `authn_alias` → `authn_core`)',
      },
      {
        code: 'module-removed',
        severities: ['info', 'review', 'manual'],
        summary: 'LoadModule of a removed module commented out',
        meaning: 'LoadModule of a module 2.4 removed (`authn_default`, `authz_default`, `mem_cache`) commented out; `manual` when mem_cache\'s directives are still used',
      },
      {
        code: 'module-third-party',
        severities: ['manual'],
        summary: 'Third-party module built for 2.2',
        meaning: 'a third-party module built for 2.2 (mod_php5, mod_python, mod_jk, mod_wsgi, …): the message says what to install',
      },
      {
        code: 'module-unknown',
        severities: ['manual'],
        summary: 'Unknown module',
        meaning: 'a module the tool knows neither as 2.2 standard nor as third-party: rebuild or remove it',
      },
      {
        code: 'ifmodule-renamed',
        severities: ['info'],
        summary: 'IfModule test renamed to the 2.4 module',
        meaning: 'an `<IfModule>` test renamed to the 2.4 module name',
      },
      {
        code: 'ifmodule-removed-module',
        severities: ['review'],
        summary: 'IfModule names a removed module',
        meaning: 'an `<IfModule>` names a removed module, so it is now always false (or true with `!`)',
      },
      {
        code: 'module-not-installed',
        severities: ['manual'],
        summary: 'Module not installed in the probed httpd',
        meaning: 'with `--httpd`: the probed httpd has no file for a module the config loads or needs',
      },
      {
        code: 'module-needed-when-enabled',
        severities: ['info'],
        summary: 'A switched-off file needs a module when it is switched on',
        meaning: 'a file the server does not read today (placed as if included) needs a module the server does not load; nothing is written for it',
      },
      {
        code: 'module-needed',
        severities: ['manual', 'review'],
        summary: 'Needed module not loaded',
        meaning: 'a module is needed but the server has no LoadModule lines to add it beside (`manual`), or the run holds only fragments whose main config must load it (`review`)',
      },
      {
        code: 'httpd-probe-failed',
        severities: ['review'],
        summary: '--httpd could not be probed',
        meaning: '`--httpd` could not be probed; guarded lines are written instead',
      },
    ],
  },
  {
    title: 'Writing',
    codes: [
      {
        code: 'interrupted-write-completed',
        severities: ['review'],
        summary: 'Interrupted --write completed',
        meaning: 'a `--write` killed while it replaced files was completed (or, in a dry run: will be by the next `--write`); files edited since are named and left alone',
      },
      {
        code: 'interrupted-write-discarded',
        severities: ['info'],
        summary: 'Interrupted --write discarded',
        meaning: 'the temporary files of a `--write` killed before it changed anything were removed (dry run: will be)',
      },
      {
        code: 'interrupted-write-busy',
        severities: ['review'],
        summary: 'Stage directory of a running process left alone',
        meaning: 'a stage directory belongs to a process that is still running (another run on the same tree); left alone',
      },
    ],
  },
];

const BY_CODE = new Map(FINDING_GROUPS.flatMap((g) => g.codes.map((c) => [c.code, c] as const)));

/** The catalogue entry of a code; undefined for a code the catalogue lacks. */
export function findingCode(code: string): FindingCode | undefined {
  return BY_CODE.get(code);
}
