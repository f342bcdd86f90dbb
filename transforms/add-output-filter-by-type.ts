// Upgrade note "mod_filter: AddOutputFilterByType moved from the core to mod_filter".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const addOutputFilterByType: Transform = {
  id: 'add-output-filter-by-type',
  title: 'Load mod_filter for AddOutputFilterByType',
  row: 'mod_filter: AddOutputFilterByType moved from the core to mod_filter',
  order: 510,
};
