// Upgrade note "mod_substitute: lines longer than 1 MB are an error (SubstituteMaxLineLength)".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const substituteLineLimit: Transform = {
  id: 'substitute-line-limit',
  title: 'Report mod_substitute line length limit',
  row: 'mod_substitute: lines longer than 1 MB are an error (SubstituteMaxLineLength)',
  order: 630,
};
