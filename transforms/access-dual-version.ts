// Upgrade note "Run-Time Configuration Changes / Authorization": mod_access_compat exists to run configurations
// that hold only old directives; applications ship access blocks that hold both, each branch for one release:
// `<IfModule mod_authz_core.c>` / `<IfModule !mod_authz_core.c>`, `<IfModule mod_version.c>` with `<IfVersion < 2.4>` /
// `<IfVersion >= 2.4>` and an `<IfModule !mod_version.c>` fallback (Bugzilla, OTRS, phpBB), `<IfModule mod_access.c>` /
// `<IfModule !mod_access_compat>` (Matomo).
//
// Each branch is decided for the 2.4 target (src/semantics/version-guards.ts; `<IfModule>` matches only a loaded
// module's `mod_x.c` or `x_module`, measured on 2.4.71). Where the branch 2.4 runs is 2.4 syntax, the block stays
// exactly as it is (it keeps working on 2.2), nothing is loaded for its 2.2 branches (no mod_access_compat), and an
// `info` finding says so. Where a branch 2.4 runs still holds Order/Allow/Deny/Satisfy (Matomo's
// `<IfModule !mod_access_compat>`: a bare name no module answers to, so the test is always true), access-to-require,
// which runs next, migrates it; the finding says that too.
//
// The verdicts rely on a few modules being loaded on 2.4: mod_version (`<IfVersion>` is its directive; Debian compiles
// it in), mod_authz_core, mod_authz_host. Each is asked of the module planner where a test relies on it, so the
// verdict holds: it writes a LoadModule line unless `--httpd` reports the module built in (a fragment run reports
// what the main config must load).
import { Node, Section, ancestors, sections as allSections, walk } from '../src/cst';
import { isTwoTwoOnly, ifModuleOutcome, reliesOnModule, sectionIsTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform, TransformContext } from './types';

const ACCESS_LINE = /^(order|allow|deny|satisfy|require|authmerging)$/i;
const OLD_LINE = /^(order|allow|deny|satisfy)$/i;
const REQUIRE_CONTAINER = /^require(all|any|none)$/i;

const isBranch = (n: Node): n is Section => n.kind === 'section' && (n.lowerName === 'ifmodule' || n.lowerName === 'ifversion');

function label(section: Section): string {
  return `<${section.name} ${section.values.join(' ')}>`;
}

/** An access directive, or a Require container (its contents count as one rule). */
function isAccessNode(n: Node): boolean {
  if (n.kind === 'directive') return ACCESS_LINE.test(n.name);
  return n.kind === 'section' && REQUIRE_CONTAINER.test(n.name);
}

function accessNodes(section: Section): Node[] {
  return walk(section).filter((n) => isAccessNode(n) && !ancestors(n).some((a) => a !== section && contains(section, a) && REQUIRE_CONTAINER.test(a.name)));
}

function contains(outer: Section, node: Node): boolean {
  for (let p = node.parent; p; p = p.kind === 'section' ? p.parent : null) if (p === outer) return true;
  return false;
}

const holdsAccess = (section: Section) => accessNodes(section).length > 0;

const hasContent = (section: Section) => section.body.some((n) => n.kind === 'directive' || n.kind === 'section');

function whyNever(section: Section): string {
  if (section.is('IfVersion')) return 'false on 2.4.71';
  return ifModuleOutcome(section.values).why;
}

function requestReason(section: Section, module: string): string {
  const where = `${label(section)} (line ${section.line})`;
  if (section.is('IfVersion')) return `${where} needs it: 2.4 refuses <IfVersion> without mod_${module}`;
  return ifModuleOutcome(section.values).on24
    ? `${where} must be true on 2.4, or what it holds would not apply`
    : `${where} must be false on 2.4, or its 2.2 branch would apply`;
}

/** Asks the planner for every module a decided test relies on (outside branches that never apply). */
function requestModules(sections: readonly Section[], ctx: TransformContext): void {
  for (const s of sections) {
    // the test's name first: most sections rely on no module
    const module = reliesOnModule(s);
    if (!module || isTwoTwoOnly(s) || !hasContent(s)) continue;
    ctx.requireModule(module, requestReason(s, module), s);
  }
}

/**
 * The outermost branches in `branch` (itself included) that never apply on 2.4 and hold access rules; scope
 * sections inside a branch are containers of their own (their blocks are reported there).
 */
function neverBranches(branch: Section): Section[] {
  if (sectionIsTwoTwoOnly(branch)) return holdsAccess(branch) ? [branch] : [];
  return branch.body.filter(isBranch).flatMap(neverBranches);
}

/** The branches (outermost first) a node sits in, from `top` down. */
function branchChain(node: Node, top: Section): Section[] {
  const chain = ancestors(node).filter(isBranch);
  return chain.slice(0, chain.indexOf(top) + 1).reverse();
}

const at = (s: Section) => `${label(s)} (line ${s.line})`;

/** One finding per access block: the branch sections side by side in one container, some of which never run on 2.4. */
function reportBlock(block: readonly Section[], ctx: TransformContext): void {
  const never = block.flatMap(neverBranches);
  if (never.length === 0) return;
  const runs: string[] = [];
  let oldRuns = false;
  for (const member of block) {
    for (const n of accessNodes(member)) {
      if (isTwoTwoOnly(n)) continue;
      if (n.kind === 'directive' && OLD_LINE.test(n.name)) oldRuns = true;
      const text = branchChain(n, member).map(at).join(' → ');
      if (!runs.includes(text)) runs.push(text);
    }
  }
  const ran = runs.length === 0 ? '2.4 runs none of its branches' : `2.4 runs ${runs.join(' and ')}`;
  const skipped = never.map((s) => `${at(s)}: ${whyNever(s)}`).join('; ');
  const outcome = oldRuns
    ? 'The branch 2.4 runs still holds Order/Allow/Deny/Satisfy: access-to-require migrates it (see its finding)'
    : 'Left as it is: it keeps working on 2.2, and its 2.2 branches need nothing on 2.4 (no mod_access_compat)';
  ctx.note(block[0], 'access-dual-version', `dual-version access block: ${ran}; it never runs ${skipped}. ${outcome}`, 'info');
}

export const accessDualVersion: Transform = {
  id: 'access-dual-version',
  title: 'Decide dual-version access blocks for 2.4 and leave them as they are',
  row: 'Authorization: mixing old and new directives (blocks with a 2.2 and a 2.4 branch keep working; mod_access_compat is for old-only configs)',
  order: 90,
  // it acts on <IfModule>/<IfVersion> blocks only: a file without one has nothing for it
  triggers: { sections: ['IfModule', 'IfVersion'] },
  applyFile(tree, ctx) {
    const sections = allSections(tree);
    requestModules(sections, ctx);
    // containers: the file and every section that is not itself a branch, in a part of the file 2.4 reads
    const containers = [tree, ...sections.filter((s) => !isBranch(s) && !sectionIsTwoTwoOnly(s) && !isTwoTwoOnly(s))];
    for (const c of containers) {
      let block: Section[] | null = null;
      for (const n of c.body) if (isBranch(n) && holdsAccess(n)) (block ??= []).push(n);
      if (block) reportBlock(block, ctx);
    }
  },
};
