/**
 * The ordered registry of transforms. Order is checked when this module loads:
 * ids are unique and every `runsAfter` names a transform with a lower order.
 */
import { accessToRequire } from './access-to-require';
import { loadModules } from './load-modules';
import { normalizeKeepAlive } from './normalize-keep-alive';
import { removeDefaultType } from './remove-default-type';
import { removeNameVirtualHost } from './remove-name-virtual-host';
import { renameMaxClients } from './rename-max-clients';
import { renameMaxRequestsPerChild } from './rename-max-requests-per-child';
import { Transform } from './types';

export function ordered(list: readonly Transform[]): Transform[] {
  const sorted = [...list].sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  const byId = new Map<string, Transform>();
  for (const t of sorted) {
    if (byId.has(t.id)) throw new Error(`duplicate transform id ${t.id}`);
    byId.set(t.id, t);
  }
  for (const t of sorted) {
    for (const dep of t.runsAfter ?? []) {
      const before = byId.get(dep);
      if (!before) throw new Error(`${t.id} runs after unknown transform ${dep}`);
      if (before.order >= t.order) throw new Error(`${t.id} (order ${t.order}) must run after ${dep} (order ${before.order})`);
    }
  }
  return sorted;
}

export const TRANSFORMS: readonly Transform[] = ordered([
  accessToRequire,
  renameMaxClients,
  renameMaxRequestsPerChild,
  removeNameVirtualHost,
  removeDefaultType,
  normalizeKeepAlive,
  loadModules,
]);

/** Picks transforms by id (`only` first, then `skip`); unknown ids are an error. */
export function selectTransforms(only: readonly string[] = [], skip: readonly string[] = []): Transform[] {
  const known = new Set(TRANSFORMS.map((t) => t.id));
  const unknown = [...only, ...skip].filter((id) => !known.has(id));
  if (unknown.length > 0) throw new Error(`unknown transform id: ${unknown.join(', ')} (see --list-transforms)`);
  return TRANSFORMS.filter((t) => (only.length === 0 || only.includes(t.id)) && !skip.includes(t.id));
}

export type { Transform } from './types';
