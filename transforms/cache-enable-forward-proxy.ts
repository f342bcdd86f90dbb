// Upgrade note "Misc changes / mod_cache": the second parameter to CacheEnable only matches forward
// proxy content if it begins with the correct protocol. In 2.2 and earlier, a parameter of '/'
// matched all content.
// 2.4 (cache_util.c, uri_meets_conditions): a URL without a scheme matches only local and
// reverse-proxied requests. So on a forward proxy (ProxyRequests On), 2.2's `CacheEnable TYPE /`
// also cached forward-proxied content; 2.4 needs a URL with a scheme for it. Measured on 2.4.71: the
// documented `http://` matches only port 80 (a missing port means the scheme's default), while
// 2.2's `/` matched every port; `http://*:` (any host, empty port = any port) does. For `/` the
// added line caches what 2.2 cached over http (__tests__/httpd-changed-defaults.test.ts); a
// longer path (`/docs`) matched that path on every proxied host in 2.2, which 2.4 can only express
// per host: reported for a human.
import { Directive, Node, Section, ancestors, directives, insertAfter } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

const DIR_SECTIONS = ['Directory', 'DirectoryMatch', 'Location', 'LocationMatch', 'Files', 'FilesMatch', 'If', 'ElseIf', 'Else', 'Proxy', 'ProxyMatch'];

/** The <VirtualHost> a node belongs to (null: server level); undefined inside a directory section. */
function scopeOf(node: Node): Section | null | undefined {
  const up = ancestors(node);
  if (up.some((s) => s.is(...DIR_SECTIONS))) return undefined;
  return up.find((s) => s.is('VirtualHost')) ?? null;
}

export const cacheEnableForwardProxy: Transform = {
  id: 'cache-enable-forward-proxy',
  title: 'Add `CacheEnable TYPE http://*:` where `CacheEnable TYPE /` cached forward-proxy content',
  row: "mod_cache: the second parameter to CacheEnable only matches forward proxy content if it begins with the correct protocol; in 2.2 '/' matched all content",
  order: 605,
  restores22Meaning: true,
  triggers: { directives: ['CacheEnable'] },
  applyServer(server, ctx) {
    // ProxyRequests per scope (null = server level); the last line wins
    const proxyRequests = new Map<Section | null, boolean>();
    const enables: { file: (typeof server.files)[number]; d: Directive; scope: Section | null }[] = [];
    for (const file of server.files) {
      for (const d of directives(file.tree, 'ProxyRequests', 'CacheEnable')) {
        if (isTwoTwoOnly(d)) continue;
        const scope = scopeOf(d);
        if (scope === undefined) continue;
        if (d.is('ProxyRequests')) proxyRequests.set(scope, (d.values[0] ?? '').toLowerCase() === 'on');
        else enables.push({ file, d, scope });
      }
    }
    const forward = (scope: Section | null): boolean =>
      scope === null
        ? [...proxyRequests.values()].some((on) => on) // vhosts inherit server-level CacheEnable lines
        : (proxyRequests.get(scope) ?? proxyRequests.get(null) ?? false);
    for (const { file, d, scope } of enables) {
      const [type, url] = d.values;
      if (!type || !url || !url.startsWith('/') || !forward(scope)) continue;
      if (url !== '/') {
        ctx.noteIn(
          file,
          d,
          'cache-enable-forward-proxy-path',
          `CacheEnable ${type} ${url} on a forward proxy: 2.2 also cached forward-proxied URLs whose path starts with ${url} on any host; ` +
            `2.4 matches a URL without a scheme only for local and reverse-proxied content. Add "CacheEnable ${type} http://HOST${url}" ` +
            `for each proxied host whose content should be cached`,
          'manual',
        );
        continue;
      }
      const siblings = d.parent ? d.parent.body : [];
      const done = siblings.some(
        (n) => n.kind === 'directive' && n.is('CacheEnable') && (n.values[0] ?? '').toLowerCase() === type.toLowerCase() && /^http:\/\/\*?:?\/?$/i.test(n.values[1] ?? ''),
      );
      if (done) continue;
      insertAfter(d, [`CacheEnable ${type} http://*:`]);
      ctx.noteIn(
        file,
        d,
        'cache-enable-forward-proxy-added',
        `added "CacheEnable ${type} http://*:": in 2.4 "/" matches only local and reverse-proxied content, so this forward proxy ` +
          `would stop caching what it fetches over http. "http://*:" means any host and any port, as 2.2's "/" did ("http://" alone ` +
          `matches port 80 only); ftp:// and https:// URLs need their own CacheEnable line if they were cached`,
        'info',
      );
    }
  },
};
