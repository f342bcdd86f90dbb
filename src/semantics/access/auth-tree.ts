/**
 * The 2.2 Require lines of one method as a 2.4 tree of user providers:
 * DENIED_NO_USER before authentication, afterwards GRANTED exactly for the users
 * 2.2's auth_checker chain (authz-modules22.ts) lets in. Everyone else gets 401
 * in both versions. Anything whose 2.2 answer the tree cannot reproduce (500,
 * hook-order dependence, words no modelled module owns) is unsupported.
 */
import { Effective22, RequireNode } from './types';
import { RequireWordKind, requireWordKind } from './authz-modules22';
import { anyOf, requireLeaf } from './require-tree';

export type AuthTree = { readonly tree: RequireNode } | { readonly unsupported: string };

export function authTreeFor(lines: readonly (readonly string[])[], eff: Effective22): AuthTree {
  const kinds = lines.map(requireWordKind);
  const argsOf = (kind: RequireWordKind) => lines.filter((_, i) => kinds[i] === kind).flatMap((l) => l.slice(1));
  const has = (kind: RequireWordKind) => kinds.includes(kind);

  const unknown = lines.filter((_, i) => kinds[i] === 'unknown').map((l) => l[0] ?? '');
  if (unknown.length > 0) {
    return { unsupported: `Require ${unknown.join(', ')}: no 2.2 module in the model owns this word; its answer depends on modules loaded` };
  }
  // mod_authz_user runs first and lets every authenticated user in.
  if (has('valid-user')) return { tree: requireLeaf('valid-user', []) };

  if (has('file-owner') || has('file-group')) {
    const only = kinds.every((k) => k === kinds[0]);
    if (!only) return { unsupported: 'Require file-owner/file-group beside other Require words: the 2.2 answer depends on module hook order' };
    if (!eff.authoritative.default) return { unsupported: 'AuthzDefaultAuthoritative Off with Require file-owner/file-group: 2.2 may answer 500' };
    const provider = kinds[0] === 'file-owner' ? 'file-owner' : eff.dbmGroups ? 'dbm-file-group' : 'file-group';
    return { tree: requireLeaf(provider, []) };
  }

  const users = argsOf('user');
  const groups = argsOf('group');
  // An authoritative mod_authz_user decides for everyone when a `user` line applies.
  if (has('user') && eff.authoritative.user) {
    if (users.length === 0) return { unsupported: 'Require user without names: 2.2 authenticates, then refuses everyone' };
    return { tree: requireLeaf('user', users) };
  }
  const groupAuthoritative = eff.dbmGroups ? eff.authoritative.dbm : eff.authoritative.groupFile;
  if (!(has('group') && groupAuthoritative) && !eff.authoritative.default) {
    return { unsupported: 'a user no Require line admits falls through to mod_authz_default, which is Off: 2.2 answers 500' };
  }
  const groupProvider = eff.dbmGroups ? 'dbm-group' : 'group';
  const grants = [
    ...(users.length > 0 ? [requireLeaf('user', users)] : []),
    ...(groups.length > 0 ? [requireLeaf(groupProvider, groups)] : []),
  ];
  if (grants.length === 0) return { unsupported: 'no Require line admits any user: 2.2 authenticates, then refuses everyone' };
  return { tree: anyOf(grants) };
}
