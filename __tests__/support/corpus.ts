/** The shared real-world corpus: `../shared/corpus` beside the repository (read-only). */
import * as fs from 'fs';
import * as path from 'path';

const expected = path.resolve(__dirname, '..', '..', '..', 'shared', 'corpus');

if (!fs.existsSync(path.join(expected, 'PROVENANCE.tsv'))) {
  throw new Error(`the shared corpus is missing: expected ${expected}/PROVENANCE.tsv beside the repository`);
}

/** Real path (shared/ may be a link), as discovery reports real paths. */
export const CORPUS_DIR = fs.realpathSync(expected);
