// Upgrade note "Modules: mod_socache_* — SSLSessionCache storage types are now socache providers
// (shmcb, dbm, memcache, …); the shm/shmht aliases are gone".
//
// 2.2's mod_ssl parsed the storage type itself, case-insensitively (strcEQn = strncasecmp):
// `shm:`, `shmht:` and `shmcb:` all gave the same shmcb cache (path ServerRoot-relative, size in
// parentheses, 512 KiB when absent), `dbm:path` a DBM file, `dc:` distcache, `none`, `nonenotnull`.
// Measured on httpd 2.4.71 (see __tests__/httpd-ssl-followups.test.ts): the name before the colon
// is looked up as a socache provider, case-sensitively, so `shm:`, `shmht:`, `SHMCB:`, `DBM:`
// fail `apache2 -t` ("SSLSessionCache: 'shm' session cache not supported (known names:
// default,shmcb). Maybe you need to load the appropriate socache module (mod_socache_shm?)"),
// even with mod_socache_shmcb loaded. The same holds for SSLStaplingCache. `shmcb:path(size)`,
// `dbm:path`, `none`, `nonenotnull` (any case) pass; shmcb's default size is 524288 bytes, as in
// 2.2. So:
// - `shm:` / `shmht:` / any spelling of `shmcb:` → `shmcb:`, `DBM:` → `dbm:`, path and size kept
//   byte for byte; the LoadModule planner loads mod_socache_shmcb (or _dbm) from the argument
//   (src/modules/needs.ts), and for a fragment the module is requested here;
// - `dc:` (distcache) is not rewritten: Debian's 2.4 ships no mod_socache_dc (the lookup fails
//   with "'dc' session cache not supported"); a `manual` finding says to choose shmcb or memcache.
import { Directive, directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform, TransformContext } from './types';

/** 2.2 storage type (lowercase) → the 2.4 socache provider that does the same. */
const PROVIDER: Readonly<Record<string, string>> = { shm: 'shmcb', shmht: 'shmcb', shmcb: 'shmcb', dbm: 'dbm' };

function fix(d: Directive, ctx: TransformContext): void {
  const word = d.args[0];
  if (!word || d.args.length !== 1) return;
  const colon = word.value.indexOf(':');
  // none, nonenotnull, default, a bare word or an empty location: left (2.2 refused `shm:` without a path too)
  if (colon <= 0 || colon === word.value.length - 1) return;
  const written = word.value.slice(0, colon);
  const type = written.toLowerCase();
  const was = `${d.name} ${word.value}`;
  if (type === 'dc') {
    ctx.note(
      d,
      'ssl-session-cache-distcache',
      `${was}: distcache (dc:) is provided by mod_socache_dc, which Debian's httpd 2.4 does not ship ("'dc' session cache not supported"); ` +
        'choose another cache by hand, e.g. shmcb:/path(512000) for one server or memcache:host:port for several',
      'manual',
    );
    return;
  }
  const provider = PROVIDER[type];
  if (!provider || provider === written) return;
  // the type is the first characters of the value: in the raw word after the opening quote, unless escapes or
  // a continuation sit inside it (then the whole argument is written again)
  const offset = word.start + word.quote.length;
  const raw = d.raw;
  if (raw.slice(offset, offset + written.length) === written) d.raw = raw.slice(0, offset) + provider + raw.slice(offset + written.length);
  else d.setArgs([provider + word.value.slice(colon)]);
  const module = `socache_${provider}`;
  ctx.requireModule(module, `${d.name} ${provider}: is provided by mod_${module} in 2.4`, d);
  const alias = type === provider ? `2.4 looks the cache type up case-sensitively ("'${written}' ${d.is('SSLStaplingCache') ? 'stapling' : 'session'} cache not supported")` : `2.2's "${type}:" was an alias of shmcb; 2.4 only knows the socache provider names`;
  ctx.note(d, 'ssl-session-cache-renamed', `${was} → ${d.name} ${d.values[0]}: ${alias}; path and size are unchanged`, 'info');
}

export const sslSessionCacheShm: Transform = {
  id: 'ssl-session-cache-shm',
  title: 'Rename the SSLSessionCache types 2.4 no longer knows (shm:, shmht:) to shmcb:',
  row: 'Modules: SSLSessionCache storage is provided by mod_socache_* (shm/shmht aliases removed; provider names are case-sensitive)',
  order: 475,
  triggers: { directives: ['SSLSessionCache', 'SSLStaplingCache'] },
  applyFile(tree, ctx) {
    if (ctx.file?.role === 'htaccess') return;
    for (const d of directives(tree, 'SSLSessionCache', 'SSLStaplingCache')) {
      if (isTwoTwoOnly(d)) continue;
      fix(d, ctx);
    }
  },
};
