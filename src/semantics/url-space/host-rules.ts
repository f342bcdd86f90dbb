/**
 * A host's translation steps in httpd's order (translate_name hooks, 2.2 and 2.4 alike):
 * unknown modules' hooks → mod_rewrite (FIRST) → mod_proxy (FIRST, after mod_rewrite) → mod_alias (MIDDLE:
 * redirects, then aliases) → mod_userdir (MIDDLE, after mod_alias) → mod_vhost_alias (after both) → core's
 * ServerPath / DocumentRoot (REALLY_LAST). Main-server `<Location>` sections apply in every host (they are
 * merged before the host's own).
 */
import { locationAliases, locationRedirects, serverAliases, serverRedirects } from './alias-rules';
import { docrootRules, vhostAliasRules } from './core-rules';
import { locationProxies, serverProxies } from './proxy-rules';
import { ContextFacts, ServerFacts } from './read-config';
import { rewriteRules } from './rewrite-rules';
import { Rule } from './rule';
import { unknownRules } from './unknown-rules';
import { userdirRules } from './userdir-rules';

function hostNames(main: ContextFacts, vhost: ContextFacts | null): string[] {
  const names = new Set<string>(['localhost', '127.0.0.1', '::1']);
  for (const ctx of vhost ? [vhost] : [main]) {
    for (const e of ctx.directives) {
      if (!e.d.is('ServerName', 'ServerAlias')) continue;
      for (const v of e.d.values) names.add(v.replace(/^[a-z]+:\/\//i, '').replace(/:\d+$/, '').toLowerCase());
    }
  }
  if (vhost) for (const a of vhost.section?.values ?? []) names.add(a.replace(/:[^:\]]*$/, '').toLowerCase());
  return [...names];
}

export function hostRules(server: ServerFacts, vhost: ContextFacts | null): Rule[] {
  const main = server.main;
  const { serverRoot, noProxyEnv, version } = server;
  const locations = [...main.inLocations, ...(vhost?.inLocations ?? [])];
  const own = (ctx: ContextFacts | null) => ctx?.directives ?? [];
  return [
    ...unknownRules(server, vhost),
    ...rewriteRules(main, vhost, hostNames(main, vhost), version),
    ...locationProxies(locations, noProxyEnv),
    ...serverProxies([...own(main), ...own(vhost)], noProxyEnv, version),
    ...locationRedirects(locations),
    ...serverRedirects([...own(vhost), ...own(main)], version),
    ...locationAliases(locations),
    ...serverAliases([...own(vhost), ...own(main)], serverRoot, version),
    ...userdirRules(main, vhost, version),
    ...vhostAliasRules(main, vhost, serverRoot),
    ...docrootRules(main, vhost, serverRoot),
  ];
}
