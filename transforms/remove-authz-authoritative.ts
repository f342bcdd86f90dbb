// Upgrade note "Authorization: the Authz*Authoritative directives are removed; provider order replaces them".
//
// Measured on httpd 2.4.71 with every module loaded (`apache2 -L`, see __tests__/httpd-mutex-ssl.test.ts):
// AuthzUserAuthoritative, AuthzGroupFileAuthoritative, AuthzDBMAuthoritative, AuthzOwnerAuthoritative,
// AuthzDefaultAuthoritative and AuthzLDAPAuthoritative are `Invalid command`; the *Authoritative
// directives that remain (AuthBasicAuthoritative, AuthFormAuthoritative, AuthLDAPBindAuthoritative)
// are about authentication and stay.
// access-to-require (order 100) removes these lines from every scope it migrates, compiling their
// meaning into the Require tree. This transform removes what is left (scopes kept under
// mod_access_compat, or files the access migration did not see), because 2.4 refuses to start with them:
// - `On` was the default: removed (info), but flagged for review when the section's Require lines use
//   more than one authorization module, since 2.4 grants when any Require line matches, while on 2.2
//   an authoritative module decided alone;
// - `Off` let the next module decide: 2.4 has no such switch (its Require lines, or <RequireAny> /
//   <RequireAll>, say how providers combine), so it is removed and a human must check the rules.
import { Container, Directive, ancestors, directives, fileOf, remove } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

const MODULE_OF: Record<string, string> = {
  authzuserauthoritative: 'mod_authz_user',
  authzgroupfileauthoritative: 'mod_authz_groupfile',
  authzdbmauthoritative: 'mod_authz_dbm',
  authzownerauthoritative: 'mod_authz_owner',
  authzdefaultauthoritative: 'mod_authz_default',
  authzldapauthoritative: 'mod_authnz_ldap',
};

/** The 2.2 module that handled a Require line's first word. */
function requireModule(word: string): string {
  const w = word.toLowerCase();
  if (w === 'user' || w === 'valid-user') return 'user';
  if (w === 'group') return 'group';
  if (w === 'file-owner' || w === 'file-group') return 'owner';
  if (w.startsWith('ldap-')) return 'ldap';
  if (w.startsWith('dbm-')) return 'dbm';
  return w;
}

/** The scope a line configures: the nearest section that is not a condition or a method filter. */
function scopeOf(d: Directive): Container {
  for (const s of ancestors(d)) {
    if (!s.is('IfModule', 'IfDefine', 'IfVersion', 'Limit', 'LimitExcept')) return s;
  }
  return fileOf(d) as Container;
}

/** Kinds of Require lines set directly in a scope (through conditions and <Limit>). */
function requireKinds(scope: Container): Set<string> {
  const kinds = new Set<string>();
  const visit = (container: Container) => {
    for (const node of container.body) {
      if (node.kind === 'section' && node.is('IfModule', 'IfDefine', 'IfVersion', 'Limit', 'LimitExcept')) visit(node);
      else if (node.kind === 'directive' && node.is('Require') && !isTwoTwoOnly(node)) kinds.add(requireModule(node.values[0] ?? ''));
    }
  };
  visit(scope);
  return kinds;
}

export const removeAuthzAuthoritative: Transform = {
  id: 'remove-authz-authoritative',
  title: 'Remove the Authz*Authoritative directives left after the access migration',
  row: 'Authorization: the Authz*Authoritative directives are removed; provider order replaces them',
  order: 490,
  runsAfter: ['access-to-require'],
  triggers: { directives: Object.keys(MODULE_OF) },
  applyFile(tree, ctx) {
    for (const d of [...directives(tree, ...Object.keys(MODULE_OF))]) {
      if (isTwoTwoOnly(d)) continue;
      const module = MODULE_OF[d.name.toLowerCase()];
      const off = (d.values[0] ?? '').toLowerCase() === 'off';
      const kinds = [...requireKinds(scopeOf(d))];
      const was = `${d.name} ${d.values.join(' ')}`.trim();
      if (off) {
        ctx.note(
          d,
          'authz-authoritative-off-removed',
          `${was} removed (2.4 refuses it): on 2.2 it let other authorization modules decide when ${module} did not grant. ` +
            `2.4 has no such switch: the Require lines of a section are tried in turn and any one that matches grants (an implicit <RequireAny>). ` +
            `Check that the Require lines here${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''} give the intended answer, ` +
            `and write <RequireAny>/<RequireAll> for the order the modules were consulted in`,
          'manual',
        );
      } else {
        const mixed = kinds.length > 1;
        ctx.note(
          d,
          'authz-authoritative-removed',
          `${was} removed (2.4 refuses it; On was the default)` +
            (mixed
              ? `. This section's Require lines use several modules (${kinds.join(', ')}): on 2.2 an authoritative module decided alone once one of its ` +
                `Require lines applied, on 2.4 any matching Require line grants. To keep 2.2's stricter answer, keep only the lines of the module that decided`
              : ''),
          mixed ? 'review' : 'info',
        );
      }
      remove(d);
    }
  },
};
