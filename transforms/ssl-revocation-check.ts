// Upgrade note "mod_ssl: CRL checking needs SSLCARevocationCheck (off by default in 2.4)".
//
// Measured on httpd 2.4.71 + OpenSSL 3 with a started HTTPS server and a throw-away PKI
// (see __tests__/httpd-mutex-ssl.test.ts):
// - SSLCARevocationFile/Path without SSLCARevocationCheck: the CRL is ignored, a revoked client
//   certificate is accepted (only a startup warning, AH01902);
// - with `SSLCARevocationCheck chain` the revoked certificate is refused (AH02039 error 23), but so
//   is every client whose CA has no CRL in the configured locations (error 3, "unable to get
//   certificate CRL"), which 2.2 accepted (2.2 checked a CRL only where one was found);
// - `SSLCARevocationCheck chain no_crl_for_cert_ok` refuses the revoked certificate and accepts the
//   others, as 2.2 did. That is what is written, right after the last CRL location of the context.
// The proxy side (SSLProxyCARevocation*) gets SSLProxyCARevocationCheck in the same way.
import { Container, Directive, Node, ancestors, fileOf, insertAfter } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

const CHECK_VALUE = 'chain no_crl_for_cert_ok';

const FAMILIES = [
  { locations: ['SSLCARevocationPath', 'SSLCARevocationFile'], check: 'SSLCARevocationCheck', side: 'client certificates' },
  { locations: ['SSLProxyCARevocationPath', 'SSLProxyCARevocationFile'], check: 'SSLProxyCARevocationCheck', side: 'backend certificates' },
];

/** Sections that only select whether their content applies: their lines belong to the enclosing context. */
const CONDITIONAL = new Set(['ifmodule', 'ifdefine', 'ifversion', 'ifdirective', 'iffile', 'ifsection']);

/** The per-server context of a line (the nearest <VirtualHost>, or the file), or null when it sits elsewhere. */
function contextOf(node: Node): Container | null {
  for (const s of ancestors(node)) {
    if (s.is('VirtualHost')) return s;
    if (!CONDITIONAL.has(s.name.toLowerCase())) return null;
  }
  return fileOf(node);
}

/** The family's location and check lines by the context they apply to (module-level walk: V8 optimizes it once per run). */
function collectFamily(container: Container, family: (typeof FAMILIES)[number], byContext: Map<Container, { locations: Directive[]; checks: Directive[] }>): void {
  for (const node of container.body) {
    if (node.kind === 'section') collectFamily(node, family, byContext);
    else if (node.kind === 'directive' && !isTwoTwoOnly(node)) {
      const isLocation = node.is(...family.locations);
      if (!isLocation && !node.is(family.check)) continue;
      const context = contextOf(node);
      if (!context) continue;
      const entry = byContext.get(context) ?? { locations: [], checks: [] };
      byContext.set(context, entry);
      (isLocation ? entry.locations : entry.checks).push(node);
    }
  }
}

export const sslRevocationCheck: Transform = {
  id: 'ssl-revocation-check',
  title: 'Add SSLCARevocationCheck where CRLs are configured',
  row: 'mod_ssl: CRL checking needs SSLCARevocationCheck (off by default in 2.4)',
  order: 460,
  triggers: { directives: FAMILIES.flatMap((f) => f.locations) },
  applyFile(tree, ctx) {
    if (ctx.file?.role === 'htaccess') return;
    for (const family of FAMILIES) {
      const byContext = new Map<Container, { locations: Directive[]; checks: Directive[] }>();
      collectFamily(tree, family, byContext);
      for (const { locations, checks } of byContext.values()) {
        if (locations.length === 0 || checks.length > 0) continue;
        const last = locations[locations.length - 1];
        insertAfter(last, [`${family.check} ${CHECK_VALUE}`]);
        ctx.note(
          last,
          'revocation-check-added',
          `${family.check} ${CHECK_VALUE} added: 2.4 ignores ${locations.map((l) => l.name).join('/')} without it and accepts revoked ${family.side}. ` +
            `"chain" checks every certificate of the chain as 2.2 did; "no_crl_for_cert_ok" keeps 2.2's acceptance of certificates whose CA has no CRL here ` +
            `(drop it to refuse those, as plain "chain" does on 2.4)`,
          'info',
        );
      }
    }
  },
};
