// Upgrade note "mod_cache: CacheIgnoreURLSessionIdentifiers now matches the identifier exactly".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const cacheSessionIdentifiers: Transform = {
  id: 'cache-session-identifiers',
  title: 'Report CacheIgnoreURLSessionIdentifiers (exact match in 2.4)',
  row: 'mod_cache: CacheIgnoreURLSessionIdentifiers now matches the identifier exactly',
  order: 600,
};
