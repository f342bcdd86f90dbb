// Upgrade notes "Misc changes": EnableSendfile now defaults to Off; FileETag now defaults to
// "MTime Size" (without INode); SSLProxyCheckPeerCN and SSLProxyCheckPeerExpire now default to On;
// mod_reqtimeout, if loaded, now sets default timeouts. Measured on 2.4.71, not in the notes:
// Options defaults to FollowSymLinks (2.2: All), Timeout to 60 (2.2: 300) and LimitRequestBody to
// 1 GiB (2.2: unlimited; changed in 2.4.54).
// Without --pin-defaults each default a main config relies on (no explicit server-level setting) is
// reported; with it, 2.2's value is written in the main server context: one block at the end of the
// main config, and the SSLProxyCheckPeer* lines right after the SSLProxyEngine line they concern.
// Fragments cannot show whether the main config sets a value: at most an info finding.
// Proven on a started server in __tests__/httpd-changed-defaults.test.ts (ETag with inode,
// sendfile calls, directory listing, 413 for a large Content-Length, idle timeout).
import { Directive, Node, NewLine, Section, ancestors, appendToFile, directives, insertAfter } from '../src/cst';
import { SourceFile } from '../src/server/types';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Severity, Transform } from './types';

/** <IfModule>, <IfDefine>, <IfVersion>, by lower-case name. */
const CONDITIONAL = new Set(['ifmodule', 'ifdefine', 'ifversion']);
const conditional = (s: Section) => CONDITIONAL.has(s.lowerName);

/** True when a node applies to the main server: only conditional sections around it. */
function serverLevel(node: Node): boolean {
  for (let p = node.parent; p !== null && p.kind === 'section'; p = p.parent) if (!conditional(p)) return false;
  return true;
}

/** The <VirtualHost> around a node, null at server level, undefined anywhere else. */
function scopeOf(node: Node): Section | null | undefined {
  const up = ancestors(node).filter((s) => !conditional(s));
  if (up.length === 0) return null;
  return up.length === 1 && up[0].is('VirtualHost') ? up[0] : undefined;
}

/** The lines of the server this transform reads with a given name (outside 2.2-only branches, in config order). */
type Named = (name: string) => readonly Directive[];

interface Setting {
  readonly name: string;
  readonly v22: string;
  readonly v24: string;
  readonly effect: string;
  readonly pinSeverity: Severity;
  /** Lines to write (default `${name} ${v22}`). */
  readonly lines?: NewLine[];
  /** Only when this holds for the server. */
  readonly when?: (named: Named) => boolean;
  /** Another way the server sets it explicitly. */
  readonly alsoSetBy?: (named: Named) => boolean;
}

const absoluteRootOptions = (named: Named) =>
  named('Options').some((d) => {
    if (d.values.some((v) => /^[+-]/.test(v))) return false;
    const dir = ancestors(d).find((s) => !conditional(s));
    return !!dir && dir.is('Directory') && ['/', '"/"'].includes(dir.values[0] ?? '') && serverLevel(dir);
  });

const SETTINGS: readonly Setting[] = [
  { name: 'Timeout', v22: '300', v24: '60', effect: 'idle connections and slow clients or backends are cut off after 60 s instead of 300 s', pinSeverity: 'info' },
  { name: 'EnableSendfile', v22: 'On', v24: 'Off', effect: 'static files are copied through user space instead of sent with sendfile()', pinSeverity: 'info' },
  {
    name: 'FileETag',
    v22: 'INode MTime Size',
    v24: 'MTime Size',
    effect: 'ETags lose the inode part, so every cached validator changes once (and files on different inodes share ETags)',
    pinSeverity: 'info',
  },
  {
    name: 'LimitRequestBody',
    v22: '0',
    v24: '1073741824',
    effect: 'request bodies over 1 GiB are refused with 413 (2.4.54 and later; 2.2 had no limit)',
    pinSeverity: 'info',
  },
  {
    name: 'Options',
    v22: 'All',
    v24: 'FollowSymLinks',
    effect: 'directories without their own Options lose Indexes, Includes and ExecCGI (directory listings answer 403, SSI and CGI stop)',
    pinSeverity: 'review',
    alsoSetBy: absoluteRootOptions,
  },
  {
    name: 'RequestReadTimeout',
    v22: 'header=0 body=0',
    v24: 'header=20-40,MinRate=500 body=20,MinRate=500',
    effect: 'the loaded mod_reqtimeout now limits how long clients may take to send headers and body (408)',
    pinSeverity: 'info',
    lines: ['<IfModule reqtimeout_module>', { text: 'RequestReadTimeout header=0 body=0', depth: 1 }, '</IfModule>'],
    when: (named) => named('LoadModule').some((d) => d.values[0] === 'reqtimeout_module'),
  },
];

const PROXY_CHECKS = ['SSLProxyCheckPeerCN', 'SSLProxyCheckPeerExpire'];

/** Every directive this transform reads (lower case): the settings, what their conditions test, and the SSL proxy lines. */
const READS = [...new Set([...SETTINGS.map((s) => s.name), 'Options', 'LoadModule', ...PROXY_CHECKS, 'SSLProxyEngine'].map((n) => n.toLowerCase()))];

