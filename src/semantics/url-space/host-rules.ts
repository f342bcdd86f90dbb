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
import { contextRules } from './unknown-rules';
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

/**
 * The rules a host takes from the main server's own lines, made once per server: every host of a
 * fleet server walks the main server's lines (a Debian tree's mods and conf files) otherwise. Each
 * family reads its lines one by one (rulesOf), so a host's list is its own lines' rules and these,
 * in the order the family runs them; the rules are read-only and shared by the hosts.
 */
interface MainServerRules {
  readonly unknown: readonly Rule[];
  readonly locationProxies: readonly Rule[];
  readonly proxies: readonly Rule[];
  readonly locationRedirects: readonly Rule[];
  readonly redirects: readonly Rule[];
  readonly locationAliases: readonly Rule[];
  readonly aliases: readonly Rule[];
}

const mainRulesOf = new WeakMap<ServerFacts, MainServerRules>();

function mainServerRules(server: ServerFacts): MainServerRules {
  let rules = mainRulesOf.get(server);
  if (!rules) {
    const { main, serverRoot, noProxyEnv, version } = server;
    rules = {
      unknown: contextRules(main, server),
      locationProxies: locationProxies(main.inLocations, noProxyEnv),
      proxies: serverProxies(main.directives, noProxyEnv, version),
      locationRedirects: locationRedirects(main.inLocations),
      redirects: serverRedirects(main.directives, version),
      locationAliases: locationAliases(main.inLocations),
      aliases: serverAliases(main.directives, serverRoot, version),
    };
    mainRulesOf.set(server, rules);
  }
  return rules;
}

const NONE: readonly Rule[] = [];

export function hostRules(server: ServerFacts, vhost: ContextFacts | null): Rule[] {
  const main = server.main;
  const { serverRoot, noProxyEnv, version } = server;
  const m = mainServerRules(server);
  const locations = vhost?.inLocations ?? [];
  const own = vhost?.directives ?? [];
  const ofHost = (make: () => Rule[]): readonly Rule[] => (vhost ? make() : NONE);
  return [
    // unknown modules' hooks: the main server's lines, then the host's
    ...m.unknown,
    ...ofHost(() => contextRules(vhost as ContextFacts, server)),
    ...rewriteRules(main, vhost, hostNames(main, vhost), version),
    // a <Location>'s ProxyPass: the last-merged Location first (the host's, then the main server's)
    ...ofHost(() => locationProxies(locations, noProxyEnv)),
    ...m.locationProxies,
    // ProxyPass lines: the main server's first (merge order base + overrides)
    ...m.proxies,
    ...ofHost(() => serverProxies(own, noProxyEnv, version)),
    ...m.locationRedirects,
    ...ofHost(() => locationRedirects(locations)),
    // Redirect* and Alias* lines: the host's first
    ...ofHost(() => serverRedirects(own, version)),
    ...m.redirects,
    ...m.locationAliases,
    ...ofHost(() => locationAliases(locations)),
    ...ofHost(() => serverAliases(own, serverRoot, version)),
    ...m.aliases,
    ...userdirRules(main, vhost, version),
    ...vhostAliasRules(main, vhost, serverRoot),
    ...docrootRules(main, vhost, serverRoot),
  ];
}
