// Upgrade note "Misc changes / mod_ssl": the default format of the *_DN variables has changed. The old
// format can still be used with the new LegacyDNStringFormat argument to SSLOptions.
// Measured on 2.4.71 (client certificate /C=DE/O=Snake Oil, Ltd./OU=Staff/CN=Foo Bar):
// SSL_CLIENT_S_DN is now "CN=Foo Bar,OU=Staff,O=Snake Oil\, Ltd.,C=DE" (RFC 2253), so an
// `SSLRequire %{SSL_CLIENT_S_DN} eq "/C=DE/…"` that passed on 2.2 answers 403; with
// `SSLOptions +LegacyDNStringFormat` in the same section it passes again. FakeBasicAuth user names
// are NOT affected: 2.4.71 still builds them in the old "/C=…/CN=…" form, with or without the option.
// LegacyDNStringFormat changes nothing but the DN strings, so it is added where a directive uses a
// whole DN (SSL_{CLIENT,SERVER}_{S,I}_DN; the _CN/_O… parts keep their format) and where StdEnvVars
// exports client DNs to applications.
import { ConfigFile, Container, Directive, Section, directives, insertBefore, sections } from '../src/cst';
import { appliesOn24, isTwoTwoOnly } from '../src/semantics/version-guards';
import { SourceFile } from '../src/server/types';
import { Transform } from './types';

const DN_VARIABLE = /\bSSL_(CLIENT|SERVER)_[SI]_DN\b/i;

/** Whether a raw text may match DN_VARIABLE: it holds `_DN` (any case). One indexOf per underscore, cheaper than the regex on every line. */
function mayNameDn(raw: string): boolean {
  for (let i = raw.indexOf('_'); i !== -1; i = raw.indexOf('_', i + 1)) {
    // `| 32` folds ASCII case: only D/d give 100, only N/n give 110
    if ((raw.charCodeAt(i + 1) | 32) === 100 && (raw.charCodeAt(i + 2) | 32) === 110) return true;
  }
  return false;
}

function legacyWord(d: Directive): boolean {
  return d.values.some((v) => /^\+?LegacyDNStringFormat$/i.test(v));
}

function signed(d: Directive): boolean {
  return d.values.length > 0 && d.values.every((v) => v.startsWith('+') || v.startsWith('-'));
}

/** The container whose settings apply where `node` is evaluated (an <If> test runs in its parent's). */
function containerOf(node: Directive | Section): Container | null {
  return node.kind === 'section' ? node.parent : node.parent;
}

// module-level helpers (not closures per file): V8 optimizes them once per run
function addUse(uses: Map<Container, (Directive | Section)[]>, c: Container | null, n: Directive | Section): void {
  if (!c) return;
  const list = uses.get(c);
  if (list) list.push(n);
  else uses.set(c, [n]);
}

function verifiesClients(d: Directive): boolean {
  return !isTwoTwoOnly(d) && (d.values[0] ?? '').toLowerCase() !== 'none';
}

function asksClientCerts(f: SourceFile): boolean {
  return directives(f.tree, 'SSLVerifyClient').some(verifiesClients);
}

function isSslLine(d: Directive): boolean {
  return (/^SSL/i.test(d.name) || (d.is('LoadModule') && d.values[0] === 'ssl_module')) && !isTwoTwoOnly(d);
}

function usesSsl(f: SourceFile): boolean {
  return directives(f.tree).some(isSslLine);
}

