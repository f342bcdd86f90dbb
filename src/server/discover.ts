/**
 * discover(paths) → the servers to migrate, loaded (texts and trees): planServers
 * (plan-servers.ts), then each server read and parsed (load-server.ts). The run itself plans
 * first and loads each server when its turn comes (run/main.ts).
 */
import { DiscoverOptions, Discovery } from './types';
import { loadServer } from './load-server';
import { planServers } from './plan-servers';

export { planServers };

/** Plans and loads every server at once: for tests and tools that want the trees in hand. */
export function discover(paths: readonly string[], options: DiscoverOptions = {}): Discovery {
  const plan = planServers(paths, options);
  const errors = [...plan.errors];
  const servers = [];
  for (const p of plan.servers) {
    const loaded = loadServer(p);
    for (const f of loaded.failed) errors.push(f.error);
    if (loaded.server.files.length > 0) servers.push(loaded.server);
  }
  return { servers, errors, skipped: plan.skipped };
}
