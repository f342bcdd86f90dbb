// Upgrade note "mod_filter: FilterProvider takes a boolean expression instead of dispatch and match".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const filterProviderExpression: Transform = {
  id: 'filter-provider-expression',
  title: 'Rewrite the old FilterProvider syntax as a 2.4 expression',
  row: 'mod_filter: FilterProvider takes a boolean expression instead of dispatch and match',
  order: 500,
};
