/**
 * The pieces of the URL-space model: URL sets against literal ports of httpd's C matchers (mod_alias's
 * alias_matches, the location walk's prefix test), the fnmatch component matcher, the regex reader, and the
 * filesystem sets' hit/within tests.
 */
import fc from 'fast-check';
import { coverOfDir, coverOfRegex, fsSetOf, hits, normalizePath, within } from '../src/semantics/url-space/fs-sets';
import { globMatch, globMatchesAllWithPrefix, globMatchesEveryName, globPrefixFeasible, hasWildcard, literalHead } from '../src/semantics/url-space/glob';
import { capturingGroups, regexShape, substitutionHead } from '../src/semantics/url-space/regex-shape';
import { collapseSlashes, contains, intersect, locationUrlSet, prefixSet, regexUrlSet, UrlSet } from '../src/semantics/url-space/url-sets';

/** mod_alias.c alias_matches, line for line: the number of URI characters matched, 0 for no match. */
function aliasMatches(uri: string, fake: string): number {
  let a = 0;
  let u = 0;
  while (a < fake.length) {
    if (fake[a] === '/') {
      if (uri[u] !== '/') return 0;
      do a++;
      while (fake[a] === '/');
      do u++;
      while (uri[u] === '/');
    } else if (uri[u++] !== fake[a++]) return 0;
  }
  if (fake[a - 1] !== '/' && u < uri.length && uri[u] !== '/') return 0;
  return u;
}

/** request.c ap_location_walk's test for a literal <Location> against the merged URI. */
function locationMatches(d: string, uri: string): boolean {
  const cached = collapseSlashes(uri);
  const len = d.length;
  return cached.startsWith(d) && !(len > 0 && d[len - 1] !== '/' && cached.length > len && cached[len] !== '/');
}

function member(set: UrlSet, url: string): boolean {
  if (set.kind === 'none') return false;
  if (set.kind === 'str') return url.startsWith(set.p);
  return url === set.p || url.startsWith(set.p + '/');
}

const segment = fc.constantFrom('a', 'b', 'ab', 'x', 'a.b', '~u', '');
const urlPath = fc.array(segment, { minLength: 0, maxLength: 4 }).map((parts) => '/' + parts.join('/'));

