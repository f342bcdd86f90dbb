/**
 * `--report-dir DIR`: the review site. As each server's outcome arrives (in plan order, the same
 * for any --jobs), its files are written and the outcome can be released: `<id>.patch` (when it
 * has changes; `git apply` accepts it), `<id>.json` (its entry of the JSON report) and
 * `<id>.html` (its page). At the end, `index.html` (one row per server) and the style sheets
 * (diff2html's, copied from the package, and review.css). Static files: they open from disk.
 */
import * as fs from 'fs';
import * as path from 'path';
import { InputError, ServerOutcome } from '../../model/server-outcome';
import { asciiJson } from '../ascii-json';
import { serverEntry } from '../json';
import { countBySeverity, serverLabel } from './html';
import { ServerRow, SiteRun, indexPage } from './index-page';
import { serverPage } from './server-page';
import { REVIEW_CSS } from './style';

export class ReportSite {
  private readonly rows: ServerRow[] = [];
  private readonly errors: InputError[] = [];

  /** Creates DIR (and its parents); throws when it cannot. */
  constructor(private readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  private write(name: string, data: string | Buffer): void {
    try {
      fs.writeFileSync(path.join(this.dir, name), data);
    } catch (error) {
      this.errors.push({ path: path.join(this.dir, name), message: `cannot write the report: ${(error as Error).message}` });
    }
  }

  addServer(s: ServerOutcome): void {
    const counts = countBySeverity(s.findings);
    this.rows.push({
      id: s.id,
      main: s.main,
      label: serverLabel(s),
      status: s.status,
      files: s.files.length,
      changed: s.files.filter((f) => f.status === 'changed').length,
      ...counts,
      errors: s.errors.length,
    });
    if (s.patch) this.write(`${s.id}.patch`, Buffer.from(s.patch, 'latin1'));
    this.write(`${s.id}.json`, asciiJson(serverEntry(s)));
    this.write(`${s.id}.html`, serverPage(s));
  }

  /** Writes the index and the style sheets; returns what could not be written. */
  finish(run: SiteRun): InputError[] {
    this.write('diff2html.min.css', fs.readFileSync(require.resolve('diff2html/bundles/css/diff2html.min.css')));
    this.write('review.css', REVIEW_CSS);
    this.write('index.html', indexPage(this.rows, run));
    return this.errors;
  }
}
