/**
 * `codemod explain "<message>"`: from an httpd 2.4 error or warning message,
 * the cause, the transform that fixes it, and the manual remedy.
 */
export interface Explanation {
  /** Text to print. */
  readonly text: string;
  /** Whether any known message matched. */
  readonly matched: boolean;
}

export function explain(message: string): Explanation {
  return { text: `no explanation known for: ${message}\n`, matched: false };
}
