// Upgrade note "Core: DirectoryMatch no longer matches subdirectories of the matched directory".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const directoryMatchSubdirectories: Transform = {
  id: 'directory-match-subdirectories',
  title: 'Report DirectoryMatch no longer applying to subdirectories',
  row: 'Core: DirectoryMatch no longer matches subdirectories of the matched directory',
  order: 640,
};
