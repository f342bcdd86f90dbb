/** Sections that open a scope of their own: their contents are not the enclosing scope's rules. */
export const SCOPE_SECTIONS: ReadonlySet<string> = new Set([
  'directory',
  'directorymatch',
  'files',
  'filesmatch',
  'location',
  'locationmatch',
  'proxy',
  'proxymatch',
  'virtualhost',
]);
