/**
 * Whether a file was written for httpd 2.4 (or migrated already): it holds a directive or section
 * httpd 2.2 did not have, and none that 2.4 dropped. Such a file has 2.4's meaning on purpose — Debian's own 2.4 files beside
 * 2.2 sites halfway through an upgrade, an application's 2.4 snippet — so transforms that write
 * back what 2.2 meant (the SSI legacy parser, a shell for piped logs, 2.2's defaults…) and the
 * module planner's reading of its directives leave it alone. Judged on the file as read, before
 * any transform edits it.
 */
import { ConfigFile, walk } from '../cst';
import { REQUIRE_24_PROVIDERS } from './access/read-rules';
import { isTwoTwoOnly } from './version-guards';

/** Directives httpd 2.2 did not know (core and the modules both ship). */
const DIRECTIVES_24 = new Set([
  'includeoptional',
  'mutex',
  'defaultruntimedir',
  'maxrequestworkers',
  'maxconnectionsperchild',
  'authmerging',
  'define',
  'undefine',
  'errorlogformat',
  'sslcarevocationcheck',
  'sslproxycarevocationcheck',
  'sslopensslconfcmd',
  'allowoverridelist',
  'protocols',
]);

/** Directives httpd 2.4 refuses or drops (mod_access_compat's aside, which 2.4 still has): a file holding one is 2.2's. */
const DIRECTIVES_22 = new Set([
  'order',
  'allow',
  'deny',
  'satisfy',
  'maxclients',
  'maxrequestsperchild',
  'namevirtualhost',
  'lockfile',
  'acceptmutex',
  'sslmutex',
  'rewritelock',
  'rewritelog',
  'rewriteloglevel',
  'defaulttype',
  'authzuserauthoritative',
  'authzgroupfileauthoritative',
  'authzdbmauthoritative',
  'authzownerauthoritative',
  'authzdefaultauthoritative',
  'authdigestnonceformat',
  'dumpiologlevel',
]);

/** Sections httpd 2.2 did not know. */
const SECTIONS_24 = new Set(['requireall', 'requireany', 'requirenone', 'if', 'elseif', 'else', 'ifdirective', 'ifsection', 'iffile']);

/**
 * A file with something only 2.4 knows and nothing 2.4 dropped. A file holding both (2.2 lines with a
 * few 2.4 ones written in by hand) is a half-migrated 2.2 file and is migrated as one. Lines only
 * 2.2 reads (`<IfVersion < 2.4>`, `<IfModule !mod_authz_core.c>` branches) do not count.
 */
export function writtenFor24(tree: ConfigFile): boolean {
  // the name is looked at first and isTwoTwoOnly (a walk up the enclosing sections) only for the few
  // lines whose name counts: the answer is the same, and most lines of a file count for nothing
  let has24 = false;
  for (const node of walk(tree)) {
    if (node.kind === 'section') {
      if (!has24 && SECTIONS_24.has(node.lowerName) && !isTwoTwoOnly(node)) has24 = true;
      continue;
    }
    if (node.kind !== 'directive') continue;
    const name = node.lowerName;
    if (DIRECTIVES_22.has(name)) {
      if (!isTwoTwoOnly(node)) return false;
    } else if (has24) {
      continue;
    } else if (DIRECTIVES_24.has(name)) {
      if (!isTwoTwoOnly(node)) has24 = true;
    } else if (name === 'require') {
      const words = node.values.map((v) => v.toLowerCase());
      const provider = words[0] === 'not' ? words[1] : words[0];
      if (provider !== undefined && REQUIRE_24_PROVIDERS.includes(provider) && !isTwoTwoOnly(node)) has24 = true;
    } else if (name === 'loglevel' && node.values.some((v) => v.includes(':') || /^trace[1-8]$/i.test(v)) && !isTwoTwoOnly(node)) {
      // per-module levels (`LogLevel warn ssl:info`) and trace levels are 2.4's
      has24 = true;
    }
  }
  return has24;
}
