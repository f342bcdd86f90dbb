/**
 * httpd 2.2's answer to a request under a merged configuration:
 * ap_process_request_internal's Satisfy switch over mod_authz_host (access
 * checker), authentication and the auth_checker modules.
 * Reference: docs/research/access-semantics.md §1, §1.1, §2.2, §4.
 */
import { Effective22, Outcome, Request, SatisfySetting } from './types';
import { maskContains } from './method-mask';
import { hostRulesAllow } from './host-rules22';
import { authorize22 } from './authz-modules22';

/** Core's per-method Satisfy: the last setting covering the method; unset means All. */
export function satisfyFor(settings: readonly SatisfySetting[], method: string): 'all' | 'any' {
  let value: 'all' | 'any' = 'all';
  for (const s of settings) if (maskContains(s.methods, method)) value = s.value;
  return value;
}

/** The words of each Require line whose methods include this one (ap_some_auth_required when non-empty). */
export function requireLinesFor(eff: Effective22, method: string): (readonly string[])[] {
  return eff.requires.filter((r) => maskContains(r.methods, method)).map((r) => r.words);
}

/** check_user_id then auth_checker; without AuthType no module authenticates: 500 "AuthType not set!". */
function authenticateAndAuthorize(eff: Effective22, lines: readonly (readonly string[])[], req: Request): Outcome {
  if (!eff.authType) return 500;
  const creds = req.credentials;
  if (creds.kind !== 'user') return 401;
  return authorize22(eff, lines, creds.user, creds.groups, req.file);
}

export function evaluate22(eff: Effective22, req: Request): Outcome {
  const hostOk = hostRulesAllow(eff.host, req);
  const lines = requireLinesFor(eff, req.method);
  if (satisfyFor(eff.satisfy, req.method) === 'all') {
    if (!hostOk) return 403;
    return lines.length === 0 ? 200 : authenticateAndAuthorize(eff, lines, req);
  }
  if (hostOk) return 200;
  return lines.length === 0 ? 403 : authenticateAndAuthorize(eff, lines, req);
}
