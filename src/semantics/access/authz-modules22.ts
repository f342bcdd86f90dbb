/**
 * 2.2's auth_checker hook (RUN_FIRST) for an authenticated user: each module
 * looks only at the Require lines it owns; the first one that does not DECLINE
 * decides. Reference: docs/research/access-semantics.md §4.
 *
 * Modelled hook order (real order among MIDDLE hooks = LoadModule order; this
 * is the stock httpd.conf one): mod_authz_user, mod_authz_groupfile or
 * mod_authz_dbm (`dbmGroups`: AuthDBMGroupFile set, assumed instead of
 * AuthGroupFile), mod_authz_owner, then mod_authz_default (LAST). Words no
 * module here owns (`ldap-user`, 2.4 words like `all` …) reach
 * mod_authz_default. `file-owner` / `file-group` are decided by
 * mod_authz_owner against `Request.file` (never satisfied without one).
 */
import { Effective22, Request } from './types';

export type Authorization22 = 200 | 401 | 500;

export type RequireWordKind = 'valid-user' | 'user' | 'group' | 'file-owner' | 'file-group' | 'unknown';

/** The module-owned keyword of a Require line (keywords compare case-insensitively). */
export function requireWordKind(words: readonly string[]): RequireWordKind {
  const first = (words[0] ?? '').toLowerCase();
  switch (first) {
    case 'valid-user':
    case 'user':
    case 'group':
    case 'file-owner':
    case 'file-group':
      return first;
    default:
      return 'unknown';
  }
}

/** mod_authz_groupfile looks groups up in an APR table (case-insensitive); mod_authz_dbm uses strcmp. */
export function groupNameMatches(required: string, actual: string, dbm: boolean): boolean {
  return dbm ? required === actual : required.toLowerCase() === actual.toLowerCase();
}

/** The auth_checker outcome for an authenticated user, given the Require lines applying to the method. */
export function authorize22(
  eff: Effective22,
  lines: readonly (readonly string[])[],
  user: string,
  groups: readonly string[],
  file: Request['file'],
): Authorization22 {
  const kinds = lines.map(requireWordKind);
  const args = (i: number) => lines[i].slice(1);

  // mod_authz_user
  if (kinds.includes('valid-user')) return 200;
  if (kinds.some((k, i) => k === 'user' && args(i).includes(user))) return 200;
  if (kinds.includes('user') && eff.authoritative.user) return 401;

  // mod_authz_groupfile / mod_authz_dbm
  const inGroup = (name: string) => groups.some((g) => groupNameMatches(name, g, eff.dbmGroups));
  if (kinds.some((k, i) => k === 'group' && args(i).some(inGroup))) return 200;
  const groupAuthoritative = eff.dbmGroups ? eff.authoritative.dbm : eff.authoritative.groupFile;
  if (kinds.includes('group') && groupAuthoritative) return 401;

  // mod_authz_owner
  if (file) {
    if (kinds.includes('file-owner') && file.owner === user) return 200;
    if (kinds.includes('file-group') && inGroup(file.group)) return 200;
  }
  if ((kinds.includes('file-owner') || kinds.includes('file-group')) && eff.authoritative.owner) return 401;

  // mod_authz_default: lines are present (else auth_checker is never reached)
  return eff.authoritative.default ? 401 : 500;
}
