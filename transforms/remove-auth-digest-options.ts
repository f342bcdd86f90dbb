// Upgrade note "mod_auth_digest: AuthDigestNcCheck and AuthDigestNonceFormat are removed".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const removeAuthDigestOptions: Transform = {
  id: 'remove-auth-digest-options',
  title: 'Remove AuthDigestNcCheck and AuthDigestNonceFormat',
  row: 'mod_auth_digest: AuthDigestNcCheck and AuthDigestNonceFormat are removed',
  order: 480,
};
