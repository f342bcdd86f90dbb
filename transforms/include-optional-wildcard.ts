// Upgrade note "Misc: Include of a wildcard that matches nothing is an error (IncludeOptional is not)".
//
// Measured on 2.4.71 (httpd24-facts.md §3 and the tests of this transform): `Include` fails when a
// wildcard component matches nothing in its directory ("No matches for the wildcard 'W' in 'D',
// failing"), when a directory reached through a wildcard lacks the next component ("Could not
// open directory" / "Could not open configuration file"), and when the pattern matches in one
// directory but not in another; `IncludeOptional` accepts all of these. A wildcard matching an
// empty directory is fine. 2.2 accepted a wildcard that matched nothing (it allowed wildcards in
// the last component only) but failed, like 2.4, when the directory before it was missing.
// Where the scanned tree shows that a wildcard Include would fail on 2.4 although its directory
// exists, the line becomes IncludeOptional (argument bytes untouched). A literal Include of a
// missing file, or a wildcard whose directory is missing, fails on both: a finding. Without a
// server root (a fragment on its own) nothing can be checked: a finding.
import * as fs from 'fs';
import * as path from 'path';
import { FileFacts } from '../src/server/file-facts';
import { Directive, directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { expandIncludeVariables, readEnvvars } from '../src/server/envvars';
import { fnmatchRegExp, hasWildcard } from '../src/server/expand-include-pattern';
import { ServerRoot, resolveServerRoot } from '../src/server/server-root';
import { ServerTree } from '../src/server/types';
import { Transform } from './types';

export type IncludeOutcome =
  /** 2.4's Include reads it without error. */
  | { readonly kind: 'ok' }
  /** A wildcard matches nothing somewhere: Include fails, IncludeOptional does not. */
  | { readonly kind: 'no-match'; readonly detail: string }
  /** The directory in front of the first wildcard, or a literal target, does not exist: 2.2 failed too. */
  | { readonly kind: 'missing'; readonly detail: string };

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

function exists(p: string): boolean {
  try {
    fs.statSync(p);
    return true;
  } catch {
    return false;
  }
}

/** What httpd 2.4.71's `Include` does with an absolute pattern (process_resource_config_fnmatch). */
export function evaluateInclude(absPattern: string): IncludeOutcome {
  const normalized = path.resolve(absPattern);
  const root = path.parse(normalized).root;
  const parts = normalized.slice(root.length).split(path.sep).filter((c) => c !== '');
  if (!parts.some(hasWildcard)) {
    return exists(normalized) ? { kind: 'ok' } : { kind: 'missing', detail: `${normalized} does not exist` };
  }
  const walk = (dir: string, i: number, seenWildcard: boolean): IncludeOutcome => {
    const part = parts[i];
    const last = i === parts.length - 1;
    if (!hasWildcard(part)) {
      const next = path.join(dir, part);
      if (!last) return walk(next, i + 1, seenWildcard);
      return exists(next) ? { kind: 'ok' } : { kind: 'no-match', detail: `${next} does not exist` };
    }
    let names: string[];
    try {
      names = fs.readdirSync(dir).sort();
    } catch {
      const detail = `directory ${dir} does not exist`;
      return seenWildcard ? { kind: 'no-match', detail } : { kind: 'missing', detail };
    }
    const matcher = fnmatchRegExp(part);
    // inside the path only real directories count (httpd skips symlinks there: d_type is LNK)
    const candidates = names
      .filter((n) => matcher.test(n))
      .map((n) => path.join(dir, n))
      .filter((p) => last || (lstatOrNull(p)?.isDirectory() ?? false));
    if (candidates.length === 0) return { kind: 'no-match', detail: `no match for the wildcard '${part}' in '${dir}'` };
    if (last) return { kind: 'ok' };
    for (const candidate of candidates) {
      const outcome = walk(candidate, i + 1, true);
      if (outcome.kind !== 'ok') return outcome;
    }
    return { kind: 'ok' };
  };
  return walk(root, 0, false);
}

interface Resolver {
  resolve(arg: string): string | null;
}

/** Resolves Include arguments the way discovery did for this server; null for a fragment. */
function resolverFor(server: ServerTree): Resolver | null {
  const main = server.main;
  if (!main || server.serverRoot === null) return null;
  const serverRoot: ServerRoot = resolveServerRoot({
    mainPath: main.realPath,
    facts: FileFacts.of(main.tree),
    override: server.serverRoot,
    includesMatch: () => false,
  });
  const envvars = readEnvvars(path.dirname(main.realPath));
  const variables =
    envvars && !envvars.has('APACHE_CONFDIR') ? new Map([...envvars, ['APACHE_CONFDIR', serverRoot.root]]) : envvars;
  return {
    resolve(arg: string): string | null {
      const expanded = expandIncludeVariables(arg, variables);
      if (expanded === null) return null;
      return path.isAbsolute(expanded) ? serverRoot.map(path.resolve(expanded)) : path.resolve(serverRoot.root, expanded);
    },
  };
}

export const includeOptionalWildcard: Transform = {
  id: 'include-optional-wildcard',
  title: 'Use IncludeOptional for a wildcard Include that matches nothing',
  row: 'Misc: Include of a wildcard that matches nothing is an error (IncludeOptional is not)',
  order: 530,
  triggers: { directives: ['Include'] },
  applyFile(tree, ctx) {
    let resolver: Resolver | null | undefined;
    for (const d of directives(tree, 'Include')) {
      if (isTwoTwoOnly(d)) continue;
      const arg = d.values[0];
      if (arg === undefined || arg === '' || d.values.length !== 1) continue;
      if (resolver === undefined) resolver = resolverFor(ctx.server);
      check(d, arg, resolver);
    }

    function check(d: Directive, arg: string, resolver: Resolver | null): void {
      const wildcard = hasWildcard(arg);
      const abs = resolver ? resolver.resolve(arg) : null;
      if (abs === null) {
        if (wildcard) {
          ctx.note(
            d,
            'include-wildcard-unchecked',
            `Include ${arg}: the files it matches could not be checked (${resolver ? 'unknown ${variable}' : 'no server root: the main config is not part of the run'}); ` +
              `2.4 refuses to start when a wildcard Include matches nothing: use IncludeOptional if that can happen`,
            'review',
          );
        }
        return;
      }
      const outcome = evaluateInclude(abs);
      if (outcome.kind === 'ok') return;
      if (outcome.kind === 'missing') {
        ctx.note(
          d,
          'include-target-missing',
          `Include ${arg}: ${outcome.detail} in the scanned tree; httpd (2.2 and 2.4) refuses to start unless it exists on the server`,
          'manual',
        );
        return;
      }
      if (!wildcard) return; // unreachable: literal paths are ok or missing
      d.rename('IncludeOptional');
      ctx.note(
        d,
        'include-wildcard-optional',
        `Include ${arg} → IncludeOptional: ${outcome.detail}; 2.2 accepted that, 2.4's Include refuses to start`,
        'info',
      );
    }
  },
};
