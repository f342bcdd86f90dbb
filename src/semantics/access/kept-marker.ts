/**
 * The comment a run writes into each scope it keeps on mod_access_compat (access-kept), and how a
 * later run recognizes it. A kept scope sits among migrated ones, and a later run reads that mixed
 * config by the boundary rule (the nearer section replaces the inherited rules), which is not the
 * 2.2 inheritance the first run could not carry: without the mark it would migrate the scope in a
 * second step, and drop the findings that asked a human to look. With it, the scope stays kept and
 * reported until a human rewrites it (and deletes the comment).
 */
import { Container, Node } from '../../cst';

export const KEPT_MARKER = '# httpd-codemod kept these access rules on mod_access_compat (access-kept): rewrite them as Require by hand, then delete this comment';

const MARKER = /^\s*httpd-codemod kept these access rules\b/;

export function isKeptMarker(node: Node): boolean {
  return node.kind === 'comment' && MARKER.test(node.text);
}

/** The container holds the mark among its own lines (not in a nested section). */
export function hasKeptMarker(container: Container): boolean {
  return container.body.some(isKeptMarker);
}
