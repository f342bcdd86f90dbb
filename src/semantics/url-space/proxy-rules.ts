/**
 * mod_proxy at translate time (proxy_trans, after mod_rewrite): a `<Location>`'s ProxyPass first (the
 * last-merged Location that sets one), then the server's ProxyPass / ProxyPassMatch list — the main
 * server's entries first, then the virtual host's (merge order base + overrides). The first entry that
 * matches decides; a `!` entry ends the list for its URLs, which go on to mod_alias. A proxied request gets
 * a `proxy:` file name and mod_proxy's map_to_storage skips the directory walk (2.2 and 2.4; measured on
 * 2.4.71: no `<Directory>`, not even `/`, applies; `<Location>` still does).
 */
import { Version } from './conditions';
import { Entry, LocationEntry } from './read-config';
import { locationCapture, regexCapture } from './alias-rules';
import { addRule, cause, NOTHING, Outcome, Rule } from './rule';
import { EVERY_URL, prefixSet, regexUrlSet } from './url-sets';

/** Whether a proxied target may hand some requests back (mod_proxy_wstunnel declines non-upgrade requests). */
function mayDecline(target: string): boolean {
  return /^wss?:/i.test(target);
}

/** A proxied request skips the directory walk. */
const proxied = (): Outcome => NOTHING;

function proxyRule(base: Omit<Rule, 'phase' | 'outcome'>, target: string, noProxyEnv: boolean): Rule {
  if (target === '!') return { ...base, phase: 'proxy-exempt', outcome: proxied };
  const partial = noProxyEnv || mayDecline(target);
  return { ...base, capture: partial ? 'none' : base.capture, phase: 'proxy', outcome: proxied };
}

function locationProxy(e: LocationEntry, noProxyEnv: boolean): Rule | null {
  const target = e.d.values[0] ?? '';
  if (!e.d.is('ProxyPass', 'ProxyPassMatch') || (target.includes('=') && !target.includes('://') && target !== '!')) return null;
  return proxyRule({ match: e.loc.set, matchExact: e.loc.exact, takes: [], ...locationCapture(e) }, target, noProxyEnv);
}

/** The last-merged Location's ProxyPass decides: the entries from the last one back (module-level builders, see addRule). */
export function locationProxies(locationEntries: readonly LocationEntry[], noProxyEnv: boolean): Rule[] {
  const out: Rule[] = [];
  for (let i = locationEntries.length - 1; i >= 0; i--) addRule(out, locationProxy(locationEntries[i], noProxyEnv), locationEntries[i]);
  return out;
}

function serverProxy(e: Entry, noProxyEnv: boolean, version: Version): Rule | null {
  const v = e.d.values;
  if (e.d.is('ProxyPass') && v.length >= 2) return proxyRule({ match: prefixSet(v[0]), matchExact: true, takes: [], capture: 'all' }, v[1], noProxyEnv);
  if (e.d.is('ProxyPassMatch') && v.length >= 2) {
    const read = regexUrlSet(v[0]);
    const takes = read.exact ? [] : [cause(e.file, e.d, 'its pattern is read as its literal prefix')];
    return proxyRule({ match: read.set, matchExact: read.exact, takes, capture: regexCapture(v[0], version) }, v[1], noProxyEnv);
  }
  if (e.d.is('ProxyExpressEnable') && /^on$/i.test(v[0] ?? '')) {
    const c = cause(e.file, e.d, 'its map decides which hosts are proxied');
    return { match: EVERY_URL, matchExact: true, takes: [c], capture: 'maybe', phase: 'proxy', outcome: proxied };
  }
  return null;
}

export function serverProxies(entries: readonly Entry[], noProxyEnv: boolean, version: Version): Rule[] {
  const out: Rule[] = [];
  for (const e of entries) addRule(out, serverProxy(e, noProxyEnv, version), e);
  return out;
}
