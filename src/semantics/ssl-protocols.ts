/**
 * mod_ssl's protocol lists (SSLProtocol, SSLProxyProtocol) as 2.2 and 2.4 read them: left to right,
 * `+x` adds, `-x` removes, a word without a sign replaces what came before (2.4 warns AH02532), and
 * `all` stands for every protocol the version knows. Used by ssl-drop-sslv2 and ssl-drop-sslv3.
 */
export type Proto = 'sslv2' | 'sslv3' | 'tlsv1' | 'tlsv1.1' | 'tlsv1.2' | 'tlsv1.3';

/** 2.2's `all` (2.2.23 and later, with TLSv1.1/1.2). */
export const ALL_22: readonly Proto[] = ['sslv2', 'sslv3', 'tlsv1', 'tlsv1.1', 'tlsv1.2'];

export const SPELLING: Record<Proto, string> = { sslv2: 'SSLv2', sslv3: 'SSLv3', tlsv1: 'TLSv1', 'tlsv1.1': 'TLSv1.1', 'tlsv1.2': 'TLSv1.2', 'tlsv1.3': 'TLSv1.3' };

/** Protocol words (without sign, lower case) the lists may hold. */
export const KNOWN_PROTOCOL_WORDS: ReadonlySet<string> = new Set<string>(['all', ...ALL_22, 'tlsv1.3']);

/** The protocols a list selects, `all` standing for the protocols given as `all`. */
export function evaluateProtocols(words: readonly string[], all: readonly Proto[]): Set<Proto> {
  let set = new Set<Proto>();
  for (const word of words) {
    const sign = word[0] === '+' || word[0] === '-' ? word[0] : '';
    const name = word.slice(sign.length).toLowerCase();
    const protos: Proto[] = name === 'all' ? [...all] : [name as Proto];
    if (sign === '+') protos.forEach((p) => set.add(p));
    else if (sign === '-') protos.forEach((p) => set.delete(p));
    else set = new Set(protos);
  }
  return set;
}
