/**
 * Compiles merged 2.2 access rules into the smallest 2.4 Require tree with
 * evaluate24(tree, eff.authType, req) === evaluate22(eff, req) for every
 * request (DESIGN.md "Access control is compiled, not
 * pattern-matched"). Each method class is compiled on its own
 * (method-tree.ts), identical classes are merged and the rest joined with
 * `<Limit>` masks (combine-methods.ts). Whatever cannot be reproduced exactly
 * is `unsupported`, for a human to look at.
 */
import { Effective22, RequireNode } from './types';
import { compileMethod } from './method-tree';
import { methodClassSamples, namedMethods } from './method-classes';
import { combineMethodGroups, groupMethods } from './combine-methods';
import { checkRequireTree } from './check-require-tree';
import { isGranted } from './require-tree';

export type CompileResult = { readonly tree: RequireNode | null; readonly notes: string[] } | { readonly unsupported: string };

/**
 * `methodUniverse`: method names used anywhere in the configuration (names in
 * the rules' own masks are added); every other method is compiled as one class.
 * A null tree means "no access control at all" (no host rules, Require or AuthType).
 */
export function compileEffective(eff: Effective22, methodUniverse: readonly string[]): CompileResult {
  const notes: string[] = [];
  const perMethod: { method: string; tree: RequireNode }[] = [];
  for (const method of methodClassSamples(eff, methodUniverse)) {
    const compiled = compileMethod(eff, method);
    if ('unsupported' in compiled) return { unsupported: compiled.unsupported };
    for (const note of compiled.notes) if (!notes.includes(note)) notes.push(note);
    perMethod.push({ method, tree: compiled.tree });
  }
  const groups = groupMethods(perMethod);
  if (eff.host === null && eff.requires.length === 0 && !eff.authType) return { tree: null, notes };
  if (eff.authType && eff.requires.length === 0 && groups.length === 1 && isGranted(groups[0].tree)) {
    notes.push('AuthType without Require: 2.2 ignored it; 2.4 needs a Require line (else 500 AH01627), so `Require all granted` is written');
  }
  const tree = combineMethodGroups(groups, namedMethods(eff, methodUniverse), eff.authType);
  if (!tree) return { unsupported: 'no <Limit> arrangement of the per-method rules could be shown equivalent' };
  const errors = checkRequireTree(tree);
  if (errors.length > 0) return { unsupported: `the compiled Require tree would not load: ${errors.join('; ')}` };
  return { tree, notes };
}
