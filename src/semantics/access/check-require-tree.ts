/**
 * The errors httpd 2.4 would refuse to start with for a Require tree
 * (add_authz_provider, add_authz_section, authz_core_check_section,
 * ap_limit_section and the providers' parsers). An empty list means the tree
 * loads. Reference: docs/research/access-semantics.md §7.1 and the F* cases of
 * access-measurements.md.
 */
import { ALL_METHODS, MethodMask, RequireNode } from './types';
import { SUBNET_ERROR_TEXT, parseIpSpec } from './ip-address';
import { intersectMasks, isAllMethods, isEmptyMask, sameMask } from './method-mask';
import { RequireLeaf } from './require-tree';

/** The implicit section every Require line of a context goes into (F1: "… in <RequireAny> directive"). */
const ROOT_NAME = '<RequireAny>';

const KNOWN_PROVIDERS = new Set([
  'all',
  'env',
  'method',
  'expr',
  'ip',
  'host',
  'forward-dns',
  'local',
  'valid-user',
  'user',
  'group',
  'file-group',
  'dbm-group',
  'dbm-file-group',
  'file-owner',
  'ldap-user',
  'ldap-group',
  'ldap-dn',
  'ldap-attribute',
  'ldap-filter',
]);

type Op = 'and' | 'or';

function containerName(kind: 'all' | 'any' | 'none'): string {
  return kind === 'all' ? '<RequireAll>' : kind === 'any' ? '<RequireAny>' : '<RequireNone>';
}

function providerErrors(leaf: RequireLeaf): string[] {
  if (!KNOWN_PROVIDERS.has(leaf.provider)) return [`Unknown Authz provider: ${leaf.provider}`];
  const args = leaf.args.filter((a) => a !== '');
  if (leaf.provider === 'all') {
    const word = leaf.args.join(' ').toLowerCase();
    return word === 'granted' || word === 'denied' ? [] : ["Argument for 'Require all' must be 'granted' or 'denied'"];
  }
  if (leaf.provider === 'ip') {
    if (args.length === 0) return ["'require ip' requires an argument"];
    const errors: string[] = [];
    for (const spec of args) {
      const parsed = parseIpSpec(spec);
      if (!('error' in parsed)) continue;
      errors.push(
        parsed.error === 'not-ip'
          ? `ip address '${spec}' appears to be invalid`
          : `ip address '${spec}' appears to be invalid: ${SUBNET_ERROR_TEXT[parsed.error]}`,
      );
    }
    return errors;
  }
  return [];
}

function maskErrors(inherited: MethodMask, own: MethodMask): string[] {
  const name = own.except ? '<LimitExcept' : '<Limit';
  if (isEmptyMask(own)) return [`${name}> directive requires additional arguments`];
  if (!own.except && own.methods.includes('TRACE')) return ['TRACE cannot be controlled by <Limit>, see TraceEnable'];
  const combined = intersectMasks(inherited, own);
  if (isEmptyMask(combined)) return [`${name}> directive excludes all methods`];
  if (!isAllMethods(inherited) && sameMask(combined, inherited)) return [`${name}> directive specifies methods already excluded`];
  return [];
}

/** Children as authz_core_check_section sees them after its De Morgan step (a RequireNone inside a RequireAll is spliced in, negated). */
function hasPositiveChild(node: Exclude<RequireNode, { kind: 'require' }>): boolean {
  const op: Op = node.kind === 'all' ? 'and' : 'or';
  return node.children.some((child) => {
    if (child.kind === 'require') return !child.negate;
    if (child.kind === 'none' && op === 'and') return child.children.some((c) => c.kind === 'require' && c.negate);
    return true;
  });
}

function walk(node: RequireNode, parentOp: Op, parentName: string, inherited: MethodMask, errors: string[]): void {
  let mask = inherited;
  if (node.methods) {
    errors.push(...maskErrors(inherited, node.methods));
    mask = intersectMasks(inherited, node.methods);
  }
  if (node.kind === 'require') {
    errors.push(...providerErrors(node));
    if (node.negate && parentOp === 'or') errors.push(`negative Require directive has no effect in ${parentName} directive`);
    return;
  }
  const name = containerName(node.kind);
  if (node.children.length === 0) {
    errors.push(`${name} directive contains no authorization directives`);
    return;
  }
  if (node.kind === 'none' && parentOp === 'or') errors.push(`${name} directive has no effect in ${parentName} directive`);
  const op: Op = node.kind === 'all' ? 'and' : 'or';
  for (const child of node.children) walk(child, op, name, mask, errors);
  if (!hasPositiveChild(node)) errors.push(`AH01624: ${name} directive contains only negative authorization directives`);
}

/** The startup errors of a section holding `tree` (null: no Require at all, which loads). */
export function checkRequireTree(tree: RequireNode | null): string[] {
  if (!tree) return [];
  const errors: string[] = [];
  const top = tree.kind === 'any' && !tree.methods ? tree.children : [tree];
  if (top.length === 0) return ['<RequireAny> directive contains no authorization directives'];
  for (const child of top) walk(child, 'or', ROOT_NAME, ALL_METHODS, errors);
  const root: RequireNode = { kind: 'any', children: top };
  if (!hasPositiveChild(root) && errors.length === 0) {
    errors.push('AH01624: <Directory>, <Location>, or similar directive contains only negative authorization directives');
  }
  return errors;
}
