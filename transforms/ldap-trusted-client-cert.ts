// Upgrade note "mod_ldap: LDAPTrustedClientCert is per directory".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const ldapTrustedClientCert: Transform = {
  id: 'ldap-trusted-client-cert',
  title: 'Report LDAPTrustedClientCert (per directory in 2.4)',
  row: 'mod_ldap: LDAPTrustedClientCert is per directory',
  order: 610,
};
