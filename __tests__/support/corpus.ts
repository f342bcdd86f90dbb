/** The shared real-world corpus: `../shared/corpus` beside the repository (read-only). */
import * as fs from 'fs';
import * as path from 'path';

export const CORPUS_DIR = path.resolve(__dirname, '..', '..', '..', 'shared', 'corpus');

if (!fs.existsSync(path.join(CORPUS_DIR, 'PROVENANCE.tsv'))) {
  throw new Error(`the shared corpus is missing: expected ${CORPUS_DIR}/PROVENANCE.tsv beside the repository`);
}
