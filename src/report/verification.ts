/** `--verify` on stderr: one line per server, then httpd's messages for a refused one. */
import { Mode } from '../model/run-report';
import { ServerOutcome, Verification, VerificationMessage } from '../model/server-outcome';

function where(m: VerificationMessage): string {
  return m.file ? `${m.file}${m.line !== undefined ? ':' + m.line : m.migratedLine !== undefined ? ` (migrated line ${m.migratedLine})` : ''}: ` : '';
}

function summary(v: Verification): string {
  const judge = v.httpd ? v.httpd.split(' ')[0] : 'httpd';
  const warnings = v.messages.length > 0 ? `, ${v.messages.length} message${v.messages.length === 1 ? '' : 's'}` : '';
  const r = v.requests;
  const replay = r
    ? `; ${r.sent} request${r.sent === 1 ? '' : 's'} replayed${r.static.evaluated > 0 ? ` and ${r.static.evaluated} judged statically` : ''}, ${r.mismatches.length + r.static.mismatches.length === 0 ? 'all answered as 2.2 did' : `${r.mismatches.length + r.static.mismatches.length} answered otherwise`}`
    : '';
  return `${judge} -t passed${warnings}${replay}`;
}

/** One line per verified or refused server, in plan order (a refused server's messages follow, indented), and one line for the files that could not be verified on their own. */
export function verificationLines(servers: readonly ServerOutcome[], mode: Mode, options: { quiet?: boolean } = {}): string[] {
  const lines: string[] = [];
  const skipped: string[] = [];
  let reason = '';
  for (const s of servers) {
    const v = s.verification;
    if (!v) continue;
    const name = s.main ?? s.files[0]?.path ?? s.id;
    if (v.skipped) {
      skipped.push(name);
      reason = v.skipped;
    } else if (v.verified) {
      lines.push(`verify: ok ${name} (${summary(v)})`);
    } else {
      lines.push(`verify: REFUSED ${name}${mode === 'write' ? ' (not written)' : ''}`);
      for (const m of v.messages) lines.push(`  ${where(m)}${m.text}${m.explanation ? `\n    explain: ${m.explanation}` : ''}`);
      const r = v.requests;
      if (r) {
        for (const m of [...r.mismatches, ...r.static.mismatches].slice(0, 20)) lines.push(`  ${m.request}: 2.2 answered ${m.expected}, the migrated server ${m.actual}`);
        const more = r.mismatches.length + r.static.mismatches.length - 20;
        if (more > 0) lines.push(`  ... ${more} more (--format json lists all)`);
      }
    }
  }
  // fragments (Debian's mods-available/*, disabled sites) are many: one line for all of them
  if (skipped.length > 0 && !options.quiet) {
    const shown = skipped.slice(0, 3).join(', ') + (skipped.length > 3 ? ` and ${skipped.length - 3} more` : '');
    lines.push(`verify: skipped ${skipped.length === 1 ? '' : `${skipped.length} files: `}${shown}: ${reason}`);
  }
  return lines;
}
