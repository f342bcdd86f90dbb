// Upgrade note "mod_ssl: SSLv2 support is removed" — its follow-up on httpd 2.4.71 with OpenSSL 3: SSLv3 is
// gone as well.
//
// Measured on httpd 2.4.71 + OpenSSL 3.0 (see __tests__/httpd-ssl-followups.test.ts):
// - SSLProtocol / SSLProxyProtocol with `SSLv3` or `+SSLv3` anywhere (any case): `apache2 -t` fails
//   ("SSLv3 not supported by this version of OpenSSL"). `-SSLv3` passes silently, also at start-up, and
//   `all` never includes SSLv3, so `-SSLv3` words are left as they are (`-SSLv3` alone selected no
//   protocol on 2.2 either: AH02231 "No SSL protocols available" at start-up, on both).
// - A list reads left to right: `+x` adds, `-x` removes, a bare word replaces what came before (2.2 did the
//   same; 2.4 warns AH02532). So `SSLv3 TLSv1` meant "TLSv1 only" on 2.2: its SSLv3 word was dead and is
//   removed without changing anything (info). Where SSLv3 was allowed and other protocols remain, the
//   SSLv3 words are removed (review: SSLv3-only clients can no longer connect; no OpenSSL 3 can speak
//   SSLv3). Where SSLv3 was the only protocol, or removing the words would change the other protocols,
//   the line is left and a `manual` finding says so.
// - OpenSSL 3 refuses TLSv1.0 and TLSv1.1 handshakes at its default security level (the server answers
//   "no suitable signature algorithm"; `@SECLEVEL=0` in SSLCipherSuite brings them back), so a line left
//   with only TLSv1/TLSv1.1 starts but serves nobody: its finding is at least `review` and says so.
// Lines that still name SSLv2 (+ or bare) belong to ssl-drop-sslv2, which runs first.
import { Directive, directives } from '../src/cst';
import { ALL_22, KNOWN_PROTOCOL_WORDS, Proto, SPELLING, evaluateProtocols } from '../src/semantics/ssl-protocols';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform, TransformContext } from './types';

/** 2.4.71 built against an OpenSSL without SSLv3: `all` is TLSv1 to TLSv1.3. */
const ALL_24: readonly Proto[] = ['tlsv1', 'tlsv1.1', 'tlsv1.2', 'tlsv1.3'];

const isPositiveV3 = (value: string) => /^\+?sslv3$/i.test(value);
const isPositiveV2 = (value: string) => /^\+?sslv2$/i.test(value);

/** What both versions can negotiate, TLSv1.3 aside (2.2 had none; 2.4's `all` adds it). */
function comparable(set: ReadonlySet<Proto>): string {
  return [...set].filter((p) => p !== 'sslv2' && p !== 'sslv3' && p !== 'tlsv1.3').sort().join(' ');
}

const spell = (set: ReadonlySet<Proto>) => (set.size === 0 ? 'no protocol' : ALL_22.concat('tlsv1.3').filter((p) => set.has(p)).map((p) => SPELLING[p]).join(' '));

