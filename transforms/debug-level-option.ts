// Upgrade note "Logging: DebugLevel option of CharsetOptions and ExtFilterOptions is replaced by per-module LogLevel".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const debugLevelOption: Transform = {
  id: 'debug-level-option',
  title: 'Replace the DebugLevel= option of CharsetOptions/ExtFilterOptions with per-module LogLevel',
  row: 'Logging: DebugLevel option of CharsetOptions and ExtFilterOptions is replaced by per-module LogLevel',
  order: 420,
};
