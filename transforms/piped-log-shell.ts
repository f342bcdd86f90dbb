// Upgrade note "Logging: piped ErrorLog/CustomLog commands run without a shell unless written |$command".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const pipedLogShell: Transform = {
  id: 'piped-log-shell',
  title: 'Keep piped log commands that need a shell working (|$command)',
  row: 'Logging: piped ErrorLog/CustomLog commands run without a shell unless written |$command',
  order: 430,
};
