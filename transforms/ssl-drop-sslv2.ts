// Upgrade note "mod_ssl: SSLv2 support is removed".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const sslDropSslv2: Transform = {
  id: 'ssl-drop-sslv2',
  title: 'Remove SSLv2 from SSLProtocol and SSLCipherSuite',
  row: 'mod_ssl: SSLv2 support is removed',
  order: 470,
};
