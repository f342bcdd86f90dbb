/**
 * Which 2.4 modules a directive line needs: the module that defines it (from
 * the generated table) plus the providers its arguments name, which the table
 * cannot know (all measured on 2.4.71):
 *   Require ip|host|local → authz_host, user|valid-user → authz_user, group → authz_groupfile, …
 *     ("Unknown Authz provider: ip")
 *   AuthType Basic|Digest|Form → auth_basic|auth_digest|auth_form
 *   Auth{Basic,Digest,Form}Provider file|dbm|dbd|anon|socache|ldap → authn_* ("Unknown Authn provider: file")
 *   SSLSessionCache/SSLStaplingCache/… shmcb:|dbm:|memcache:|… → socache_* ("'shmcb' session cache not supported")
 *   balancer:// → proxy_balancer + slotmem_shm ("AH01177: Failed to lookup provider 'shm' for 'slotmem'")
 *     + lbmethod_byrequests or the lbmethod= named ("AH02432: Cannot find LB Method: byrequests");
 *     both only at start-up, `apache2 -t` passes
 *   ProxyPass … ajp://|fcgi://|http://… → proxy_ajp|proxy_fcgi|proxy_http…
 *   CacheEnable disk|socache → cache_disk|cache_socache (without it 2.4 starts and caches nothing)
 */
import { Directive, Section } from '../cst';
import { directiveModules } from './table';

export interface Need {
  readonly module: string;
  readonly reason: string;
}

const AUTHZ_PROVIDERS: Readonly<Record<string, string>> = {
  ip: 'authz_host',
  host: 'authz_host',
  local: 'authz_host',
  'forward-dns': 'authz_host',
  user: 'authz_user',
  'valid-user': 'authz_user',
  group: 'authz_groupfile',
  'file-owner': 'authz_owner',
  'file-group': 'authz_owner',
  'dbm-group': 'authz_dbm',
  'dbm-file-group': 'authz_dbm',
  'dbd-group': 'authz_dbd',
  'dbd-login': 'authz_dbd',
  'dbd-logout': 'authz_dbd',
  'ldap-user': 'authnz_ldap',
  'ldap-group': 'authnz_ldap',
  'ldap-dn': 'authnz_ldap',
  'ldap-attribute': 'authnz_ldap',
  'ldap-filter': 'authnz_ldap',
  'ldap-search': 'authnz_ldap',
};

const AUTH_TYPES: Readonly<Record<string, string>> = { basic: 'auth_basic', digest: 'auth_digest', form: 'auth_form' };

const AUTHN_PROVIDERS: Readonly<Record<string, string>> = {
  file: 'authn_file',
  dbm: 'authn_dbm',
  dbd: 'authn_dbd',
  anon: 'authn_anon',
  socache: 'authn_socache',
  ldap: 'authnz_ldap',
};

const SOCACHE: Readonly<Record<string, string>> = {
  shmcb: 'socache_shmcb',
  shm: 'socache_shmcb',
  dbm: 'socache_dbm',
  memcache: 'socache_memcache',
  redis: 'socache_redis',
  dc: 'socache_dc',
};

const SCHEMES: Readonly<Record<string, string>> = {
  http: 'proxy_http',
  https: 'proxy_http',
  ajp: 'proxy_ajp',
  fcgi: 'proxy_fcgi',
  scgi: 'proxy_scgi',
  ws: 'proxy_wstunnel',
  wss: 'proxy_wstunnel',
  ftp: 'proxy_ftp',
  h2: 'proxy_http2',
  h2c: 'proxy_http2',
  uwsgi: 'proxy_uwsgi',
};

const SOCACHE_DIRECTIVES = new Set(['sslsessioncache', 'sslstaplingcache', 'authncachesocache', 'cachesocache', 'sslocspresponsecache'.toLowerCase()]);
const URL_DIRECTIVES = new Set(['proxypass', 'proxypassmatch', 'balancermember', 'proxyremote', 'proxyremotematch', 'proxyset']);
/** The directives whose arguments argumentNeeds reads (the rest need only their defining module). */
const ARGUMENT_DIRECTIVES = new Set([
  'require',
  'authtype',
  'authbasicprovider',
  'authdigestprovider',
  'authformprovider',
  'cacheenable',
  ...SOCACHE_DIRECTIVES,
  ...URL_DIRECTIVES,
]);

