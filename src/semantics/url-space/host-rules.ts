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
 * The rules one context's own lines make, family by family. Each family reads its lines one by one,
 * so a host's list for a family is its own lines' rules and the main server's, in the order the
 * family runs them; the main server's are made once per server (every host of a fleet server read
 * the main server's lines again otherwise: a Debian tree's mods and conf files). Rules are
 * read-only and shared by the hosts.
 */
interface ContextRules {
  readonly unknown: readonly Rule[];
  readonly locationProxies: readonly Rule[];
  readonly proxies: readonly Rule[];
  readonly locationRedirects: readonly Rule[];
  readonly redirects: readonly Rule[];
  readonly locationAliases: readonly Rule[];
  readonly aliases: readonly Rule[];
}

function contextFamilies(ctx: ContextFacts, server: ServerFacts): ContextRules {
  const { serverRoot, noProxyEnv, version } = server;
  return {
    unknown: contextRules(ctx, server),
    locationProxies: locationProxies(ctx.inLocations, noProxyEnv),
    proxies: serverProxies(ctx.directives, noProxyEnv, version),
    locationRedirects: locationRedirects(ctx.inLocations),
    redirects: serverRedirects(ctx.directives, version),
    locationAliases: locationAliases(ctx.inLocations),
    aliases: serverAliases(ctx.directives, serverRoot, version),
  };
}

const mainRulesOf = new WeakMap<ServerFacts, ContextRules>();

function mainServerRules(server: ServerFacts): ContextRules {
  let rules = mainRulesOf.get(server);
  if (!rules) mainRulesOf.set(server, (rules = contextFamilies(server.main, server)));
  return rules;
}

/** The main server as a host has no lines of its own beside the main server's. */
const NO_OWN_RULES: ContextRules = { unknown: [], locationProxies: [], proxies: [], locationRedirects: [], redirects: [], locationAliases: [], aliases: [] };

export function hostRules(server: ServerFacts, vhost: ContextFacts | null): Rule[] {
  const main = server.main;
  const { serverRoot, version } = server;
  const m = mainServerRules(server);
  const h = vhost ? contextFamilies(vhost, server) : NO_OWN_RULES;
  return [
    // unknown modules' hooks: the main server's lines, then the host's
    ...m.unknown,
    ...h.unknown,
    ...rewriteRules(main, vhost, hostNames(main, vhost), version),
    // a <Location>'s ProxyPass: the last-merged Location first (the host's, then the main server's)
    ...h.locationProxies,
    ...m.locationProxies,
    // ProxyPass lines: the main server's first (merge order base + overrides)
    ...m.proxies,
    ...h.proxies,
    ...m.locationRedirects,
    ...h.locationRedirects,
    // Redirect* and Alias* lines: the host's first
    ...h.redirects,
    ...m.redirects,
    ...m.locationAliases,
    ...h.locationAliases,
    ...h.aliases,
    ...m.aliases,
    ...userdirRules(main, vhost, version),
    ...vhostAliasRules(main, vhost, serverRoot),
    ...docrootRules(main, vhost, serverRoot),
  ];
}