function fixProtocol(d: Directive, ctx: TransformContext): void {
  const words = d.values;
  if (!words.some(isPositiveV3)) return;
  if (words.some(isPositiveV2)) return; // ssl-drop-sslv2's line (it reports what it cannot do)
  const was = `${d.name} ${words.join(' ')}`;
  if (words.some((w) => !KNOWN_PROTOCOL_WORDS.has(w.replace(/^[+-]/, '').toLowerCase()))) {
    ctx.note(d, 'sslv3-protocol-manual', `${was}: OpenSSL 3 has no SSLv3 and the line holds a protocol name the tool does not know; remove SSLv3 by hand`, 'manual');
    return;
  }
  const before = evaluateProtocols(words, ALL_22);
  const wanted = new Set([...before].filter((p) => p !== 'sslv2' && p !== 'sslv3'));
  if (wanted.size === 0) {
    ctx.note(
      d,
      'sslv3-protocol-manual',
      `${was}: on 2.2 this allowed ${spell(before)} (a word without +/- replaces the words before it); the OpenSSL of httpd 2.4.71 has no SSLv3, ` +
        'so no protocol would be left and 2.4 refuses the line ("SSLv3 not supported by this version of OpenSSL"). Choose the protocols by hand ' +
        '(e.g. "all"); SSLv3-only clients cannot connect to any OpenSSL 3 server',
      'manual',
    );
    return;
  }
  // first the SSLv3 words alone; then, when a bare SSLv3 reset the list, also the words it overrode
  const args = d.args;
  const lastBare = words.reduce((at, w, i) => (/^[+-]/.test(w) ? at : i), -1);
  const candidates = [args.filter((w) => isPositiveV3(w.value))];
  if (lastBare > 0 && isPositiveV3(words[lastBare])) candidates.push(args.filter((w, i) => i <= lastBare || isPositiveV3(w.value)));
  const fits = candidates.find((drop) => {
    const kept = args.filter((w) => !drop.includes(w)).map((w) => w.value);
    return kept.length > 0 && comparable(wanted) === comparable(evaluateProtocols(kept, ALL_24));
  });
  if (!fits) {
    ctx.note(d, 'sslv3-protocol-manual', `${was}: on 2.2 this allowed ${spell(before)}; removing SSLv3 would change which other protocols are allowed; rewrite the line by hand without SSLv3`, 'manual');
    return;
  }
  d.removeArgs(fits);
  const now = evaluateProtocols(d.values, ALL_24);
  const legacyOnly = [...now].every((p) => p === 'tlsv1' || p === 'tlsv1.1');
  const proxy = d.is('SSLProxyProtocol');
  const tlsNote = !legacyOnly
    ? ''
    : proxy
      ? `. What is left (${spell(now)}) is refused by OpenSSL 3 at its default security level, which allows no TLSv1.0/1.1 handshake: ` +
        'backends must speak TLSv1.2 (add "+TLSv1.2"), or lower the level with @SECLEVEL=0 in SSLProxyCipherSuite'
      : `. What is left (${spell(now)}) starts but serves no client with OpenSSL 3's default security level, which refuses TLSv1.0/1.1 handshakes ` +
        '("no suitable signature algorithm"): add TLSv1.2 (e.g. "+TLSv1.2"), or lower the level with @SECLEVEL=0 in SSLCipherSuite if such old clients must be served';
  const dead = !before.has('sslv3');
  ctx.note(
    d,
    'sslv3-protocol-removed',
    `${was} → ${d.name} ${d.values.join(' ')}: the OpenSSL of httpd 2.4.71 has no SSLv3 and 2.4 refuses the line ("SSLv3 not supported by this version of OpenSSL"). ` +
      (dead ? `SSLv3 was not allowed on 2.2 either (a word without +/- replaces the words before it): nothing changes` : (proxy ? 'Backends that speak only SSLv3 can no longer be reached' : 'Clients that speak only SSLv3 can no longer connect (no OpenSSL 3 server can serve them)')) +
      tlsNote,
    dead && !legacyOnly ? 'info' : 'review',
  );
}

export const sslDropSslv3: Transform = {
  id: 'ssl-drop-sslv3',
  title: 'Remove SSLv3 from SSLProtocol and SSLProxyProtocol',
  row: 'mod_ssl: SSLv2 support is removed — on httpd 2.4.71 (OpenSSL 3) SSLv3 is unsupported too',
  order: 472,
  runsAfter: ['ssl-drop-sslv2'],
  triggers: { directives: ['SSLProtocol', 'SSLProxyProtocol'] },
  applyFile(tree, ctx) {
    for (const d of directives(tree, 'SSLProtocol', 'SSLProxyProtocol')) {
      if (isTwoTwoOnly(d)) continue;
      fixProtocol(d, ctx);
    }
  },
};
