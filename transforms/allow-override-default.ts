// Upgrade note "Changed defaults: AllowOverride defaults to None in 2.4 (All in 2.2)".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const allowOverrideDefault: Transform = {
  id: 'allow-override-default',
  title: "Make AllowOverride explicit where 2.2's default (All) applied",
  row: 'Changed defaults: AllowOverride defaults to None in 2.4 (All in 2.2)',
  order: 140,
};
