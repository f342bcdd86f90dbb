/**
 * The real-world corpus the tests read: `__tests__/corpus/`, a copy kept in the repository
 * (PROVENANCE.tsv gives each file's source, LICENSES.md their licences). Read-only.
 */
import * as fs from 'fs';
import * as path from 'path';

const expected = path.resolve(__dirname, '..', 'corpus');

if (!fs.existsSync(path.join(expected, 'PROVENANCE.tsv'))) {
  throw new Error(`the corpus is missing: expected ${expected}/PROVENANCE.tsv in the repository`);
}

/** Real path, as discovery reports real paths. */
export const CORPUS_DIR = fs.realpathSync(expected);
