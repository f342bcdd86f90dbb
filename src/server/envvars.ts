/**
 * Debian's `envvars`: shell lines `export APACHE_X=value` that apache2ctl
 * sources before starting httpd, so `${APACHE_X}` in the config has a value.
 * Only plain assignments are understood; a value that refers to a variable
 * we do not know (Debian's `$SUFFIX`, set in an `if`) is left undefined.
 */
import * as fs from 'fs';
import * as path from 'path';

const EXPORT = /^\s*export\s+([A-Za-z_][A-Za-z0-9_]*)=(.*?)\s*$/;
const SHELL_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** Variables from `envvars` in `dir`, or null when there is no such file. */
export function readEnvvars(dir: string): Map<string, string> | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, 'envvars'), 'latin1');
  } catch {
    return null;
  }
  const vars = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = EXPORT.exec(line);
    if (!m) continue;
    const value = expandShell(unquote(m[2]), vars);
    if (value === null) vars.delete(m[1]);
    else vars.set(m[1], value);
  }
  return vars;
}

function unquote(value: string): string {
  const m = /^"(.*)"$/.exec(value) ?? /^'(.*)'$/.exec(value);
  return m ? m[1] : value;
}

function expandShell(value: string, vars: ReadonlyMap<string, string>): string | null {
  let unknown = false;
  const out = value.replace(SHELL_REF, (_all, braced: string | undefined, bare: string | undefined) => {
    const v = vars.get((braced ?? bare) as string);
    if (v === undefined) unknown = true;
    return v ?? '';
  });
  return unknown ? null : out;
}

/**
 * Substitutes `${VAR}` in an Include argument. Returns null when the argument
 * cannot be resolved: an unknown variable, or an `@placeholder@` left by a
 * build template.
 */
export function expandIncludeVariables(arg: string, vars: ReadonlyMap<string, string> | null): string | null {
  // most paths hold neither: no pattern to run (a 3,000-vhost server names some 15,000 directories)
  if (arg.indexOf('@') === -1 && arg.indexOf('${') === -1) return arg;
  if (/@[A-Za-z_][A-Za-z0-9_]*@/.test(arg)) return null;
  let unknown = false;
  const out = arg.replace(/\$\{([^}]*)\}/g, (_all, name: string) => {
    const v = vars?.get(name);
    if (v === undefined) unknown = true;
    return v ?? '';
  });
  return unknown ? null : out;
}
