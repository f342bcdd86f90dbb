// Upgrade note "Misc changes / mod_proxy_scgi": the default setting for PATH_INFO has changed from
// httpd 2.2, and some web applications will no longer operate properly with the new PATH_INFO
// setting. The previous setting can be restored by configuring the proxy-scgi-pathinfo variable.
// 2.2's scgi_canon always set PATH_INFO to the path after the backend URL; 2.4 does so only when the
// request has the variable proxy-scgi-pathinfo, which must exist before the proxy fixup runs
// (SetEnv is too late, SetEnvIf works). Measured with an SCGI backend in
// __tests__/httpd-changed-defaults.test.ts. The variable is read by mod_proxy_scgi only, so setting it
// beside each ProxyPass to scgi:// keeps 2.2's meaning; other routes to scgi:// are reported.
import { Directive, Section, ancestors, directives, insertAfter } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

const LOCATION = ['Location', 'LocationMatch'];
const LINE = 'SetEnvIf Request_URI ^ proxy-scgi-pathinfo';
/** An argument that sends requests to an SCGI backend. */
const SCGI_URL = /^(proxy:)?scgi:\/\//i;

function proxyTarget(d: Directive): string {
  const inLocation = ancestors(d).some((s: Section) => s.is(...LOCATION));
  return (inLocation ? d.values[0] : d.values[1]) ?? '';
}

const SETTERS = new Set(['setenvif', 'setenvifnocase', 'setenvifexpr', 'browsermatch', 'browsermatchnocase']);

function setsVariable(d: Directive): boolean {
  return SETTERS.has(d.lowerName) && d.values.some((v) => /^!?proxy-scgi-pathinfo(=|$)/i.test(v));
}

/**
 * Whether a line may hold an SCGI URL, from its raw text (no argument scan): a value is its raw word
 * with quotes, continuations and `\` escapes removed, so without a backslash on the line a value
 * holding `scgi://` means the raw text holds it too.
 */
function mayNameScgi(raw: string): boolean {
  return raw.indexOf('\\') !== -1 || /scgi:\/\//i.test(raw);
}

export const proxyScgiPathinfo: Transform = {
  id: 'proxy-scgi-pathinfo',
  title: 'Keep PATH_INFO for SCGI backends (proxy-scgi-pathinfo)',
  row: 'mod_proxy_scgi: the default setting for PATH_INFO has changed; the previous setting is restored by the proxy-scgi-pathinfo variable',
  order: 620,
  restores22Meaning: true,
  applyFile(tree, ctx) {
    const done = new Set<unknown>();
    // the cheap tests first: most lines are neither SetEnvIf… nor about SCGI
    for (const d of directives(tree)) {
      if (setsVariable(d) && !isTwoTwoOnly(d)) done.add(d.parent);
    }
    for (const d of directives(tree)) {
      const name = d.lowerName;
      const proxyPass = name === 'proxypass' || name === 'proxypassmatch';
      if (!proxyPass && (!mayNameScgi(d.raw) || !d.values.some((v) => SCGI_URL.test(v)))) continue;
      if (isTwoTwoOnly(d)) continue;
      if (proxyPass) {
        if (!/^scgi:\/\//i.test(proxyTarget(d))) continue;
        if (done.has(d.parent)) continue;
        done.add(d.parent);
        if (ctx.file?.role === 'htaccess') continue;
        insertAfter(d, [LINE]);
        ctx.requireModule('setenvif', 'SetEnvIf sets proxy-scgi-pathinfo', d);
        ctx.note(
          d,
          'proxy-scgi-pathinfo-set',
          `added "${LINE}": 2.4 sends no PATH_INFO to SCGI backends unless proxy-scgi-pathinfo is set; 2.2 always sent it. ` +
            'Remove the line once the application works without PATH_INFO (it can use SCRIPT_NAME and REQUEST_URI)',
          'info',
        );
      } else if (!done.has(d.parent)) {
        ctx.note(
          d,
          'proxy-scgi-pathinfo-review',
          `${d.name} routes requests to an SCGI backend: 2.4 sends no PATH_INFO unless the variable proxy-scgi-pathinfo is set ` +
            `(2.2 always sent it). If the application needs it, add "${LINE}" where these requests are handled`,
          'review',
        );
      }
    }
  },
};