function balancerNeeds(what: string): Need[] {
  return [
    { module: 'proxy_balancer', reason: `${what} uses a balancer` },
    { module: 'slotmem_shm', reason: `${what}: mod_proxy_balancer needs a slotmem provider in 2.4 (start-up fails with AH01177 without it)` },
  ];
}

function lbmethodNeeds(values: readonly string[], what: () => string): Need[] {
  const out: Need[] = [];
  for (const v of values) {
    const m = /^lbmethod=(\w+)$/i.exec(v);
    if (m) out.push({ module: `lbmethod_${m[1].toLowerCase()}`, reason: `${what()} uses lbmethod=${m[1]}` });
  }
  return out;
}

/** What most lines need beyond their defining module: nothing (shared, never changed). */
const NOTHING: readonly Need[] = Object.freeze([]);

/** Modules a section's open tag needs (`<Proxy balancer://…>` and the section's own module). */
export function sectionNeeds(section: Section): readonly Need[] {
  const out: Need[] = [];
  // the table's names are looked up in lower case (directiveModules): the lower-case name is cached on the node
  const modules = directiveModules(`<${section.lowerName}`);
  if (modules) out.push({ module: modules[0], reason: `<${section.name}> is defined by mod_${modules[0]}` });
  if (section.is('Proxy', 'ProxyMatch') && /^balancer:\/\//i.test(section.values[0] ?? '')) {
    out.push(...balancerNeeds(`<${section.name} ${section.values[0]}>`), {
      module: 'lbmethod_byrequests',
      reason: `<${section.name} ${section.values[0]}>: the default lbmethod byrequests is a module in 2.4 (start-up fails with AH02432 without it)`,
    });
  }
  return out;
}

/** Modules an argument of a directive names (providers, schemes, cache types); the defining module is not included. */
export function argumentNeeds(d: Directive): readonly Need[] {
  const name = d.lowerName;
  if (!ARGUMENT_DIRECTIVES.has(name)) return NOTHING;
  const values = d.values;
  const what = () => `${d.name} ${values.join(' ')}`.trim();
  const out: Need[] = [];
  if (name === 'require') {
    const words = values[0]?.toLowerCase() === 'not' ? values.slice(1) : values;
    const provider = words[0]?.toLowerCase() ?? '';
    const module = AUTHZ_PROVIDERS[provider];
    if (module) out.push({ module, reason: `Require ${provider} is provided by mod_${module}` });
  } else if (name === 'authtype') {
    const module = AUTH_TYPES[(values[0] ?? '').toLowerCase()];
    if (module) out.push({ module, reason: `AuthType ${values[0]} is provided by mod_${module}` });
  } else if (name === 'authbasicprovider' || name === 'authdigestprovider' || name === 'authformprovider') {
    for (const v of values) {
      const module = AUTHN_PROVIDERS[v.toLowerCase()];
      if (module) out.push({ module, reason: `${d.name} ${v} is provided by mod_${module}` });
    }
  } else if (SOCACHE_DIRECTIVES.has(name)) {
    const type = (values[0] ?? '').split(':')[0].replace(/\(.*$/, '').toLowerCase();
    const module = SOCACHE[type];
    if (module) out.push({ module, reason: `${d.name} ${type} is provided by mod_${module}` });
  } else if (name === 'cacheenable') {
    const type = (values[0] ?? '').toLowerCase();
    if (type === 'disk') out.push({ module: 'cache_disk', reason: 'CacheEnable disk is provided by mod_cache_disk' });
    if (type === 'socache') out.push({ module: 'cache_socache', reason: 'CacheEnable socache is provided by mod_cache_socache' });
  }
  if (URL_DIRECTIVES.has(name)) {
    // ProxyPass path url [key=value…]; ProxyRemote match url; BalancerMember [balancer] url; ProxySet url key=value
    const urls = values.filter((v) => /^[a-z][a-z0-9+.-]*:\/\//i.test(v));
    for (const url of urls) {
      const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
      if (scheme === 'balancer') {
        if (name !== 'balancermember' && name !== 'proxyset') out.push(...balancerNeeds(what()));
        continue;
      }
      const module = SCHEMES[scheme];
      if (module) out.push({ module, reason: `${d.name} to ${scheme}:// needs mod_${module}` });
    }
    if (name === 'balancermember') {
      out.push(...balancerNeeds(what()), {
        module: 'lbmethod_byrequests',
        reason: `${d.name}: the default lbmethod byrequests is a module in 2.4 (start-up fails with AH02432 without it)`,
      });
    }
    out.push(...lbmethodNeeds(values, what));
  }
  return out;
}
