/**
 * mod_authz_host's check_dir_access (2.2; 2.4's mod_access_compat is the same
 * code): the per-method Order and the Allow/Deny lists limited to the method.
 * Reference: docs/research/access-semantics.md §2.2.
 */
import { AccessEntry, HostEntry, HostRecord, Order, Request } from './types';
import { hostMatches, ipMatches } from './ip-match';
import { maskContains } from './method-mask';

/** The Order in force for a method: the last Order line whose methods include it; default Deny,Allow. */
export function orderFor(record: HostRecord, method: string): Order {
  let order: Order = 'deny,allow';
  for (const line of record.orders) if (maskContains(line.methods, method)) order = line.order;
  return order;
}

export function entriesFor(entries: readonly AccessEntry[], method: string): HostEntry[] {
  return entries.filter((e) => maskContains(e.methods, method)).map((e) => e.entry);
}

export function envIsSet(req: Request, name: string): boolean {
  const wanted = name.toLowerCase();
  return req.env.some((v) => v.toLowerCase() === wanted);
}

/**
 * One Allow/Deny word against the request. `env=!VAR` takes 2.4
 * mod_access_compat's meaning (VAR unset); 2.2 itself read it as a variable
 * literally named `!VAR`, which no config sets.
 */
export function entryMatches(entry: HostEntry, req: Request): boolean {
  switch (entry.kind) {
    case 'all':
      return true;
    case 'ip':
      return ipMatches(entry.spec, req.ip);
    case 'host':
      return hostMatches(entry.name, req.hostName);
    case 'env':
      return entry.negated ? !envIsSet(req, entry.name) : envIsSet(req, entry.name);
    case 'never':
      return false;
  }
}

/** True when the host rules let the request through; no record at all lets everyone through. */
export function hostRulesAllow(record: HostRecord | null, req: Request): boolean {
  if (!record) return true;
  const allowed = entriesFor(record.allows, req.method).some((e) => entryMatches(e, req));
  const denied = entriesFor(record.denys, req.method).some((e) => entryMatches(e, req));
  switch (orderFor(record, req.method)) {
    case 'deny,allow':
      return allowed || !denied;
    case 'allow,deny':
    case 'mutual-failure':
      return allowed && !denied;
  }
}
