// Upgrade note "mod_auth_digest: AuthDigestNcCheck and AuthDigestNonceFormat are removed".
//
// Measured on httpd 2.4.71 (see __tests__/httpd-mutex-ssl.test.ts), against the note:
// - AuthDigestNonceFormat is gone (`Invalid command 'AuthDigestNonceFormat'`). 2.2 had no use for
//   it either: its handler only answered "AuthDigestNonceFormat is not implemented (yet)", so a
//   2.2 server that read the line did not start; the line can only come from a branch 2.2 never
//   read. It is removed.
// - AuthDigestNcCheck still exists in 2.4.71 (mod_auth_digest, `apache2 -L`) with 2.2's meaning
//   (nonce-count checking, needs shared memory): `AuthDigestNcCheck On|Off` passes `apache2 -t`,
//   so it is left alone.
import { directives, remove } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

export const removeAuthDigestOptions: Transform = {
  id: 'remove-auth-digest-options',
  title: 'Remove AuthDigestNonceFormat (AuthDigestNcCheck still exists in 2.4.71 and stays)',
  row: 'mod_auth_digest: AuthDigestNcCheck and AuthDigestNonceFormat are removed',
  order: 480,
  triggers: { directives: ['AuthDigestNonceFormat'] },
  applyFile(tree, ctx) {
    for (const d of [...directives(tree, 'AuthDigestNonceFormat')]) {
      if (isTwoTwoOnly(d)) continue;
      ctx.note(
        d,
        'auth-digest-nonce-format-removed',
        `${d.name} removed: 2.4 does not know it, and 2.2 never implemented it (it refused to start with "AuthDigestNonceFormat is not implemented"), so it had no effect`,
        'info',
      );
      remove(d);
    }
  },
};
