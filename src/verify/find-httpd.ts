/**
 * Which httpd judges the staged servers: `--httpd PATH`, else the first `apache2` or `httpd` on
 * PATH, else the usual install places (/usr/sbin is often not on a non-root PATH). It must be a
 * 2.4 (modules/probe.ts runs `-l` and `-V`).
 */
import * as fs from 'fs';
import * as path from 'path';
import { HttpdProbe, ProbeError, probeHttpd } from '../modules/probe';

const NAMES = ['apache2', 'httpd'];
const USUAL = ['/usr/sbin/apache2', '/usr/sbin/httpd', '/usr/local/apache2/bin/httpd', '/opt/apache2/bin/httpd'];

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The binary to use: the given path, else the first of apache2/httpd on PATH, else a usual place; null when none. */
export function locateHttpd(given: string | undefined, envPath = process.env.PATH ?? ''): string | null {
  if (given) return given;
  for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
    for (const name of NAMES) {
      const candidate = path.join(dir, name);
      if (executable(candidate)) return candidate;
    }
  }
  return USUAL.find(executable) ?? null;
}

export type FoundHttpd = { readonly probe: HttpdProbe } | { readonly error: string };

/** Locates and probes the judge; the error names what to do when there is none. */
export function findHttpd(given: string | undefined): FoundHttpd {
  const binary = locateHttpd(given);
  if (!binary) return { error: 'no httpd 2.4 found (neither apache2 nor httpd on PATH, nor in /usr/sbin): give --httpd PATH' };
  try {
    return { probe: probeHttpd(binary) };
  } catch (error) {
    return { error: error instanceof ProbeError ? error.message : `cannot probe ${binary}: ${String(error)}` };
  }
}
