/**
 * Which directives take part in URL → filesystem mapping: httpd's own (mod_alias, mod_rewrite, mod_proxy,
 * mod_userdir, mod_vhost_alias, core, mod_lua's early hooks), and directives of modules the model does not
 * know whose first argument is a URL-path (`WSGIScriptAlias /app …`, `JkMount /x/* w`, `PassengerBaseURI /app`).
 */
import { Directive } from '../../cst';
import { REMOVED } from '../../modules/knowledge';
import { isKnownDirective24 } from '../../modules/table';

/** httpd directives (2.2 and 2.4) the mapping model reads. */
export const MAPPING_DIRECTIVES = new Set(
  [
    'DocumentRoot',
    'Alias',
    'ScriptAlias',
    'AliasMatch',
    'ScriptAliasMatch',
    'Redirect',
    'RedirectMatch',
    'RedirectTemp',
    'RedirectPermanent',
    'RewriteEngine',
    'RewriteOptions',
    'RewriteRule',
    'ProxyPass',
    'ProxyPassMatch',
    'ProxyExpressEnable',
    'UserDir',
    'VirtualDocumentRoot',
    'VirtualDocumentRootIP',
    'VirtualScriptAlias',
    'VirtualScriptAliasIP',
    'ServerPath',
    'LuaHookTranslateName',
    'LuaHookMapToStorage',
    'LuaQuickHandler',
  ].map((n) => n.toLowerCase()),
);

/** mod_lua hooks that run before or instead of the mapping: any URL may go anywhere. */
export const EARLY_HOOKS = new Set(['luahooktranslatename', 'luahookmaptostorage', 'luaquickhandler']);

/** 2.2 directives 2.4 no longer has (so they are not "unknown modules"). */
const KNOWN_22_ONLY = new Set(
  [
    'AcceptMutex',
    'LockFile',
    'RewriteLog',
    'RewriteLogLevel',
    'RewriteLock',
    'SSLMutex',
    'DumpIOLogLevel',
    'AuthDefaultAuthoritative',
    'AuthzDefaultAuthoritative',
    'AuthzDBMAuthoritative',
    'AuthzGroupFileAuthoritative',
    'AuthzLDAPAuthoritative',
    'AuthzOwnerAuthoritative',
    'AuthzUserAuthoritative',
    'AuthDBMAuthoritative',
    'AuthDBDAuthoritative',
    'Anonymous_Authoritative',
    'CacheForceCompletion',
    'CacheMaxStreamingBuffer',
    'Win32DisableAcceptEx',
    ...Object.values(REMOVED).flatMap((m) => m.directives),
  ].map((n) => n.toLowerCase()),
);

/** Whether httpd 2.2 or 2.4 knows a directive (its own modules). */
export function isHttpdDirective(name: string): boolean {
  return isKnownDirective24(name) || KNOWN_22_ONLY.has(name.toLowerCase());
}

/** Third-party directives known to map URLs before the directory walk: first argument is the URL-path. */
const THIRD_PARTY_URL = new Set(['wsgiscriptalias', 'wsgiscriptaliasmatch', 'jkmount', 'jkunmount', 'passengerbaseuri', 'railsbaseuri', 'rackbaseuri']);

/** Third-party directives that hook URL translation for every URL of their context. */
const THIRD_PARTY_EVERY_URL = new Set([
  'perltranshandler',
  'perlmaptostoragehandler',
  'perlpostreadrequesthandler',
  'perlinithandler',
  'pythontranshandler',
  'pythonpostreadrequesthandler',
]);

/** Third-party directives that, inside a `<Location>`, take over its URLs (mod_dav_svn, mod_jk's one-argument form). */
const THIRD_PARTY_IN_LOCATION = new Set(['svnpath', 'svnparentpath', 'jkmount']);

export type UnknownReach = { readonly kind: 'url'; readonly arg: string } | { readonly kind: 'every' } | null;

/**
 * What a directive of an unknown module (not httpd's) can remap, at server or virtual-host level: the URLs
 * under its first argument (known third-party URL directives, and unknown ones whose name ends in
 * Alias/AliasMatch/Mount/BaseURI/URI/URL and whose first argument is a URL-path), every URL (URL translation
 * hooks), or nothing the model considers.
 */
export function unknownReach(d: Directive): UnknownReach {
  const name = d.lowerName;
  if (isHttpdDirective(name)) return null;
  if (THIRD_PARTY_EVERY_URL.has(name)) return { kind: 'every' };
  const arg = d.values[0] ?? '';
  const urlLike = arg.startsWith('/') || arg.startsWith('^');
  if (urlLike && (THIRD_PARTY_URL.has(name) || /(alias|aliasmatch|mount|baseuri|uri|url)$/.test(name))) return { kind: 'url', arg };
  return null;
}

/** A directive of an unknown module inside a `<Location>` that takes over that Location's URLs. */
export function takesOverLocation(d: Directive): boolean {
  const name = d.lowerName;
  return !isHttpdDirective(name) && (THIRD_PARTY_IN_LOCATION.has(name) || THIRD_PARTY_EVERY_URL.has(name));
}

/** Whether a line inside a `<Macro>` would map URLs where the macro is used. */
export function isMappingDirective(d: Directive): boolean {
  return MAPPING_DIRECTIVES.has(d.lowerName) || unknownReach(d) !== null;
}
