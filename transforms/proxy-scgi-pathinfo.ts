// Upgrade note "mod_proxy_scgi: PATH_INFO is no longer derived unless proxy-scgi-pathinfo is set".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const proxyScgiPathinfo: Transform = {
  id: 'proxy-scgi-pathinfo',
  title: 'Report proxy-scgi-pathinfo',
  row: 'mod_proxy_scgi: PATH_INFO is no longer derived unless proxy-scgi-pathinfo is set',
  order: 620,
};
