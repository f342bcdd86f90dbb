/**
 * Replacing absolute path prefixes inside configuration arguments: `/etc/apache2/x` in
 * `file:/etc/apache2/x`, `"|/usr/bin/rotatelogs /etc/apache2/x 86400"` or `shmcb:/etc/apache2/x(512)`.
 * A prefix is replaced only where it stands as a whole path: after the start or a separator, and
 * followed by `/`, the end or a separator; `/etc/apache2` never matches inside `/etc/apache22`.
 */

export interface PrefixMap {
  /** Absolute directory, without trailing slash; never `/`. */
  readonly from: string;
  readonly to: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** `maps` with the longest prefixes first (a deeper mapping wins), duplicates and `/` dropped. */
export function normalizePrefixMaps(maps: readonly PrefixMap[]): PrefixMap[] {
  const seen = new Set<string>();
  const out: PrefixMap[] = [];
  for (const m of maps) {
    const from = m.from.replace(/\/+$/, '');
    if (from === '' || seen.has(from)) continue;
    seen.add(from);
    out.push({ from, to: m.to.replace(/\/+$/, '') });
  }
  return out.sort((a, b) => b.from.length - a.from.length);
}

/** Replaces each whole-path occurrence of a `from` prefix by its `to`. */
export function mapPrefixes(text: string, maps: readonly PrefixMap[]): string {
  if (maps.length === 0 || !text.includes('/')) return text;
  const re = new RegExp(`(^|[\\s"'=:|>(,[])(${maps.map((m) => escape(m.from)).join('|')})(?=$|[/\\s"')>,;(\\]])`, 'g');
  return text.replace(re, (_all, before: string, from: string) => before + (maps.find((m) => m.from === from) as PrefixMap).to);
}

/** The mapped path when `p` is `from` or lies below it, else null (the first matching map wins). */
export function mapPath(p: string, maps: readonly PrefixMap[]): string | null {
  for (const m of maps) {
    if (p === m.from) return m.to;
    if (p.startsWith(m.from + '/')) return m.to + p.slice(m.from.length);
  }
  return null;
}
