// Upgrade note "Authorization: the Authz*Authoritative directives are removed; provider order replaces them".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const removeAuthzAuthoritative: Transform = {
  id: 'remove-authz-authoritative',
  title: 'Remove the Authz*Authoritative directives left after the access migration',
  row: 'Authorization: the Authz*Authoritative directives are removed; provider order replaces them',
  order: 490,
};
