// Upgrade notes "Misc: Options" / mod_include: Includes vs IncludesNOEXEC.
//
// Suspected change: "`Options +Includes` below a directory with IncludesNOEXEC stayed no-exec in
// 2.2 but allows #exec in 2.4". The 2.2 sources say otherwise (server/core.c set_options and
// merge_core_dir_configs, include/http_core.h):
// - httpd 2.2.0–2.2.11 (and 2.0): bits OPT_INCLUDES and OPT_INCNOEXEC; Includes = INCLUDES,
//   IncludesNOEXEC = INCLUDES|INCNOEXEC. set_options never clears INCNOEXEC on `+Includes`, but the
//   merge does: `if ((base->opts & OPT_INCNOEXEC) && (new->opts & OPT_INCLUDES))` it clears
//   INCNOEXEC. So `+Includes` below IncludesNOEXEC allowed #exec there too.
// - httpd 2.2.12 and later (CVE-2009-1195 fix; also backported by distributions) and 2.4: bits
//   OPT_INCLUDES and OPT_INC_WITH_EXEC; Includes = INCLUDES|INC_WITH_EXEC, IncludesNOEXEC =
//   INCLUDES; the merge clears INC_WITH_EXEC when the base had Includes and the child adds only
//   IncludesNOEXEC. 2.4.71 keeps that code (checked on a started server in
//   __tests__/httpd-options-bom.test.ts), so `+Includes` means the same in every 2.2 and in 2.4,
//   and rewriting it to +IncludesNOEXEC would take #exec away from pages that had it.
// What does change with the release a server ran: a line that names both Includes and
// IncludesNOEXEC (`Options Includes IncludesNOEXEC`, `Options All IncludesNOEXEC`): up to 2.2.11
// IncludesNOEXEC's extra bit won (no #exec); since 2.2.12, and in 2.4, Includes' bit wins (#exec).
// Such a line is left alone (2.4 keeps the meaning of current 2.2) and reported for review.
import { Directive, directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { accepted24, chainSsi } from '../src/semantics/options22';
import { Transform } from './types';

/** Parents a line may have: what it inherits decides the outcome of a +/- line. */
const PARENTS: readonly (readonly string[])[] = [['None'], ['IncludesNOEXEC'], ['Includes']];

/**
 * Whether 2.2.12+ (and 2.4) allow #exec where 2.2.0–2.2.11 did not, for this line under some
 * parent: the line's meaning depends on the 2.2 release.
 */
export function execDependsOnRelease(words: readonly string[]): boolean {
  for (const parent of PARENTS) {
    const before = chainSsi([parent, words], 'pre-2.2.12');
    const since = chainSsi([parent, words], '2.2.12+');
    if (before === null || since === null) return false;
    if (since === 'exec' && before !== 'exec') return true;
  }
  return false;
}

function describe(d: Directive): string {
  return `Options ${d.values.join(' ')}`;
}

export const optionsIncludesNoexec: Transform = {
  id: 'options-includes-noexec',
  title: 'Report Options lines whose SSI #exec depends on the 2.2 release',
  row: 'Misc: Options Includes / IncludesNOEXEC (mod_include #exec)',
  order: 515,
  triggers: { directives: ['Options'] },
  applyFile(tree, ctx) {
    for (const d of directives(tree, 'Options')) {
      if (isTwoTwoOnly(d)) continue;
      const words = d.values;
      if (!words.some((w) => /^[+-]?(includes|includesnoexec|all)$/i.test(w))) continue;
      // a line 2.4 refuses is options-mixed-signs' to rewrite (and report, release differences included)
      if (!accepted24(words)) continue;
      if (!execDependsOnRelease(words)) continue;
      ctx.note(
        d,
        'options-includes-exec-by-release',
        `${describe(d)} combines Includes (or All) with IncludesNOEXEC: httpd 2.2.0–2.2.11 ran SSI without #exec here, ` +
          '2.2.12 and later (and 2.4) allow #exec. Left as it is, with the meaning of 2.2.12+; if this server ran ' +
          '2.2.11 or older, keep only IncludesNOEXEC',
        'review',
      );
    }
  },
};
