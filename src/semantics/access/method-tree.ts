/**
 * One method's 2.2 behaviour as a Require tree without `<Limit>` (§1.1):
 * Satisfy All = host rules AND Require; Satisfy Any = host rules OR Require;
 * no applicable Require = host rules alone.
 */
import { Effective22, RequireNode } from './types';
import { requireLinesFor, satisfyFor } from './eval22';
import { hostTreeFor } from './host-tree';
import { authTreeFor } from './auth-tree';
import { allOf, anyOf, isDenied, isGranted } from './require-tree';

export type MethodTree = { readonly tree: RequireNode; readonly notes: string[] } | { readonly unsupported: string };

export function compileMethod(eff: Effective22, method: string): MethodTree {
  const host = hostTreeFor(eff.host, method);
  const lines = requireLinesFor(eff, method);
  if (lines.length === 0) return host;
  const satisfy = satisfyFor(eff.satisfy, method);
  // Satisfy All with everyone refused by host rules, or Satisfy Any with everyone let in: Require is never consulted.
  const authReached = satisfy === 'all' ? !isDenied(host.tree) : !isGranted(host.tree);
  if (!authReached) return host;
  if (!eff.authType) return { unsupported: 'Require applies but no AuthType is set: 2.2 answers 500 "AuthType not set!"' };
  const auth = authTreeFor(lines, eff);
  if ('unsupported' in auth) return auth;
  const tree = satisfy === 'all' ? allOf([host.tree, auth.tree]) : anyOf([host.tree, auth.tree]);
  return { tree, notes: host.notes };
}
