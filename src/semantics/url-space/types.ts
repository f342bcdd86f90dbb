/**
 * The public shapes of the URL-space model (see index.ts for what it answers and how).
 */
import { Section } from '../../cst';
import { SourceFile } from '../../server/types';

/**
 * A `<Location>` as httpd matches it.
 * - `prefix`: `<Location path>`. Without wildcards httpd compares it with the URL-path (slashes merged)
 *   component-wise: `/foo` matches `/foo`, `/foo/…`, never `/foobar`; `/foo/` matches `/foo/…` only.
 *   With fnmatch wildcards (`*`, `?`, `[…]`) the whole URL-path must match, `*` never crossing `/`
 *   (`/a/*` matches `/a/x`, not `/a/x/y`); the model widens that to the literal part before the first
 *   wildcard and says so (`approximate`).
 * - `regex`: `<LocationMatch re>` / `<Location ~ re>`, matched against the URL-path.
 */
export type UrlPattern = { readonly kind: 'prefix'; readonly path: string } | { readonly kind: 'regex'; readonly source: string };

/**
 * A filesystem scope.
 * - `dir`: `<Directory path>`, absolute (relative paths are read against ServerRoot), fnmatch wildcards per
 *   component (`*` never crosses `/`); applies to that directory and everything below it;
 * - `dir-regex`: `<DirectoryMatch re>` / `<Directory ~ re>`, matched against the request's file name;
 * - `htaccess`: a per-directory file read in this absolute directory (the model assumes AllowOverride lets
 *   httpd read it).
 */
export type FsPattern =
  | { readonly kind: 'dir'; readonly path: string }
  | { readonly kind: 'dir-regex'; readonly source: string }
  | { readonly kind: 'htaccess'; readonly dir: string };

/** A configuration line the model cannot see through, and why. Line 0: the file (or server) as a whole. */
export interface Cause {
  readonly file: SourceFile;
  readonly line: number;
  readonly why: string;
}

export interface Meeting {
  /** Some request matched by the URL pattern maps (in a host where both sections apply) to a path the fs pattern covers. */
  readonly may: boolean;
  /** Every request matched by the URL pattern (in every host where it applies) maps to a path the fs pattern covers. */
  readonly surely: boolean;
  /**
   * Lines whose effect the model cannot know (RewriteRule with a file target, an unknown module's URL
   * directive, a DocumentRoot that is not set, a UserDir relative to home directories, a mapping line under
   * `<IfDefine>` …) that made `may` true or `surely` false; empty when the answer does not rest on them.
   */
  readonly unknown: readonly Cause[];
  /**
   * `may` is true and `surely` false, and that rests on a widening of the two patterns themselves (a regex
   * or wildcard `<Location>` read as its literal prefix, a `<DirectoryMatch>`, a wildcard component compared
   * by its literal part): httpd may say never, or always. `may` false and `surely` true are always sound.
   */
  readonly approximate: boolean;
}

export interface UrlSpace {
  /**
   * Whether a `<Location>` and a filesystem scope meet on one request.
   * locVhost/fsVhost: the `<VirtualHost>` section each sits in, or null at main-server level (applies to every host).
   */
  meets(loc: UrlPattern, locVhost: Section | null, fs: FsPattern, fsVhost: Section | null): Meeting;
  /** The hosts the model knows: null (the main server) and each `<VirtualHost>` section, in config order. */
  readonly hosts: readonly (Section | null)[];
}
