/**
 * httpd 2.4's mod_authz_core evaluating a Require tree (no mod_access_compat):
 * apply_authz_sections and authorize_user_core, run once before
 * authentication (no user) and, on DENIED_NO_USER, again after it.
 * Reference: docs/research/access-semantics.md §6, §7.2, §7.3 and
 * mod_authz_core.c (2.4.58).
 *
 * The tree's root stands for the section's implicit `<RequireAny>`: a root of
 * kind `any` without methods is that section itself; any other root is its
 * only child.
 */
import { ALL_METHODS, MethodMask, Outcome, Request, RequireNode } from './types';
import { canonicalMethod, intersectMasks, maskContains } from './method-mask';
import { RequireLeaf } from './require-tree';
import { hostMatches, ipMatches } from './ip-match';
import { envIsSet } from './host-rules22';
import { groupNameMatches } from './authz-modules22';

export type AuthzStatus = 'granted' | 'denied' | 'denied-no-user' | 'neutral';

/** What one provider answers for the request (never `neutral`; negation is applied by the caller). */
export type LeafOracle = (leaf: RequireLeaf) => Exclude<AuthzStatus, 'neutral'>;

type LogicOp = 'and' | 'or';

export function asRootSection(tree: RequireNode): RequireNode {
  return tree.kind === 'any' && !tree.methods ? tree : { kind: 'any', children: [tree] };
}

/** httpd's `section->limited`: a leaf's `<Limit>` methods, a container's the union of its children's. */
function limitedTo(node: RequireNode, method: string, inherited: MethodMask): boolean {
  const mask = node.methods ? intersectMasks(inherited, node.methods) : inherited;
  if (node.kind === 'require') return maskContains(mask, method);
  return node.children.some((c) => limitedTo(c, method, mask));
}

/** apply_authz_sections. */
export function applyAuthzSections(
  node: RequireNode,
  method: string,
  parentOp: LogicOp,
  oracle: LeafOracle,
  inherited: MethodMask = ALL_METHODS,
): AuthzStatus {
  if (!limitedTo(node, method, inherited)) return parentOp === 'and' ? 'granted' : 'neutral';
  const mask = node.methods ? intersectMasks(inherited, node.methods) : inherited;
  let result: AuthzStatus;
  if (node.kind === 'require') {
    result = oracle(node);
  } else {
    const op: LogicOp = node.kind === 'all' ? 'and' : 'or';
    result = 'neutral';
    for (const child of node.children) {
      const r = applyAuthzSections(child, method, op, oracle, mask);
      if (r === 'neutral') continue;
      if (op === 'and') {
        if (r === 'denied') {
          result = r;
          break;
        }
        if ((r === 'denied-no-user' && result !== 'denied') || result === 'neutral') result = r;
      } else {
        if (r === 'granted') {
          result = r;
          break;
        }
        if ((r === 'denied-no-user' && result === 'denied') || result === 'neutral') result = r;
      }
    }
  }
  const negate = node.kind === 'require' ? node.negate : node.kind === 'none';
  if (negate) {
    if (result === 'granted') result = 'denied';
    else if (result === 'denied' || result === 'denied-no-user') result = 'neutral';
  }
  return result;
}

/**
 * authorize_user_core before authentication and, when it answers
 * DENIED_NO_USER, authentication and authorize_user_core again.
 */
export function outcome24(
  before: AuthzStatus,
  authType: string | null,
  credentials: Request['credentials'],
  after: () => AuthzStatus,
): Outcome {
  if (before === 'granted') return 200;
  if (before !== 'denied-no-user') return 403;
  if (!authType) return 500; // AH00027: no user after check_user_id
  if (credentials.kind !== 'user') return 401;
  return after() === 'granted' ? 200 : 401;
}

const listArgs = (leaf: RequireLeaf) => leaf.args.filter((a) => a !== '');

function isLocal(ip: string): boolean {
  return ip.includes(':') ? ipMatches('::1', ip) || ipMatches('127.0.0.0/8', ip) : ipMatches('127.0.0.0/8', ip);
}

/** The providers of mod_authz_core, mod_authz_host, mod_authz_user, mod_authz_groupfile, mod_authz_dbm, mod_authz_owner. */
export function requestOracle(req: Request, withUser: boolean): LeafOracle {
  const user = withUser && req.credentials.kind === 'user' ? req.credentials : null;
  const yes = (granted: boolean) => (granted ? 'granted' : 'denied');
  return (leaf) => {
    const args = listArgs(leaf);
    switch (leaf.provider) {
      case 'all': {
        const word = leaf.args.join(' ').toLowerCase();
        if (word !== 'granted' && word !== 'denied') throw new Error(`Require all ${leaf.args.join(' ')}: invalid`);
        return yes(word === 'granted');
      }
      case 'ip':
        return yes(args.some((spec) => ipMatches(spec, req.ip)));
      case 'host':
        return yes(args.some((name) => hostMatches(name, req.hostName)));
      case 'env':
        return yes(args.some((name) => envIsSet(req, name)));
      case 'method':
        return yes(args.some((m) => canonicalMethod(m) === canonicalMethod(req.method)));
      case 'local':
        return yes(isLocal(req.ip));
    }
    const inGroup = (name: string, dbm: boolean) => !!user && user.groups.some((g) => groupNameMatches(name, g, dbm));
    switch (leaf.provider) {
      case 'valid-user':
        return user ? 'granted' : 'denied-no-user';
      case 'user':
        return user ? yes(args.includes(user.user)) : 'denied-no-user';
      case 'group':
      case 'dbm-group':
        return user ? yes(args.some((g) => inGroup(g, leaf.provider === 'dbm-group'))) : 'denied-no-user';
      case 'file-owner':
        return user ? yes(!!req.file && req.file.owner === user.user) : 'denied-no-user';
      case 'file-group':
      case 'dbm-file-group':
        return user ? yes(!!req.file && inGroup(req.file.group, leaf.provider === 'dbm-file-group')) : 'denied-no-user';
    }
    throw new Error(`Require ${leaf.provider}: provider not supported by the model`);
  };
}

/**
 * 2.4's answer to a request: no tree means no authz_core section (granted, or
 * 500 AH01627 when AuthType is set). Throws for providers the model lacks (`expr`, `ldap-*` …).
 */
export function evaluate24(tree: RequireNode | null, authType: string | null, req: Request): Outcome {
  if (!tree) return authType ? 500 : 200;
  const root = asRootSection(tree);
  const run = (withUser: boolean) => applyAuthzSections(root, req.method, 'and', requestOracle(req, withUser));
  return outcome24(run(false), authType, req.credentials, () => run(true));
}

export { checkRequireTree } from './check-require-tree';
