/**
 * The ordered registry of transforms. Order is checked when this module loads:
 * ids are unique and every `runsAfter` names a transform with a lower order.
 */
import { accessDualVersion } from './access-dual-version';
import { accessToRequire } from './access-to-require';
import { loadModules } from './load-modules';
import { normalizeKeepAlive } from './normalize-keep-alive';
import { removeDefaultType } from './remove-default-type';
import { removeNameVirtualHost } from './remove-name-virtual-host';
import { renameMaxClients } from './rename-max-clients';
import { renameMaxRequestsPerChild } from './rename-max-requests-per-child';
import { allowOverrideDefault } from './allow-override-default';
import { allowOverrideForHtaccess } from './allow-override-for-htaccess';
import { rewriteLogToLogLevel } from './rewrite-log-to-log-level';
import { dumpIoLogLevel } from './dump-io-log-level';
import { debugLevelOption } from './debug-level-option';
import { pipedLogShell } from './piped-log-shell';
import { replaceMutexDirectives } from './replace-mutex-directives';
import { sslRevocationCheck } from './ssl-revocation-check';
import { sslDropSslv2 } from './ssl-drop-sslv2';
import { removeAuthDigestOptions } from './remove-auth-digest-options';
import { removeAuthzAuthoritative } from './remove-authz-authoritative';
import { filterProviderExpression } from './filter-provider-expression';
import { addOutputFilterByType } from './add-output-filter-by-type';
import { optionsMixedSigns } from './options-mixed-signs';
import { includeOptionalWildcard } from './include-optional-wildcard';
import { cacheSessionIdentifiers } from './cache-session-identifiers';
import { cacheEnableForwardProxy } from './cache-enable-forward-proxy';
import { ldapTrustedClientCert } from './ldap-trusted-client-cert';
import { ssiLegacyExprParser } from './ssi-legacy-expr-parser';
import { proxyScgiPathinfo } from './proxy-scgi-pathinfo';
import { sslLegacyDnFormat } from './ssl-legacy-dn-format';
import { substituteLineLimit } from './substitute-line-limit';
import { davLockDbFormat } from './dav-lock-db-format';
import { directoryMatchSubdirectories } from './directory-match-subdirectories';
import { pinChangedDefaults } from './pin-changed-defaults';
import { renameModuleReferences } from './rename-module-references';
import { byteOrderMark } from './byte-order-mark';
import { optionsIncludesNoexec } from './options-includes-noexec';
import { dumpIoDefaultLevel } from './dump-io-default-level';
import { sslDropSslv3 } from './ssl-drop-sslv3';
import { sslSessionCacheShm } from './ssl-session-cache-shm';
import { Transform } from './types';

export function ordered(list: readonly Transform[]): Transform[] {
  const sorted = [...list].sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  const byId = new Map<string, Transform>();
  for (const t of sorted) {
    if (byId.has(t.id)) throw new Error(`duplicate transform id ${t.id}`);
    byId.set(t.id, t);
  }
  for (const t of sorted) {
    for (const dep of t.runsAfter ?? []) {
      const before = byId.get(dep);
      if (!before) throw new Error(`${t.id} runs after unknown transform ${dep}`);
      if (before.order >= t.order) throw new Error(`${t.id} (order ${t.order}) must run after ${dep} (order ${before.order})`);
    }
  }
  return sorted;
}

export const TRANSFORMS: readonly Transform[] = ordered([
  byteOrderMark,
  accessDualVersion,
  accessToRequire,
  renameMaxClients,
  renameMaxRequestsPerChild,
  removeNameVirtualHost,
  removeDefaultType,
  normalizeKeepAlive,
  allowOverrideDefault,
  allowOverrideForHtaccess,
  rewriteLogToLogLevel,
  dumpIoLogLevel,
  debugLevelOption,
  pipedLogShell,
  replaceMutexDirectives,
  sslRevocationCheck,
  sslDropSslv2,
  removeAuthDigestOptions,
  removeAuthzAuthoritative,
  filterProviderExpression,
  addOutputFilterByType,
  optionsIncludesNoexec,
  optionsMixedSigns,
  includeOptionalWildcard,
  cacheSessionIdentifiers,
  cacheEnableForwardProxy,
  ldapTrustedClientCert,
  ssiLegacyExprParser,
  proxyScgiPathinfo,
  sslLegacyDnFormat,
  substituteLineLimit,
  davLockDbFormat,
  directoryMatchSubdirectories,
  pinChangedDefaults,
  renameModuleReferences,
  dumpIoDefaultLevel,
  sslDropSslv3,
  sslSessionCacheShm,
  loadModules,
]);

/** Picks transforms by id (`only` first, then `skip`); unknown ids are an error. */
export function selectTransforms(only: readonly string[] = [], skip: readonly string[] = []): Transform[] {
  const known = new Set(TRANSFORMS.map((t) => t.id));
  const unknown = [...only, ...skip].filter((id) => !known.has(id));
  if (unknown.length > 0) throw new Error(`unknown transform id: ${unknown.join(', ')} (see --list-transforms)`);
  return TRANSFORMS.filter((t) => (only.length === 0 || only.includes(t.id)) && !skip.includes(t.id));
}

export type { Transform } from './types';