describe('URL sets', () => {
  it('prefixSet is alias_matches (repeated slashes, segment boundary) on merged URLs', () => {
    fc.assert(
      fc.property(urlPath, urlPath, (uri, fake) => {
        expect(member(prefixSet(fake), collapseSlashes(uri))).toBe(aliasMatches(uri, fake) > 0);
      }),
      { numRuns: 3000 },
    );
  });

  it('locationUrlSet is the location walk’s literal test; a configured // matches nothing', () => {
    fc.assert(
      fc.property(urlPath, urlPath, (uri, d) => {
        const read = locationUrlSet({ kind: 'prefix', path: d });
        expect(member(read.set, collapseSlashes(uri))).toBe(locationMatches(d, uri));
      }),
      { numRuns: 3000 },
    );
  });

  it('sets are nested or disjoint, and intersect agrees with membership', () => {
    const set = fc.oneof(urlPath.map(prefixSet), urlPath.map((p) => ({ kind: 'str', p }) as UrlSet));
    fc.assert(
      fc.property(set, set, urlPath, (a, b, u) => {
        const url = collapseSlashes(u);
        const both = intersect(a, b);
        expect(member(both, url)).toBe(member(a, url) && member(b, url));
        if (contains(a, b) && member(b, url)) expect(member(a, url)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('regexes: anchored literal prefix, exact only for open tails', () => {
    expect(regexUrlSet('^/manual(?:/(?:de|en))?(/.*)?$')).toEqual({ set: { kind: 'str', p: '/manual' }, exact: false });
    expect(regexUrlSet('^/am/(.*)$')).toEqual({ set: { kind: 'str', p: '/am/' }, exact: true });
    expect(regexUrlSet('^/a(/.*)?$')).toEqual({ set: { kind: 'seg', p: '/a' }, exact: true });
    expect(regexUrlSet('\\.php$')).toEqual({ set: { kind: 'str', p: '/' }, exact: false });
    expect(regexUrlSet('^/(a|b)')).toEqual({ set: { kind: 'str', p: '/' }, exact: false });
    expect(regexUrlSet('^/a|^/b')).toEqual({ set: { kind: 'str', p: '/' }, exact: false });
    expect(regexUrlSet('(?i)^/App')).toEqual({ set: { kind: 'str', p: '/' }, exact: false });
    expect(regexUrlSet('^/ab?c')).toEqual({ set: { kind: 'str', p: '/a' }, exact: false });
    expect(regexUrlSet('^/a\\.b/x+')).toEqual({ set: { kind: 'str', p: '/a.b/x' }, exact: false });
    expect(regexUrlSet('^//a')).toEqual({ set: { kind: 'str', p: '/a' }, exact: true });
  });
});

describe('regex reading', () => {
  it('reads the literal, the tail, `$`', () => {
    expect(regexShape('^/a/b(.*)$')).toMatchObject({ anchored: true, literal: '/a/b', tail: 'any', dollar: true });
    expect(regexShape('^/a\\d')).toMatchObject({ anchored: true, literal: '/a', tail: 'other' });
    expect(regexShape('[$]^/x')).toMatchObject({ anchored: false, dollar: false });
  });

  it('capturing groups and substitutions', () => {
    expect(capturingGroups('^/m(?:/(?:de|en))?(/.*)?$')).toEqual(['/.*']);
    expect(capturingGroups('^/(?<name>a)(b)')).toEqual(['a', 'b']);
    expect(substitutionHead('/srv/x$1/y')).toEqual({ literal: '/srv/x', ref: 1, rest: '/y' });
    expect(substitutionHead('/srv/\\$1&')).toEqual({ literal: '/srv/$1', ref: 0, rest: '' });
    expect(substitutionHead('/srv/x')).toEqual({ literal: '/srv/x', ref: null, rest: '' });
  });
});

describe('fnmatch per component', () => {
  it('wildcards as apr_fnmatch_test sees them', () => {
    expect(['*', 'a?', '[ab]x', 'a\\*', '[x', 'plain'].map(hasWildcard)).toEqual([true, true, true, false, false, false]);
    expect(literalHead('/home/*/www')).toBe('/home/');
  });

  it('matches like a regex translation of the glob', () => {
    const toRegex = (g: string) => new RegExp('^' + g.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]') + '$');
    const glob = fc.array(fc.constantFrom('a', 'b', '*', '?', '.'), { minLength: 1, maxLength: 5 }).map((c) => c.join(''));
    const name = fc.array(fc.constantFrom('a', 'b', '.'), { minLength: 1, maxLength: 5 }).map((c) => c.join(''));
    fc.assert(
      fc.property(glob, name, (g, n) => {
        expect(globMatch(g, n)).toBe(toRegex(g).test(n));
        if (globMatch(g, n)) expect(globPrefixFeasible(g, n.slice(0, 2))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('classes, prefixes and every-name patterns', () => {
    expect(globMatch('[a-c]ata', 'data')).toBe(false);
    expect(globMatch('[!a-c]ata', 'data')).toBe(true);
    expect(globMatchesAllWithPrefix('pub*', 'public')).toBe(true);
    expect(globMatchesAllWithPrefix('pub*x', 'public')).toBe(false);
    expect(globMatchesEveryName('*')).toBe(true);
    expect(globMatchesEveryName('?*')).toBe(true);
    expect(globMatchesEveryName('a*')).toBe(false);
  });
});

describe('filesystem sets', () => {
  it('normalises like apr_filepath_merge', () => {
    expect(normalizePath('/a//b/./c/../d/')).toEqual(['a', 'b', 'd']);
    expect(normalizePath('relative')).toBeNull();
    expect(fsSetOf('/srv/x/', 'str')).toEqual({ parts: [{ lit: 'srv' }, { lit: 'x' }], tail: 'seg', known: 2 });
    expect(fsSetOf('/srv/x', 'str')).toEqual({ parts: [{ lit: 'srv' }, { lit: 'x' }], tail: 'str', known: 1 });
  });

  it('a directory covers its path and below; a str set reaches names that start alike', () => {
    const seg = fsSetOf('/srv/www/a', 'seg')!;
    expect(hits(seg, [], coverOfDir('/srv/www')).value).toBe(true);
    expect(within(seg, coverOfDir('/srv/www')).value).toBe(true);
    expect(hits(seg, [], coverOfDir('/srv/www/a/b')).value).toBe(true);
    expect(within(seg, coverOfDir('/srv/www/a/b')).value).toBe(false);
    expect(hits(seg, [], coverOfDir('/srv/www/ab')).value).toBe(false);
    const str = fsSetOf('/srv/www/a', 'str')!;
    expect(hits(str, [], coverOfDir('/srv/www/ab')).value).toBe(true);
    expect(within(str, coverOfDir('/srv/www/a')).value).toBe(false);
    expect(within(str, coverOfDir('/srv/www/a*')).value).toBe(false);
    expect(within(fsSetOf('/srv/www/a/x', 'seg', 3)!, coverOfDir('/srv/www/a*'))).toEqual({ value: true, approx: false });
  });

  it('excluded sub-sets take a directory out; a user component is any name', () => {
    const all = fsSetOf('/srv/www', 'seg')!;
    expect(hits(all, [fsSetOf('/srv/www/up', 'seg')!], coverOfDir('/srv/www/up/x')).value).toBe(false);
    expect(hits(all, [fsSetOf('/srv/www/up', 'seg')!], coverOfDir('/srv/www')).value).toBe(true);
    const users = { parts: [{ lit: 'home' }, { any: true as const }, { lit: 'www' }], tail: 'seg' as const, known: 1 };
    // a user's directory may not exist, and the walk stops there: a wildcard <Directory> is not surely merged
    expect(within(users, coverOfDir('/home/*/www'))).toEqual({ value: false, approx: true });
    expect(hits(users, [], coverOfDir('/home/*/www')).value).toBe(true);
    expect(within(fsSetOf('/home/bob/www/x', 'seg', 3)!, coverOfDir('/home/*/www'))).toEqual({ value: true, approx: false });
    expect(within(fsSetOf('/home/bob/www/x', 'seg', 1)!, coverOfDir('/home/*/www'))).toEqual({ value: false, approx: true });
    expect(within(fsSetOf('/home/bob/www/x', 'seg', 1)!, coverOfDir('/home/bob/www'))).toEqual({ value: true, approx: false });
    expect(hits(users, [], coverOfDir('/home/bob')).value).toBe(true);
    expect(within(users, coverOfDir('/home/bob'))).toEqual({ value: false, approx: false });
    expect(hits(users, [], coverOfDir('/home/*/private')).value).toBe(false);
  });

  it('<DirectoryMatch>: the literal prefix decides never; an open tail ending in / decides always', () => {
    const set = fsSetOf('/srv/data/x', 'seg')!;
    expect(hits(set, [], coverOfRegex('^/srv/other'))).toEqual({ value: false, approx: false });
    expect(within(set, coverOfRegex('^/srv/data/'))).toEqual({ value: true, approx: false });
    expect(within(fsSetOf('/srv/data/x', 'seg', 2)!, coverOfRegex('^/srv/data/'))).toEqual({ value: true, approx: false });
    expect(within(fsSetOf('/srv/data/x', 'seg', 1)!, coverOfRegex('^/srv/data/'))).toEqual({ value: false, approx: true });
    expect(within(fsSetOf('/srv/data', 'seg', 2)!, coverOfRegex('^/srv/data/'))).toEqual({ value: false, approx: true });
    expect(within(set, coverOfRegex('^/srv/data/.*$'))).toEqual({ value: false, approx: true });
    expect(hits(set, [], coverOfRegex('x$'))).toEqual({ value: true, approx: true });
  });
});
