/**
 * The host part of one method's 2.2 rules as a Require tree that is GRANTED
 * exactly when mod_authz_host lets the request through, else DENIED (never
 * NEUTRAL). With A = "an applicable Allow matches", D = "an applicable Deny
 * matches": Allow,Deny and Mutual-failure pass A ∧ ¬D; Deny,Allow passes A ∨ ¬D.
 */
import { HostEntry, HostRecord, RequireNode } from './types';
import { entriesFor, orderFor } from './host-rules22';
import { GRANTED, DENIED, allOf, anyOf, requireLeaf } from './require-tree';

export interface HostTree {
  readonly tree: RequireNode;
  readonly notes: string[];
}

interface Sorted {
  everyone: boolean;
  /** Positive words per provider, in the order each provider first appears. */
  lists: Map<'ip' | 'host' | 'env', string[]>;
  /** `env=!VAR` names (2.4 mod_access_compat: VAR unset). */
  unsetEnvs: string[];
}

function sortEntries(entries: readonly HostEntry[], notes: string[]): Sorted {
  const sorted: Sorted = { everyone: false, lists: new Map(), unsetEnvs: [] };
  const add = (provider: 'ip' | 'host' | 'env', word: string) => {
    const list = sorted.lists.get(provider) ?? [];
    sorted.lists.set(provider, [...list, word]);
  };
  for (const entry of entries) {
    switch (entry.kind) {
      case 'all':
        sorted.everyone = true;
        break;
      case 'ip':
        add('ip', entry.spec);
        break;
      case 'host':
        add('host', entry.name);
        break;
      case 'env':
        if (!entry.negated) {
          if (entry.name !== '') add('env', entry.name);
        } else if (entry.name === '') {
          sorted.everyone = true; // no variable is named "": always unset
        } else {
          sorted.unsetEnvs.push(entry.name);
          notes.push(
            `env=!${entry.name} was read with 2.4 mod_access_compat's meaning ("${entry.name} is unset"); httpd 2.2 took it for a variable literally named "!${entry.name}" that never matches`,
          );
        }
        break;
      case 'never':
        notes.push(`'${entry.word}' is taken by httpd for a host name no client can have; it never matched and was dropped`);
        break;
    }
  }
  return sorted;
}

/** GRANTED when some entry matches: `Require ip …`, `Require host …`, `Require env …` (one line each) in a RequireAny. */
function someMatch(s: Sorted): RequireNode {
  if (s.everyone) return GRANTED;
  const lines = [...s.lists].map(([provider, words]) => requireLeaf(provider, words));
  const unset = s.unsetEnvs.map((name) => allOf([GRANTED, requireLeaf('env', [name], true)]));
  return anyOf([...lines, ...unset]);
}

/** GRANTED when no entry matches: `Require not …` lines beside a positive in a RequireAll. */
function noMatch(s: Sorted): RequireNode {
  if (s.everyone) return DENIED;
  const lines = [...s.lists].map(([provider, words]) => requireLeaf(provider, words, true));
  const setEnvs = s.unsetEnvs.map((name) => requireLeaf('env', [name]));
  return allOf([GRANTED, ...setEnvs, ...lines]);
}

export function hostTreeFor(record: HostRecord | null, method: string): HostTree {
  if (!record) return { tree: GRANTED, notes: [] };
  const notes: string[] = [];
  const allows = sortEntries(entriesFor(record.allows, method), notes);
  const denys = sortEntries(entriesFor(record.denys, method), notes);
  const tree =
    orderFor(record, method) === 'deny,allow'
      ? anyOf([someMatch(allows), noMatch(denys)])
      : allOf([someMatch(allows), noMatch(denys)]);
  return { tree, notes };
}
