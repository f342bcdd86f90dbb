/**
 * Probes a 2.4 httpd binary (`--httpd PATH`): its compiled-in modules (`-l`),
 * its version and HTTPD_ROOT (`-V`), and the directory its loadable modules
 * live in. `-V` does not print the module directory, so it is found among the
 * usual places relative to the binary and HTTPD_ROOT (Debian:
 * /usr/sbin/apache2 → /usr/lib/apache2/modules; upstream: PREFIX/bin/httpd → PREFIX/modules).
 * Results are cached per binary path for the process.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { idOfSource } from './table';

export interface HttpdProbe {
  readonly binary: string;
  /** `Server version:` line of `-V`, e.g. `Apache/2.4.71 (Debian)`. */
  readonly version: string;
  /** Ids of the compiled-in modules (`core`, `http`, `so`, `unixd`, …). */
  readonly builtins: ReadonlySet<string>;
  /** The directory holding the loadable modules, or null when none was found. */
  readonly moduleDir: string | null;
  /** File names in moduleDir (`mod_ssl.so`, …). */
  readonly moduleFiles: ReadonlySet<string>;
}

export class ProbeError extends Error {}

const cache = new Map<string, HttpdProbe | ProbeError>();

const MPM_SOURCES: Readonly<Record<string, string>> = { 'prefork.c': 'mpm_prefork', 'worker.c': 'mpm_worker', 'event.c': 'mpm_event' };

/** The module id of a source name printed by `-l`. */
export function idOfBuiltinSource(source: string): string {
  return idOfSource(source) ?? MPM_SOURCES[source] ?? source.replace(/^mod_/, '').replace(/\.c$/, '');
}

function runHttpd(binary: string, args: string[]): { status: number | null; text: string; error?: Error } {
  const r = spawnSync(binary, args, { encoding: 'utf8', timeout: 20000, env: { ...process.env, LC_ALL: 'C' } });
  return { status: r.status, text: `${r.stdout ?? ''}${r.stderr ?? ''}`, error: r.error };
}

function listModules(dir: string): Set<string> | null {
  try {
    const names = fs.readdirSync(dir).filter((n) => n.endsWith('.so'));
    return names.some((n) => n.startsWith('mod_')) ? new Set(names) : null;
  } catch {
    return null;
  }
}

/** Candidate module directories for a binary, most specific first. */
export function moduleDirCandidates(binary: string, httpdRoot: string | null): string[] {
  const binDir = path.dirname(path.resolve(binary));
  const prefix = path.dirname(binDir);
  const name = path.basename(binary);
  const out = [
    path.join(prefix, 'modules'),
    path.join(prefix, 'lib', name, 'modules'),
    path.join(prefix, 'lib', 'apache2', 'modules'),
    path.join(prefix, 'lib64', 'httpd', 'modules'),
    path.join(prefix, 'lib', 'httpd', 'modules'),
    path.join(prefix, 'libexec', 'apache2'),
    path.join(prefix, 'libexec', 'httpd'),
  ];
  if (httpdRoot) out.unshift(path.join(httpdRoot, 'modules'));
  return [...new Set(out)];
}

/** Probes `binary`; throws ProbeError when it is not a usable httpd 2.4. */
export function probeHttpd(binary: string): HttpdProbe {
  const cached = cache.get(binary);
  if (cached instanceof ProbeError) throw cached;
  if (cached) return cached;
  try {
    const probe = doProbe(binary);
    cache.set(binary, probe);
    return probe;
  } catch (error) {
    const e = error instanceof ProbeError ? error : new ProbeError(String(error));
    cache.set(binary, e);
    throw e;
  }
}

function doProbe(binary: string): HttpdProbe {
  const l = runHttpd(binary, ['-l']);
  if (l.error) throw new ProbeError(`cannot run ${binary}: ${l.error.message}`);
  if (!/Compiled in modules:/.test(l.text)) throw new ProbeError(`${binary} -l did not list compiled-in modules: ${l.text.trim().slice(0, 200)}`);
  const builtins = new Set<string>();
  for (const line of l.text.split('\n')) {
    const source = line.trim();
    if (/^\S+\.c$/.test(source)) builtins.add(idOfBuiltinSource(source));
  }
  // -V prints its lines even when the default config cannot be read (Debian without envvars)
  const v = runHttpd(binary, ['-V']);
  const version = /Server version:\s*(.+)/.exec(v.text)?.[1]?.trim() ?? '';
  if (version && !/\/2\.4\./.test(version)) throw new ProbeError(`${binary} is ${version}, not httpd 2.4`);
  const httpdRoot = /-D HTTPD_ROOT="([^"]*)"/.exec(v.text)?.[1] ?? null;
  for (const dir of moduleDirCandidates(binary, httpdRoot)) {
    const files = listModules(dir);
    if (files) return { binary, version, builtins, moduleDir: dir, moduleFiles: files };
  }
  return { binary, version, builtins, moduleDir: null, moduleFiles: new Set() };
}
