// Upgrade note "Logging: RewriteLog and RewriteLogLevel are replaced by per-module LogLevel".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const rewriteLogToLogLevel: Transform = {
  id: 'rewrite-log-to-log-level',
  title: 'Replace RewriteLog/RewriteLogLevel with LogLevel rewrite:traceN',
  row: 'Logging: RewriteLog and RewriteLogLevel are replaced by per-module LogLevel',
  order: 400,
};
