/**
 * httpd 2.2's per-directory merge of the access-control pieces, each by its
 * own rule (docs/research/access-semantics.md §3):
 * - Order/Allow/Deny (mod_authz_host, no merger): the nearest scope with a record wins whole;
 * - Require (core): the nearest scope with any Require line replaces all of them;
 * - Satisfy (core): per method, the nearest scope that set it for that method;
 * - AuthType, AuthDBMGroupFile, each Authz*Authoritative: nearest scope that set it.
 */
import { Authoritative, Effective22, ScopeRules22 } from './types';

const AUTHORITATIVE_DEFAULTS: Authoritative = { user: true, groupFile: true, dbm: true, owner: true, default: true };

/** Last defined value along the chain, else the fallback. */
function nearest<T>(chain: readonly ScopeRules22[], pick: (scope: ScopeRules22) => T | null | undefined, fallback: T): T {
  for (let i = chain.length - 1; i >= 0; i--) {
    const value = pick(chain[i]);
    if (value !== null && value !== undefined) return value;
  }
  return fallback;
}

/** `chain` runs from the outermost scope (server config) to the innermost (the request's section or .htaccess). */
export function merge22(chain: readonly ScopeRules22[]): Effective22 {
  const authoritative = { ...AUTHORITATIVE_DEFAULTS };
  for (const key of Object.keys(AUTHORITATIVE_DEFAULTS) as (keyof Authoritative)[]) {
    authoritative[key] = nearest(chain, (scope) => scope.authoritative[key], AUTHORITATIVE_DEFAULTS[key]);
  }
  return {
    host: nearest(chain, (scope) => scope.host, null),
    requires: nearest(chain, (scope) => (scope.requires && scope.requires.length > 0 ? scope.requires : null), []),
    // Later settings win per method, so the concatenation keeps the nearest one in force.
    satisfy: chain.flatMap((scope) => scope.satisfy),
    authType: nearest(chain, (scope) => scope.authType, null),
    dbmGroups: nearest(chain, (scope) => scope.dbmGroups, false),
    authoritative,
  };
}
