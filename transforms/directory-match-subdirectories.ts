// Upgrade note / core docs "<DirectoryMatch>": prior to 2.3.9 this directive implicitly applied to
// sub-directories (like <Directory>) and could not match the end of line symbol ($).
// Measured on 2.4.71 (__tests__/httpd-changed-defaults.test.ts): the regex is matched against the
// full file-system path of the request (file name included), so a pattern without `$` still applies
// to everything below a matching directory, as in 2.2. What changed is `$`: 2.2 matched with
// REG_NOTEOL, so a `$` anchor never matched and such a section never applied; 2.4 applies it, but
// only to paths that end there (`^/srv/www/private$` → only the request for the directory without
// its trailing slash, not the files in it). What the author meant cannot be known: keeping 2.2's
// meaning means deleting the section, keeping the intent usually means `(/|$)` instead of `$`.
// Applies to <DirectoryMatch> and <Directory ~ …>.
import { Section, sections } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';
import { hasDollar } from '../src/semantics/url-space/regex-shape';

/** The regex of a <DirectoryMatch> or <Directory ~>, or null for a plain <Directory>. */
function regexOf(section: Section): string | null {
  if (section.is('DirectoryMatch')) return section.values[0] ?? null;
  if (section.is('Directory') && section.values[0] === '~') return section.values[1] ?? null;
  return null;
}


function suggestion(regex: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i];
    if (c === '\\') {
      out += regex.slice(i, i + 2);
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') inClass = true;
    if (c === '$') {
      // `/$` → `/` (the directory and below); `x$` → `x(/|$)`
      if (!out.endsWith('/')) out += '(/|$)';
      continue;
    }
    out += c;
  }
  return out;
}

export const directoryMatchSubdirectories: Transform = {
  id: 'directory-match-subdirectories',
  title: 'Report <DirectoryMatch> regexes with `$` (never matched in 2.2, match in 2.4)',
  row: 'Core: <DirectoryMatch> (and <Directory ~>) can match the end of the path ($) since 2.3.9; before, it implicitly applied to sub-directories and `$` never matched',
  order: 640,
  triggers: { sections: ['DirectoryMatch', 'Directory'] },
  applyFile(tree, ctx) {
    for (const s of sections(tree, 'DirectoryMatch', 'Directory')) {
      if (isTwoTwoOnly(s)) continue;
      const regex = regexOf(s);
      if (regex === null || !hasDollar(regex)) continue;
      ctx.note(
        s,
        'directory-match-end-anchor',
        `the regex "${regex}" uses "$": httpd 2.2 could never match it there, so this section never applied; ` +
          `2.4 matches the regex against the full path of each request and applies the section where the path ends there ` +
          `(the directory itself, not the files below it). Decide: delete the section (what 2.2 did), or write what was meant, ` +
          `e.g. "${suggestion(regex)}" for the directory and everything below it`,
        'manual',
      );
    }
  },
};
