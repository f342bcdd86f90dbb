/** Small builders for access-model tests: method masks and host entries as httpd reads them. */
import { classifyHostWord } from '../../src/semantics/access/ip-match';
import { ALL_METHODS, AccessEntry, MethodMask } from '../../src/semantics/access/types';

export const limit = (...methods: string[]): MethodMask => ({ except: false, methods });
export const limitExcept = (...methods: string[]): MethodMask => ({ except: true, methods });

/** One `Allow from` / `Deny from` word as an entry; a word httpd would refuse throws. */
export function hostEntry(word: string, methods: MethodMask = ALL_METHODS): AccessEntry {
  const entry = classifyHostWord(word);
  if ('error' in entry) throw new Error(`bad word ${word}: ${entry.error}`);
  return { entry, methods };
}
