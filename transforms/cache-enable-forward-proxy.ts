// Upgrade note "mod_cache: CacheEnable needs a URL prefix for forward-proxy content".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const cacheEnableForwardProxy: Transform = {
  id: 'cache-enable-forward-proxy',
  title: 'Report CacheEnable for forward-proxy content',
  row: 'mod_cache: CacheEnable needs a URL prefix for forward-proxy content',
  order: 605,
};
