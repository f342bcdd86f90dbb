/**
 * Checks the URL-space model against a real httpd: every `<Location>` / `<LocationMatch>` and `<Directory>`
 * / `<DirectoryMatch>` of a config marks the responses it applies to (`Header always set X-M-<n> 1`;
 * mod_headers appends the Header lines of every merged section, and `always` also marks redirects and
 * errors), requests are sent, and each (Location, Directory) pair the model answers is compared with what
 * the responses show:
 * - `may` false  ⇒ no response carries both marks;
 * - `surely` true ⇒ every response carrying the Location's mark carries the Directory's.
 */
import { ConfigFile, Section } from '../../src/cst';
import { FsPattern, fsPatternOf, Meeting, UrlPattern, urlPatternOf } from '../../src/semantics/url-space';

export interface MarkedSection {
  readonly id: number;
  readonly kind: 'location' | 'directory';
  readonly section: Section;
  readonly vhost: Section | null;
  readonly pattern: UrlPattern | FsPattern;
  readonly label: string;
}

/** The `<Location*>` and `<Directory*>` sections of a tree, numbered in document order. */
export function markableSections(tree: ConfigFile): MarkedSection[] {
  const out: MarkedSection[] = [];
  const visit = (body: ConfigFile['body'], vhost: Section | null) => {
    for (const node of body) {
      if (node.kind !== 'section') continue;
      const label = `${vhost ? `[${vhost.values.join(' ')} line ${vhost.line}] ` : ''}<${node.name} ${node.values.join(' ')}>`;
      const loc = urlPatternOf(node);
      const dir = fsPatternOf(node);
      if (loc) out.push({ id: out.length, kind: 'location', section: node, vhost, pattern: loc, label });
      else if (dir) out.push({ id: out.length, kind: 'directory', section: node, vhost, pattern: dir, label });
      visit(node.body, node.is('VirtualHost') ? node : vhost);
    }
  };
  visit(tree.body, null);
  return out;
}

/** The config text with a marker line after each marked section's opening line. */
export function withMarkers(text: string, sections: readonly MarkedSection[]): string {
  const byLine = new Map(sections.map((s) => [s.section.line, s.id]));
  return text
    .split('\n')
    .map((line, i) => (byLine.has(i + 1) ? `${line}\n    Header always set X-M-${byLine.get(i + 1)} 1` : line))
    .join('\n');
}

/** The marks a response carries. */
export function marksOf(headers: Record<string, string | string[] | undefined>): Set<number> {
  const out = new Set<number>();
  for (const name of Object.keys(headers)) {
    const m = /^x-m-(\d+)$/.exec(name);
    if (m) out.add(Number(m[1]));
  }
  return out;
}

export interface Observation {
  readonly host: string;
  readonly path: string;
  readonly status: number;
  readonly marks: ReadonlySet<number>;
}

export type Model = (loc: MarkedSection, dir: MarkedSection) => Meeting;

export interface CheckResult {
  readonly violations: string[];
  readonly pairs: number;
  readonly mayFalse: number;
  readonly mayTrue: number;
  /** may true and some response carries both marks. */
  readonly mayTrueSeen: number;
  readonly surelyTrue: number;
  /** surely true and some response carries the Location's mark. */
  readonly surelyTrueExercised: number;
  /** may true, surely false, and some response carrying the Location's mark lacks the Directory's. */
  readonly surelyFalseSeen: number;
  readonly withUnknown: number;
  readonly approximate: number;
}

export function check(sections: readonly MarkedSection[], observations: readonly Observation[], model: Model): CheckResult {
  const locations = sections.filter((s) => s.kind === 'location');
  const directories = sections.filter((s) => s.kind === 'directory');
  const violations: string[] = [];
  let pairs = 0;
  let mayFalse = 0;
  let mayTrue = 0;
  let mayTrueSeen = 0;
  let surelyTrue = 0;
  let surelyTrueExercised = 0;
  let surelyFalseSeen = 0;
  let withUnknown = 0;
  let approximate = 0;
  for (const loc of locations) {
    const withLoc = observations.filter((o) => o.marks.has(loc.id));
    for (const dir of directories) {
      pairs++;
      const m = model(loc, dir);
      if (m.unknown.length > 0) withUnknown++;
      if (m.approximate) approximate++;
      const both = withLoc.filter((o) => o.marks.has(dir.id));
      const missing = withLoc.filter((o) => !o.marks.has(dir.id));
      if (!m.may) {
        mayFalse++;
        for (const o of both.slice(0, 1)) violations.push(`may=false but ${o.host}${o.path} (${o.status}) met ${loc.label} and ${dir.label}`);
      } else {
        mayTrue++;
        if (both.length > 0) mayTrueSeen++;
      }
      if (m.surely) {
        surelyTrue++;
        if (withLoc.length > 0) surelyTrueExercised++;
        for (const o of missing.slice(0, 1)) violations.push(`surely=true but ${o.host}${o.path} (${o.status}) met ${loc.label} without ${dir.label}`);
      } else if (m.may && missing.length > 0) surelyFalseSeen++;
    }
  }
  return { violations, pairs, mayFalse, mayTrue, mayTrueSeen, surelyTrue, surelyTrueExercised, surelyFalseSeen, withUnknown, approximate };
}

/** Answers no response confirmed: `may` true without a response carrying both marks, `surely` false without one lacking the Directory's. */
export function unconfirmed(sections: readonly MarkedSection[], observations: readonly Observation[], model: Model): string[] {
  const out: string[] = [];
  for (const loc of sections.filter((s) => s.kind === 'location')) {
    const withLoc = observations.filter((o) => o.marks.has(loc.id));
    for (const dir of sections.filter((s) => s.kind === 'directory')) {
      const m = model(loc, dir);
      const seen = withLoc.some((o) => o.marks.has(dir.id));
      const missing = withLoc.some((o) => !o.marks.has(dir.id));
      if ((m.may && !seen) || (m.may && !m.surely && !missing)) {
        const why = m.unknown.map((c) => `line ${c.line}: ${c.why}`).join(' | ');
        out.push(`${loc.label} x ${dir.label}: may=${m.may} (seen ${seen}) surely=${m.surely} (missing seen ${missing}) approximate=${m.approximate} ${why}`);
      }
    }
  }
  return out;
}
