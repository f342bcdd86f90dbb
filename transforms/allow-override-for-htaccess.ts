// Upgrade note "Authorization: Require in .htaccess needs AllowOverride AuthConfig (Order/Allow/Deny needed Limit)".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const allowOverrideForHtaccess: Transform = {
  id: 'allow-override-for-htaccess',
  title: 'Make the AllowOverride governing a migrated .htaccess sufficient for Require',
  row: 'Authorization: Require in .htaccess needs AllowOverride AuthConfig (Order/Allow/Deny needed Limit)',
  order: 150,
};
