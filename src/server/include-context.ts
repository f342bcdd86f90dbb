/**
 * Everything a main config's Include lines need to resolve: its ServerRoot
 * (mapped into the scanned tree when needed) and Debian's envvars.
 */
import * as path from 'path';
import { readEnvvars } from './envvars';
import { FoundFile } from './file-registry';
import { IncludeContext, includeLines, includeTargets } from './resolve-includes';
import { ServerRoot, resolveServerRoot } from './server-root';

export function includeContextFor(main: FoundFile, serverRootOverride: string | null): IncludeContext {
  const mainPath = main.preferredPath;
  const envvars = readEnvvars(path.dirname(mainPath));
  const withRoot = (serverRoot: ServerRoot): IncludeContext => ({
    serverRoot,
    variables: envvars && withConfDir(envvars, serverRoot.root),
  });
  const lines = includeLines(main.facts);
  const serverRoot = resolveServerRoot({
    mainPath,
    facts: main.facts,
    override: serverRootOverride,
    includesMatch: (candidate) => lines.some((l) => includeTargets(l.arg, withRoot(candidate)).length > 0),
  });
  return withRoot(serverRoot);
}

/** apache2ctl sets APACHE_CONFDIR (the ServerRoot) when envvars does not. */
function withConfDir(vars: ReadonlyMap<string, string>, root: string): ReadonlyMap<string, string> {
  if (vars.has('APACHE_CONFDIR')) return vars;
  return new Map([...vars, ['APACHE_CONFDIR', root]]);
}
