// Upgrade note "Misc: the mutex directives are replaced by Mutex mechanism[:directory] name".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const replaceMutexDirectives: Transform = {
  id: 'replace-mutex-directives',
  title: 'Replace AcceptMutex, LockFile, SSLMutex, RewriteLock, SSLStaplingMutex, WatchdogMutexPath with Mutex',
  row: 'Misc: the mutex directives are replaced by Mutex mechanism[:directory] name',
  order: 450,
};
