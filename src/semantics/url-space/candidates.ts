/**
 * Which line of a "last one wins" directive (DocumentRoot, UserDir, VirtualDocumentRoot…) decides for a
 * host: the last line that surely applies, or any of the lines after it that may; a virtual host's own
 * lines replace the main server's when one of them surely applies.
 */
import { ContextFacts, Entry } from './read-config';
import { Cause } from './types';

export interface Candidates {
  /** Lines that may decide, latest last. */
  readonly entries: readonly Entry[];
  /** No line may apply for sure: the directive may be unset. */
  readonly mayBeUnset: boolean;
  /** Why there is more than one candidate (the conditions of the uncertain lines). */
  readonly choice: readonly Cause[];
}

type Accept = (e: Entry) => boolean;

interface OfContext {
  readonly sure: Entry | null;
  readonly after: readonly Entry[];
}

/**
 * Answers kept per context and test: every host of a server asks about the main server's lines
 * with the same (module-level) tests. A copy made for one question without lines (ServerPath reads
 * a virtual host's own) is answered at once, not kept.
 */
const answers = new WeakMap<ContextFacts, Map<Accept, OfContext>>();

const NO_LINES: OfContext = { sure: null, after: [] };

function ofContext(ctx: ContextFacts, accept: Accept): OfContext {
  // a copy made for one question holds no lines: nothing to keep for it
  if (ctx.directives.length === 0) return NO_LINES;
  let byTest = answers.get(ctx);
  if (!byTest) answers.set(ctx, (byTest = new Map()));
  let answer = byTest.get(accept);
  if (!answer) byTest.set(accept, (answer = scanContext(ctx, accept)));
  return answer;
}

function scanContext(ctx: ContextFacts, accept: Accept): OfContext {
  let sure: Entry | null = null;
  let after: Entry[] = [];
  for (const e of ctx.directives) {
    if (!accept(e) || e.cert.kind === 'no') continue;
    if (e.cert.kind === 'yes') {
      sure = e;
      after = [];
    } else after.push(e);
  }
  return { sure, after };
}

/** `accept` should be made once (a module-level function): answers are kept per test. */
export function candidates(main: ContextFacts, vhost: ContextFacts | null, accept: Accept): Candidates {
  const m = ofContext(main, accept);
  let entries: Entry[] = [...(m.sure ? [m.sure] : []), ...m.after];
  let mayBeUnset = m.sure === null;
  if (vhost) {
    const v = ofContext(vhost, accept);
    if (v.sure) {
      entries = [v.sure, ...v.after];
      mayBeUnset = false;
    } else entries = [...entries, ...v.after];
  }
  const choice = entries.flatMap((e) => (e.cert.kind === 'maybe' ? e.cert.causes : []));
  return { entries, mayBeUnset, choice };
}
