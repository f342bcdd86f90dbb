// Upgrade note "Logging: DumpIOLogLevel is replaced by LogLevel dumpio:trace7".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const dumpIoLogLevel: Transform = {
  id: 'dump-io-log-level',
  title: 'Replace DumpIOLogLevel with LogLevel dumpio:trace7',
  row: 'Logging: DumpIOLogLevel is replaced by LogLevel dumpio:trace7',
  order: 410,
};
