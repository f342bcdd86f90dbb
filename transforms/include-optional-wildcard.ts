// Upgrade note "Misc: Include of a wildcard that matches nothing is an error (IncludeOptional is not)".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const includeOptionalWildcard: Transform = {
  id: 'include-optional-wildcard',
  title: 'Use IncludeOptional for a wildcard Include that matches nothing',
  row: 'Misc: Include of a wildcard that matches nothing is an error (IncludeOptional is not)',
  order: 530,
};