export const sslLegacyDnFormat: Transform = {
  id: 'ssl-legacy-dn-format',
  title: 'Keep 2.2 DN strings where they are used (SSLOptions +LegacyDNStringFormat)',
  row: 'mod_ssl: the default format of the *_DN variables has changed (RFC 2253); SSLOptions +LegacyDNStringFormat keeps the old one',
  order: 625,
  applyServer(server, ctx) {
    // read once, when first needed: this transform's own edits cannot change either answer (it writes SSLOptions
    // only where mod_ssl directives are already in use, and never touches SSLVerifyClient)
    let clientCertsRead: boolean | undefined;
    const clientCerts = (): boolean => (clientCertsRead ??= server.files.some(asksClientCerts));
    // SSLOptions needs mod_ssl: only added where the server already uses mod_ssl directives
    let sslInUseRead: boolean | undefined;
    const sslInUse = (): boolean => (sslInUseRead ??= server.files.some(usesSsl));
    for (const file of server.files) {
      const tree: ConfigFile = file.tree;
      // uses of whole DN strings, by the container whose SSLOptions apply
      const uses = new Map<Container, (Directive | Section)[]>();
      for (const d of directives(tree)) {
        if (!mayNameDn(d.raw) || !DN_VARIABLE.test(d.raw) || d.is('SSLOptions') || isTwoTwoOnly(d)) continue;
        addUse(uses, containerOf(d), d);
      }
      for (const s of sections(tree, 'If', 'ElseIf')) {
        if (!isTwoTwoOnly(s) && DN_VARIABLE.test(s.open.raw)) addUse(uses, containerOf(s), s);
      }
      const options = directives(tree, 'SSLOptions').filter(appliesOn24);
      const exported = options.filter((d) => d.values.some((v) => /^\+?StdEnvVars$/i.test(v)));
      const handled = new Set<Container>();
      const append = (d: Directive, why: string) => {
        if (legacyWord(d)) return;
        d.setArgs([...d.values, signed(d) ? '+LegacyDNStringFormat' : 'LegacyDNStringFormat']);
        ctx.noteIn(
          file,
          d,
          'ssl-dn-legacy-format',
          `added LegacyDNStringFormat: ${why}. 2.4 writes DNs as RFC 2253 ("CN=Foo,O=Acme,C=DE" instead of "/C=DE/O=Acme/CN=Foo"). ` +
            'Remove it once the values compared or read are in the new format',
          'info',
        );
      };
      for (const [container, nodes] of uses) {
        handled.add(container);
        const own = options.filter((o) => o.parent === container);
        if (own.some(legacyWord)) continue;
        const what = `line ${nodes[0].line} uses a whole DN (${(DN_VARIABLE.exec(nodes[0].kind === 'section' ? nodes[0].open.raw : nodes[0].raw) ?? [''])[0]})`;
        if (own.length > 0) {
          append(own[own.length - 1], what);
          continue;
        }
        if (file.role === 'htaccess' || !sslInUse()) {
          ctx.noteIn(
            file,
            nodes[0],
            'ssl-dn-string-used',
            `${what}: 2.4 writes it in RFC 2253 format ("CN=Foo,O=Acme,C=DE" instead of "/C=DE/O=Acme/CN=Foo"). ` +
              (file.role === 'htaccess'
                ? 'Add "SSLOptions +LegacyDNStringFormat" for this directory (in .htaccess it needs AllowOverride Options)'
                : 'Add "SSLOptions +LegacyDNStringFormat" in this context where mod_ssl is loaded') + ', or rewrite the compared values',
            'manual',
          );
          continue;
        }
        const first = nodes[0];
        insertBefore(first, ['SSLOptions +LegacyDNStringFormat']);
        ctx.noteIn(
          file,
          first,
          'ssl-dn-legacy-format',
          `added "SSLOptions +LegacyDNStringFormat": ${what}, which 2.4 writes in RFC 2253 format ("CN=Foo,O=Acme,C=DE" instead of "/C=DE/O=Acme/CN=Foo"); ` +
            'remove it once the compared values are in the new format',
          'info',
        );
      }
      for (const d of exported) {
        if (d.parent && handled.has(d.parent)) continue;
        if (clientCerts()) {
          append(d, 'StdEnvVars exports SSL_CLIENT_S_DN and SSL_CLIENT_I_DN to applications and this server verifies client certificates');
        } else {
          ctx.noteIn(
            file,
            d,
            'ssl-dn-format-changed',
            'StdEnvVars exports SSL_SERVER_S_DN/SSL_SERVER_I_DN (and SSL_CLIENT_*_DN when clients send certificates) in RFC 2253 format in 2.4 ' +
              '("CN=Foo,O=Acme,C=DE" instead of "/C=DE/O=Acme/CN=Foo"). If applications parse them, add LegacyDNStringFormat here',
            'info',
          );
        }
      }
    }
  },
};
