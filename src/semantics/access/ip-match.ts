/**
 * Matching one `Allow from` / `Deny from` word (and the `Require ip` / `Require host`
 * arguments) against a client. Reference: docs/research/access-semantics.md §2.3.
 */
import { HostEntry } from './types';
import { SUBNET_ERROR_TEXT, parseClientAddress, parseIpSpec, subnetContains } from './ip-address';
import { cacheKey } from '../cache-key';

/** Parsed specs for the evaluator, kept for the process: bounded, with keys that do not hold their files (cache-key.ts). */
const subnetCache = new Map<string, ReturnType<typeof parseIpSpec>>();
const CACHE_LIMIT = 4096;

function cachedSpec(spec: string): ReturnType<typeof parseIpSpec> {
  let parsed = subnetCache.get(spec);
  if (!parsed) {
    parsed = parseIpSpec(spec);
    if (subnetCache.size >= CACHE_LIMIT) subnetCache.clear();
    subnetCache.set(cacheKey(spec), parsed);
  }
  return parsed;
}

/**
 * True when `clientIp` lies in `spec` (`10.1.2.3`, `10.1`, `10.1.`, `10.0.0.0/8`,
 * `10.1.0.0/255.255.0.0`, `fe80::/10`, …). Throws for a spec httpd would refuse
 * at startup, and for a client address that is not an IP address.
 */
export function ipMatches(spec: string, clientIp: string): boolean {
  const parsed = cachedSpec(spec);
  if ('error' in parsed) throw new Error(`not an IP spec httpd accepts: '${spec}' (${SUBNET_ERROR_TEXT[parsed.error]})`);
  const client = parseClientAddress(clientIp);
  if (!client) throw new Error(`not a client IP address: '${clientIp}'`);
  return subnetContains(parsed.subnet, client);
}

/** Characters a DNS name (or a name from /etc/hosts) can hold; a leading dot means "subdomains of". */
const HOST_NAME = /^\.?[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?$/;
/** `127.0.0.x`, `10.x.x.x`: someone meant a wildcard IP; httpd takes it for a host name. */
const WILDCARD_IP = /^[0-9.xX]+$/;

function hostOrNever(word: string): HostEntry {
  const brokenIp = WILDCARD_IP.test(word) && /[0-9]/.test(word) && word.includes('.');
  return HOST_NAME.test(word) && !brokenIp ? { kind: 'host', name: word } : { kind: 'never', word };
}

/**
 * What httpd's `allow_cmd` makes of one word after `Allow from` / `Deny from`
 * (§2.3): `all`, `env=VAR`, `env=!VAR`, an IP spec, or otherwise a host name.
 * Words httpd silently takes for host names that no real client name can match
 * (`127.0.0.x`, `a,b`, `#`) are kind `never`; `env=` with no name is `never` too.
 * Returns httpd's startup error for an IP-looking word it rejects.
 */
export function classifyHostWord(word: string): HostEntry | { error: string } {
  const lower = word.toLowerCase();
  if (lower.startsWith('env=!')) return { kind: 'env', name: word.slice(5), negated: true };
  if (lower.startsWith('env=')) {
    const name = word.slice(4);
    return name === '' ? { kind: 'never', word } : { kind: 'env', name, negated: false };
  }
  if (lower === 'all') return { kind: 'all' };
  const parsed = parseIpSpec(word);
  if ('subnet' in parsed) return { kind: 'ip', spec: word };
  if (parsed.error === 'not-ip' && !word.includes('/')) return hostOrNever(word);
  return { error: SUBNET_ERROR_TEXT[parsed.error] };
}

/**
 * httpd's in_domain(): `name` is a case-insensitive suffix of the client's
 * (double-reverse verified) host name on whole labels; `.example.org` matches
 * only subdomains. A client without a verified name matches nothing.
 */
export function hostMatches(name: string, clientHostName: string | null): boolean {
  if (clientHostName === null) return false;
  const what = clientHostName.toLowerCase();
  const domain = name.toLowerCase();
  const start = what.length - domain.length;
  if (start < 0 || what.slice(start) !== domain) return false;
  if (start === 0) return true;
  return domain.startsWith('.') || what[start - 1] === '.';
}
