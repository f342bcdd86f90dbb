// Upgrade note "Misc changes / mod_cache": CacheIgnoreURLSessionIdentifiers now does an exact match
// against the query string instead of a partial match.
// 2.4 (cache_storage.c) drops an identifier from the cache key only when it is a whole parameter
// name: `id=` at the start of the query string or after `&`, or `;id=` in the path. Older 2.2
// releases also matched it inside longer names. Which names the application really uses cannot be
// seen from the configuration, so this is a review finding with the listed values.
import { directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

export const cacheSessionIdentifiers: Transform = {
  id: 'cache-session-identifiers',
  title: 'Report CacheIgnoreURLSessionIdentifiers (exact match in 2.4)',
  row: 'mod_cache: CacheIgnoreURLSessionIdentifiers now does an exact match against the query string instead of a partial match',
  order: 600,
  triggers: { directives: ['CacheIgnoreURLSessionIdentifiers'] },
  applyFile(tree, ctx) {
    for (const d of directives(tree, 'CacheIgnoreURLSessionIdentifiers')) {
      if (isTwoTwoOnly(d)) continue;
      const ids = d.values.filter((v) => v.toLowerCase() !== 'none');
      if (ids.length === 0) continue;
      const example = ids[0];
      ctx.note(
        d,
        'cache-session-identifiers-exact',
        `CacheIgnoreURLSessionIdentifiers ${ids.join(' ')}: 2.4 removes an identifier from the cache key only when it is ` +
          `the whole parameter name ("${example}=" at the start of the query string or after "&", or ";${example}=" in the path); ` +
          `older 2.2 releases also matched it inside longer names (e.g. "x${example}=" or "${example}x="). ` +
          `List every session parameter name the application really uses, spelled exactly, or responses are cached once per session`,
        'review',
      );
    }
  },
};