/** The lines named `name` of the files that apply on 2.4, in file order (module-level: V8 optimizes it once per run). */
function applyingLines(files: readonly SourceFile[], name: string): Directive[] {
  const out: Directive[] = [];
  for (const file of files) for (const d of directives(file.tree, name)) if (!isTwoTwoOnly(d)) out.push(d);
  return out;
}

export const pinChangedDefaults: Transform = {
  id: 'pin-changed-defaults',
  title: 'Report (or pin with --pin-defaults) settings whose default changed: EnableSendfile, FileETag, Options, Timeout, LimitRequestBody, RequestReadTimeout, SSLProxyCheckPeerCN/Expire',
  row: 'Changed defaults: EnableSendfile Off, FileETag MTime Size, SSLProxyCheckPeerCN/Expire On, mod_reqtimeout timeouts; measured: Options FollowSymLinks, Timeout 60, LimitRequestBody 1 GiB',
  order: 650,
  restores22Meaning: true,
  applyServer(server, ctx) {
    const pin = ctx.options.pinDefaults === true;
    // name by name from each file's name index (a walk over every line of every file was most of the cost)
    const files = server.files.filter((f) => f.role !== 'htaccess');
    const byName = new Map<string, Directive[]>();
    for (const name of READS) byName.set(name, applyingLines(files, name));
    const named: Named = (name) => byName.get(name.toLowerCase()) ?? [];
    const engines: { file: SourceFile; d: Directive }[] = [];
    for (const file of files) for (const d of directives(file.tree, 'SSLProxyEngine')) if (!isTwoTwoOnly(d)) engines.push({ file, d });
    const main = server.main;

    if (main) {
      const lines: NewLine[] = [];
      const pinned: Setting[] = [];
      for (const s of SETTINGS) {
        if (s.when && !s.when(named)) continue;
        const explicit = named(s.name).some(serverLevel) || (s.alsoSetBy?.(named) ?? false);
        if (explicit) continue;
        if (pin) {
          lines.push(...(s.lines ?? [`${s.name} ${s.v22}`]));
          pinned.push(s);
        } else {
          ctx.noteIn(
            main,
            null,
            'default-changed',
            `${s.name}: nothing sets it at server level, and its default changed from "${s.v22}" (2.2) to "${s.v24}" (2.4): ${s.effect}. ` +
              `Run with --pin-defaults to keep "${s.name} ${s.v22}"`,
            'info',
          );
        }
      }
      if (lines.length > 0) {
        appendToFile(main.tree, ['# httpd 2.2 defaults kept by httpd-codemod --pin-defaults (2.4 changed them):', ...lines]);
        for (const s of pinned) {
          ctx.noteIn(
            main,
            null,
            'default-pinned',
            `wrote "${s.name} ${s.v22}" at the end of the main config: 2.4's default is "${s.v24}" (${s.effect})` +
              (s.name === 'Options' ? '. Options All enables Indexes, Includes and ExecCGI wherever a directory sets no Options: check that this is wanted' : ''),
            s.pinSeverity,
          );
        }
      }
    }

    // SSLProxyCheckPeerCN / SSLProxyCheckPeerExpire: where SSLProxyEngine is on
    const serverSet = new Set(PROXY_CHECKS.flatMap(named).filter(serverLevel).map((d) => d.name.toLowerCase()));
    for (const { file, d } of engines) {
      if ((d.values[0] ?? '').toLowerCase() !== 'on') continue;
      const scope = scopeOf(d);
      if (scope === undefined) continue;
      const own = scope ? [...directives(scope, ...PROXY_CHECKS)].filter((x) => !isTwoTwoOnly(x)).map((x) => x.name.toLowerCase()) : [];
      const missing = PROXY_CHECKS.filter((n) => !serverSet.has(n.toLowerCase()) && !own.includes(n.toLowerCase()));
      if (missing.length === 0) continue;
      const effect =
        'proxied HTTPS requests to a backend whose certificate is expired or does not name the backend host fail with 500 ' +
        '(2.4 checks by default, even with SSLProxyVerify none; 2.2 did not)';
      if (!main) {
        ctx.noteIn(file, d, 'default-changed', `${missing.join(' and ')} default to On in 2.4 (Off in 2.2): ${effect}. Set them in the main config or here if the backends need it`, 'info');
      } else if (!pin) {
        ctx.noteIn(file, d, 'default-changed', `${missing.join(' and ')} default to On in 2.4 (Off in 2.2): ${effect}. Run with --pin-defaults to keep 2.2's Off, or check the backend certificates`, 'review');
      } else {
        insertAfter(d, missing.map((n) => `${n} off`));
        ctx.noteIn(
          file,
          d,
          'default-pinned',
          `wrote ${missing.map((n) => `"${n} off"`).join(' and ')} (2.2's behaviour): otherwise ${effect}. Better: give the backends valid certificates and remove these lines`,
          'review',
        );
      }
    }
  },
};
