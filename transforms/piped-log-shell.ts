// Upgrade note "Logging: piped ErrorLog/CustomLog commands run without a shell unless written |$command".
//
// 2.2 ran every `|command` log target through /bin/sh -c. 2.4.71 runs `|command` (and `||command`) directly:
// no shell, no PATH search (measured, research doc §5): `"|cat >> FILE"` stops the server from starting
// (AH00104 / AH00089 + AH00015), `"|/bin/cat >> FILE"` starts but passes `>>` to cat as a file name and the
// log is lost. `|$command` runs /bin/sh -c as 2.2 did. So a command that needs the shell — a redirect, a
// pipe, `;`, `&`, `$VAR`, backquotes, globbing, quotes or backslashes, `~`, a leading `NAME=value`, or a
// program named without a `/` (found through PATH) — gets `|$`. A plain `|/abs/program args` stays: without
// the shell httpd manages the logger process itself. `${NAME}` is httpd's own variable syntax (replaced
// before the command runs), not the shell's.
import { ConfigFile, Directive, directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

const PIPED_LOGS = ['ErrorLog', 'CustomLog', 'TransferLog'];

/** Characters that mean nothing special to /bin/sh in a word. */
const PLAIN = /^[A-Za-z0-9_./:=+,%@-]*$/;

/** Why the command needs /bin/sh, or null when it runs the same without one. */
export function shellNeed(command: string): string | null {
  const text = command.replace(/\$\{[A-Za-z0-9_]+\}/g, 'X').trim(); // httpd's ${NAME}: resolved before the pipe opens
  if (text === '') return null;
  const words = text.split(/[ \t]+/);
  if (/[<>]/.test(text)) return 'a redirection';
  if (/\|/.test(text)) return 'a pipe';
  if (/[;&]/.test(text)) return 'a command separator';
  if (/[$`]/.test(text)) return 'a shell variable or command substitution';
  if (/['"\\]/.test(text)) return 'shell quoting';
  if (/[*?[\]]/.test(text)) return 'a wildcard';
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) return 'a variable assignment';
  if (!words[0].includes('/')) return `a program found through PATH (${words[0]})`;
  if (!words.every((w) => PLAIN.test(w))) return 'characters the shell interprets';
  return null;
}

/** Inserts `$` after the leading `|` of the word's raw text, keeping its quoting. */
function addShell(d: Directive): void {
  const word = d.args[0];
  const bar = word.raw.indexOf('|');
  const at = word.start + bar + 1;
  d.raw = d.raw.slice(0, at) + '$' + d.raw.slice(at);
}

function namesPipe(d: Directive): boolean {
  return (d.values[0] ?? '').startsWith('|');
}

/** Some log line of the file names a pipe (module-level helpers: V8 optimizes them once per run). */
function holdsPipe(tree: ConfigFile): boolean {
  for (const name of PIPED_LOGS) if (directives(tree, name).some(namesPipe)) return true;
  return false;
}

export const pipedLogShell: Transform = {
  id: 'piped-log-shell',
  title: 'Keep piped log commands that need a shell working (|$command)',
  row: 'Logging: piped ErrorLog/CustomLog commands run without a shell unless written |$command',
  order: 430,
  triggers: { directives: PIPED_LOGS },
  applyFile(tree, ctx) {
    // most log lines name a file: a look at each name's lines first spares the walk in file order below
    if (!holdsPipe(tree)) return;
    for (const d of directives(tree, ...PIPED_LOGS)) {
      if (isTwoTwoOnly(d)) continue;
      const target = d.values[0] ?? '';
      // `|$…` is already 2.4's shell form; `||…` is 2.4's explicit no-shell form (2.2 had no such syntax)
      if (!target.startsWith('|') || target.startsWith('||') || target.startsWith('|$')) continue;
      const why = shellNeed(target.slice(1));
      if (why === null) continue;
      addShell(d);
      ctx.note(
        d,
        'piped-log-shell',
        `${d.name} pipe written |$…: 2.4 runs a piped log command without a shell unless it starts with |$, and this one needs the shell (${why}), as 2.2 ran it`,
        'info',
      );
    }
  },
};
