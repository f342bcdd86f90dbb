/** Settings from the command line that the transforms read. */
export interface RunOptions {
  /** `--httpd PATH`: a 2.4 httpd binary to probe (-l, -V) for built-in modules and the module directory. */
  readonly httpd?: string;
  /** `--mpm`: the MPM to load when the 2.2 config names none (2.2 compiled it in). Default prefork. */
  readonly mpm?: 'prefork' | 'worker' | 'event';
  /** `--pin-defaults`: write the 2.2 values of settings whose default changed in 2.4. */
  readonly pinDefaults?: boolean;
  /** `--dual-syntax`: access rules that work on both 2.2 and 2.4 (IfModule mod_authz_core.c pairs). */
  readonly dualSyntax?: boolean;
}
