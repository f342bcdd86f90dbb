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

function ofContext(ctx: ContextFacts, accept: (e: Entry) => boolean): { sure: Entry | null; after: Entry[] } {
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

export function candidates(main: ContextFacts, vhost: ContextFacts | null, accept: (e: Entry) => boolean): Candidates {
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
