// Upgrade note "mod_ssl: CRL checking needs SSLCARevocationCheck (off by default in 2.4)".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const sslRevocationCheck: Transform = {
  id: 'ssl-revocation-check',
  title: 'Add SSLCARevocationCheck chain where CRLs are configured',
  row: 'mod_ssl: CRL checking needs SSLCARevocationCheck (off by default in 2.4)',
  order: 460,
};
