/**
 * The answers the replay compares with: 2.2's for the original config (merge22 + evaluate22;
 * for a chain that already mixes in 2.4 syntax, what 2.4 with mod_access_compat does, which is
 * what the migration keeps for such configs), and, for client addresses the replay cannot send
 * from, 2.4's for the migrated config (mergeCompat24 + evaluateCompat24). Read-only use of
 * src/semantics/access.
 */
import { compatRecordOf, evaluateCompat24, mergeCompat24, ScopeCompat24 } from '../../semantics/access/compat24';
import { evaluate22 } from '../../semantics/access/eval22';
import { merge22 } from '../../semantics/access/merge22';
import { Outcome, Request, RequireNode } from '../../semantics/access/types';
import { ChainLink } from './url-space';

export type Prediction = { readonly outcome: Outcome } | { readonly skip: string };

function usesEnvOrHost(node: RequireNode | null): string | null {
  if (!node) return null;
  if (node.kind === 'require') return node.provider === 'env' || node.provider === 'expr' ? node.provider : null;
  for (const c of node.children) {
    const found = usesEnvOrHost(c);
    if (found) return found;
  }
  return null;
}

/** Why the model cannot answer for this chain, or null. */
function unmodelled(chain: readonly ChainLink[]): string | null {
  for (const { scope } of chain) {
    if (scope.beyondModel) return scope.beyondModel;
    if (scope.read.unsupported) return `${scope.where}: ${scope.read.unsupported}`;
    if (scope.authz.unsupported) return `${scope.where}: ${scope.authz.unsupported}`;
    const host = scope.read.rules.host;
    if (host && [...host.allows, ...host.denys].some((e) => e.entry.kind === 'env')) return `${scope.where}: env= rules depend on SetEnvIf and the request's headers`;
    const provider = usesEnvOrHost(scope.authz.tree);
    if (provider) return `${scope.where}: Require ${provider} depends on the request's environment`;
  }
  return null;
}

function refused(chain: readonly ChainLink[]): boolean {
  return chain.some((l) => l.refused !== undefined);
}

function compatChain(chain: readonly ChainLink[], compatLoaded: boolean): ScopeCompat24[] {
  return chain.map(({ scope }) => ({
    record: compatLoaded ? compatRecordOf(scope.read.rules.host, scope.read.rules.satisfy) : null,
    authz: { op: scope.authz.op, tree: scope.authz.tree },
    authType: scope.read.rules.authType,
  }));
}

/** 2.2's answer for the original config. */
export function predict22(chain: readonly ChainLink[], req: Request): Prediction {
  if (refused(chain)) return { outcome: 500 };
  const why = unmodelled(chain);
  if (why) return { skip: why };
  if (chain.some(({ scope }) => scope.read.has24 || scope.authz.has24)) {
    return { outcome: evaluateCompat24(mergeCompat24(compatChain(chain, true)), req) };
  }
  return { outcome: evaluate22(merge22(chain.map(({ scope }) => scope.read.rules)), req) };
}

/** 2.4's answer for the migrated config, judged statically (mod_access_compat only where the server loads it). */
export function predict24(chain: readonly ChainLink[], req: Request, compatLoaded: boolean): Prediction {
  if (refused(chain)) return { outcome: 500 };
  const why = unmodelled(chain);
  if (why) return { skip: why };
  return { outcome: evaluateCompat24(mergeCompat24(compatChain(chain, compatLoaded)), req) };
}

/** An HTTP status as the model's classes: 401, 403 and 500 as they are, anything else means access was granted. */
export function statusClass(status: number): Outcome {
  return status === 401 || status === 403 || status === 500 ? status : 200;
}
