// Upgrade note "mod_ssl: *_DN variables use the RFC 2253 format".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const sslLegacyDnFormat: Transform = {
  id: 'ssl-legacy-dn-format',
  title: 'Report *_DN variables (RFC 2253 format; +LegacyDNStringFormat)',
  row: 'mod_ssl: *_DN variables use the RFC 2253 format',
  order: 625,
};
