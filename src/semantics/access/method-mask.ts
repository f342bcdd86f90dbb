/**
 * `<Limit>` / `<LimitExcept>` method sets. httpd gives HEAD the method number of
 * GET, so HEAD is folded into GET everywhere; other names compare exactly.
 */
import { ALL_METHODS, MethodMask } from './types';

export function canonicalMethod(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}

/** Canonical names, duplicates removed, first-seen order kept. */
export function canonicalMethods(methods: readonly string[]): string[] {
  return [...new Set(methods.map(canonicalMethod))];
}

export function maskContains(mask: MethodMask, method: string): boolean {
  const wanted = canonicalMethod(method);
  const listed = mask.methods.some((m) => canonicalMethod(m) === wanted);
  return mask.except ? !listed : listed;
}

export function isAllMethods(mask: MethodMask | undefined): boolean {
  return mask === undefined || (mask.except && mask.methods.length === 0);
}

/** The methods of both masks (what nested `<Limit>` sections leave in force). */
export function intersectMasks(a: MethodMask, b: MethodMask): MethodMask {
  const as = canonicalMethods(a.methods);
  const bs = canonicalMethods(b.methods);
  if (a.except && b.except) return { except: true, methods: canonicalMethods([...as, ...bs]) };
  if (a.except) return { except: false, methods: bs.filter((m) => !as.includes(m)) };
  if (b.except) return { except: false, methods: as.filter((m) => !bs.includes(m)) };
  return { except: false, methods: as.filter((m) => bs.includes(m)) };
}

export function sameMask(a: MethodMask | undefined, b: MethodMask | undefined): boolean {
  const x = a ?? ALL_METHODS;
  const y = b ?? ALL_METHODS;
  if (x.except !== y.except) return false;
  const xs = canonicalMethods(x.methods).sort();
  const ys = canonicalMethods(y.methods).sort();
  return xs.length === ys.length && xs.every((m, i) => m === ys[i]);
}

export function isEmptyMask(mask: MethodMask): boolean {
  return !mask.except && mask.methods.length === 0;
}
