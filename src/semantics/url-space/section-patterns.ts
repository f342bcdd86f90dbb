/**
 * The patterns of the sections the model compares, read from the CST.
 */
import { Section } from '../../cst';
import { FsPattern, UrlPattern } from './types';

/** The pattern of a `<Location>` / `<LocationMatch>` section (`<Location ~ re>` is a regex); null for other sections. */
export function urlPatternOf(section: Section): UrlPattern | null {
  const name = section.lowerName;
  if (name !== 'location' && name !== 'locationmatch') return null;
  const [first = '', second = ''] = section.values;
  if (name === 'locationmatch') return { kind: 'regex', source: first };
  return first === '~' ? { kind: 'regex', source: second } : { kind: 'prefix', path: first };
}

/** The pattern of a `<Directory>` / `<DirectoryMatch>` section (`<Directory ~ re>` is a regex); null for other sections. */
export function fsPatternOf(section: Section): FsPattern | null {
  const name = section.lowerName;
  if (name !== 'directory' && name !== 'directorymatch') return null;
  const [first = '', second = ''] = section.values;
  if (name === 'directorymatch') return { kind: 'dir-regex', source: first };
  return first === '~' ? { kind: 'dir-regex', source: second } : { kind: 'dir', path: first };
}
