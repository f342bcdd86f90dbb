// Upgrade note "Changed defaults: EnableSendfile off, FileETag MTime Size, SSLProxyCheckPeerCN/Expire on".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const pinChangedDefaults: Transform = {
  id: 'pin-changed-defaults',
  title: 'Report (or pin with --pin-defaults) EnableSendfile, FileETag, SSLProxyCheckPeerCN/Expire',
  row: 'Changed defaults: EnableSendfile off, FileETag MTime Size, SSLProxyCheckPeerCN/Expire on',
  order: 650,
};
