// Upgrade note "mod_ssl: SSLv2 support is removed".
//
// Measured on httpd 2.4.71 + OpenSSL 3 (see __tests__/httpd-mutex-ssl.test.ts):
// - SSLProtocol / SSLProxyProtocol with `SSLv2` or `+SSLv2` anywhere: `apache2 -t` fails
//   ("SSLProtocol: SSLv2 is no longer supported"); `-SSLv2` is accepted and means nothing, because
//   2.4's `all` never includes SSLv2. Every SSLv2 word is removed, so `all -SSLv2` becomes `all`.
// - Protocol lists read left to right: a word without +/- replaces what was set before (2.2 did
//   the same; 2.4 warns AH02532). So `TLSv1 SSLv2` meant "SSLv2 only" on 2.2 and nothing of it
//   is left: such lines stay as they are and get a `manual` finding, as does any line whose meaning
//   the removal would change.
// - SSLCipherSuite / SSLProxyCipherSuite: OpenSSL 3 has no `SSLv2` cipher alias, so `SSLv2`,
//   `+SSLv2`, `-SSLv2`, `!SSLv2` select nothing and `apache2 -t` accepts them; a suite that
//   selects nothing else fails only when the server starts (AH01898 "no cipher match"). The words
//   are removed (`openssl ciphers` gives the same list before and after); a suite with no
//   selecting word left is not touched and gets a `manual` finding.
import { Directive, directives } from '../src/cst';
import { ALL_22, KNOWN_PROTOCOL_WORDS, Proto, SPELLING, evaluateProtocols } from '../src/semantics/ssl-protocols';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform, TransformContext } from './types';

const ALL_24: readonly Proto[] = ['sslv3', 'tlsv1', 'tlsv1.1', 'tlsv1.2', 'tlsv1.3'];

const isV2 = (value: string) => /^[+-]?sslv2$/i.test(value);

/** What 2.4 can negotiate of a set, TLSv1.3 aside (2.2 had no TLSv1.3; 2.4's `all` adds it). */
function comparable(set: Set<Proto>): string {
  return [...set].filter((p) => p !== 'sslv2' && p !== 'tlsv1.3').sort().join(' ');
}

function fixProtocol(d: Directive, ctx: TransformContext): void {
  const words = d.values;
  if (!words.some(isV2)) return;
  const was = `${d.name} ${words.join(' ')}`;
  if (words.some((w) => !KNOWN_PROTOCOL_WORDS.has(w.replace(/^[+-]/, '').toLowerCase()))) {
    ctx.note(d, 'sslv2-protocol-manual', `${was}: SSLv2 is not supported by 2.4, and the line holds a protocol name the tool does not know; remove SSLv2 by hand`, 'manual');
    return;
  }
  const before = evaluateProtocols(words, ALL_22);
  const wanted = new Set([...before].filter((p) => p !== 'sslv2'));
  const kept = words.filter((w) => !isV2(w));
  const now = evaluateProtocols(kept, ALL_24);
  const usable = [...wanted].filter((p) => p !== 'sslv3');
  if (usable.length === 0 || kept.length === 0) {
    ctx.note(
      d,
      'sslv2-protocol-manual',
      `${was}: on 2.2 this allowed ${before.size === 0 ? 'no protocol' : [...before].map((p) => SPELLING[p]).join(' ')} (a word without +/- replaces the words before it); ` +
        '2.4 has no SSLv2 (and its OpenSSL 3 no SSLv3), so no protocol would be left. ' +
        'Choose the protocols by hand (e.g. "all")' + (words.some((w) => /^\+?sslv2$/i.test(w)) ? '; httpd 2.4 refuses the line as it is' : ''),
      'manual',
    );
    return;
  }
  if (comparable(wanted) !== comparable(now)) {
    ctx.note(d, 'sslv2-protocol-manual', `${was}: removing SSLv2 would change which other protocols are allowed; rewrite the line by hand without SSLv2`, 'manual');
    return;
  }
  d.removeArgs(d.args.filter((w) => isV2(w.value)));
  ctx.note(d, 'sslv2-protocol-removed', `${was} → ${d.name} ${kept.join(' ')}: 2.4 has no SSLv2 ("all" no longer includes it)`, 'info');
  // SSLv3 left on the line is ssl-drop-sslv3's (order 472), which runs next
}

function fixCiphers(d: Directive, ctx: TransformContext): void {
  const args = d.args;
  const word = args[args.length - 1];
  if (!word || args.length > 2) return;
  const parts = word.value.split(/([:, ]+)/);
  const tokens = parts.filter((_, i) => i % 2 === 0);
  if (!tokens.some(isCipherV2)) return;
  const was = `${d.name} ${d.values.join(' ')}`;
  const kept = tokens.filter((t) => t !== '' && !isCipherV2(t));
  if (!kept.some((t) => !/^[!+-]/.test(t) && !t.startsWith('@'))) {
    ctx.note(
      d,
      'sslv2-ciphers-manual',
      `${was}: without its SSLv2 words this cipher suite selects no cipher, and OpenSSL 3 knows no SSLv2 ciphers: 2.4 would refuse to start (AH01898 "no cipher match"). Choose a cipher suite by hand (e.g. HIGH:!aNULL)`,
      'manual',
    );
    return;
  }
  // rebuild the string without the SSLv2 words and the separator before each (after it, at the start)
  let out = '';
  let pendingSep = '';
  let first = true;
  for (let i = 0; i < parts.length; i += 2) {
    const token = parts[i];
    const sepAfter = parts[i + 1] ?? '';
    if (token !== '' && isCipherV2(token)) {
      pendingSep = first ? '' : pendingSep;
      continue;
    }
    out += (first ? '' : pendingSep) + token;
    first = false;
    pendingSep = sepAfter;
  }
  const bare = word.quote === '' && word.raw === word.value && !/\s/.test(out);
  const quoted = word.quote !== '' && word.raw === word.quote + word.value + word.quote && !out.includes(word.quote);
  if (bare || quoted) d.raw = d.raw.slice(0, word.start) + word.quote + out + word.quote + d.raw.slice(word.end);
  else d.setArgs([...d.values.slice(0, -1), out]);
  ctx.note(d, 'sslv2-ciphers-removed', `${was} → ${d.name} ${d.values.join(' ')}: OpenSSL 3 has no SSLv2 ciphers; the SSLv2 words selected nothing`, 'info');
}

function isCipherV2(token: string): boolean {
  return /^[!+-]?sslv2$/i.test(token);
}

export const sslDropSslv2: Transform = {
  id: 'ssl-drop-sslv2',
  title: 'Remove SSLv2 from SSLProtocol and SSLCipherSuite',
  row: 'mod_ssl: SSLv2 support is removed',
  order: 470,
  triggers: { directives: ['SSLProtocol', 'SSLProxyProtocol', 'SSLCipherSuite', 'SSLProxyCipherSuite'] },
  applyFile(tree, ctx) {
    for (const d of [...directives(tree, 'SSLProtocol', 'SSLProxyProtocol', 'SSLCipherSuite', 'SSLProxyCipherSuite')]) {
      if (isTwoTwoOnly(d)) continue;
      if (d.is('SSLProtocol', 'SSLProxyProtocol')) fixProtocol(d, ctx);
      else fixCiphers(d, ctx);
    }
  },
};
