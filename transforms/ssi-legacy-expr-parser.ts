// Upgrade note "mod_include: #if expr uses the new expression parser".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const ssiLegacyExprParser: Transform = {
  id: 'ssi-legacy-expr-parser',
  title: 'Report SSI #if expr syntax (SSILegacyExprParser)',
  row: 'mod_include: #if expr uses the new expression parser',
  order: 615,
};
