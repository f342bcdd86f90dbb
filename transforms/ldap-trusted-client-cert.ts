// Upgrade note "Misc changes / mod_ldap": LDAPTrustedClientCert is now consistently a per-directory
// setting only. If you use this directive, review your configuration to make sure it is present in
// all the necessary directory contexts.
// Measured on 2.4.71: at server level `apache2 -t` fails with "LDAPTrustedClientCert not allowed
// here", in a <VirtualHost> with "LDAPTrustedClientCert not allowed in <VirtualHost> context".
// Which sections need the certificate is a human decision (the 2.2 per-server value applied to the
// server's LDAP connections), so such lines are reported, with the sections that use LDAP
// authentication in the same scope. Lines already inside a directory section are unchanged in 2.4.
import { Directive, Node, Section, ancestors, directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

const DIR_SECTIONS = ['Directory', 'DirectoryMatch', 'Location', 'LocationMatch', 'Files', 'FilesMatch', 'If', 'ElseIf', 'Else', 'Proxy', 'ProxyMatch', 'Limit', 'LimitExcept'];

function inDirSection(node: Node): boolean {
  return ancestors(node).some((s) => s.is(...DIR_SECTIONS));
}

function vhostOf(node: Node): Section | null {
  return ancestors(node).find((s) => s.is('VirtualHost')) ?? null;
}

export const ldapTrustedClientCert: Transform = {
  id: 'ldap-trusted-client-cert',
  title: 'Report server-level LDAPTrustedClientCert (per directory only in 2.4)',
  row: 'mod_ldap: LDAPTrustedClientCert is now consistently a per-directory setting only',
  order: 610,
  triggers: { directives: ['LDAPTrustedClientCert'] },
  applyFile(tree, ctx) {
    const users: Directive[] = [...directives(tree, 'AuthLDAPURL')].filter((d) => !isTwoTwoOnly(d));
    for (const d of directives(tree, 'LDAPTrustedClientCert')) {
      if (isTwoTwoOnly(d) || inDirSection(d)) continue;
      const vhost = vhostOf(d);
      const where = vhost ? `<VirtualHost ${vhost.values.join(' ')}>` : 'the server level';
      const scoped = users.filter((u) => (vhost ? vhostOf(u) === vhost : true)).map((u) => u.line);
      const target =
        scoped.length > 0
          ? `the sections using AuthLDAPURL in this scope (line${scoped.length > 1 ? 's' : ''} ${scoped.join(', ')})`
          : 'each <Directory>/<Location> that authenticates against LDAP';
      ctx.note(
        d,
        'ldap-trusted-client-cert-scope',
        `LDAPTrustedClientCert at ${where}: 2.4 allows it only inside <Directory>, <Location>, <Files> or .htaccess ` +
          `(apache2 -t fails: "LDAPTrustedClientCert not allowed ${vhost ? 'in <VirtualHost> context' : 'here'}"). ` +
          `Move this line into ${target}; a CA certificate for all connections belongs in LDAPTrustedGlobalCert`,
        'manual',
      );
    }
  },
};
