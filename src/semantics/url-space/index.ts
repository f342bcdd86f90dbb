/**
 * URL space → filesystem, per virtual host: which `<Location>` can meet which `<Directory>` (or
 * `<DirectoryMatch>`, or a per-directory file) on one request.
 *
 * ```ts
 * const space = buildUrlSpace(server.files);           // files of one server, config (Include) order
 * space.meets({ kind: 'prefix', path: '/server-status' }, null, { kind: 'dir', path: '/usr/local/apache2/uploads' }, null);
 * // → { may: false, surely: false, unknown: [], approximate: false }
 * ```
 *
 * `meets(loc, locVhost, fs, fsVhost)` answers, for the hosts where both sections apply (a main-server section
 * applies in every host: the main server and each `<VirtualHost>`; sections in two different virtual hosts
 * never meet):
 * - `may`: some request the Location matches is mapped to a path the fs scope covers;
 * - `surely`: every request the Location matches, in every host where it applies, is.
 * `unknown` names the lines the answer could not see through; `approximate` says it rests on reading a
 * regex or wildcard pattern as its literal prefix. `may` false and `surely` true are always sound (a
 * `<Location>` is assumed to match some URL).
 *
 * How a URL is mapped, per host, in httpd's translate_name order (2.2 and 2.4 alike; see host-rules.ts):
 * unknown modules' URL directives and hooks (unknown for their URLs) → RewriteRule at server / virtual-host
 * level with the engine on (a redirect, [F], [G] or [P] meets no directory; any other substitution is
 * unknown) → ProxyPass / ProxyPassMatch (a proxied request skips the directory walk) → Redirect* (meets no
 * directory) → Alias / ScriptAlias / AliasMatch / ScriptAliasMatch (virtual host's entries before the main
 * server's) → UserDir → VirtualDocumentRoot → DocumentRoot (the virtual host's, else the main server's).
 * The file name is then walked component by component: a `<Directory>` applies when its path is that
 * directory or one of its parents (wildcards match within one component).
 *
 * Assumptions (each sound for the access migration, which compares httpd 2.2 and 2.4):
 * - configured directories and DocumentRoots exist and are directories (a `<Directory>` naming a missing
 *   path never applies on httpd);
 * - the main server is a host only when some Listen address is not covered by a virtual host (listen-cover.ts);
 * - lines at the top level of an included file belong to the main server (an Include inside a
 *   `<VirtualHost>` cannot be seen in a list of files);
 * - a per-directory file is read where AllowOverride allows it;
 * - by default answers hold on 2.2 and 2.4 together (`version: 'both'`): 2.2 did not merge repeated slashes
 *   before translation, so `//x` escaped `RedirectMatch ^/x` and `UserDir` while `<Location /x>` still
 *   matched it; `version: '2.4'` drops that.
 * What does not change which sections one request meets (measured on 2.4.71, see docs/research/url-space.md):
 * per-directory RewriteRule and two-argument Redirect (fixups phase: an internal redirect is a new request
 * with its own walk), Action / AddHandler (the script runs in a new request after the original's walks and
 * access checks), DirectoryIndex, ErrorDocument, FallbackResource.
 */
import { Section } from '../../cst';
import { SourceFile } from '../../server/types';
import { Version } from './conditions';
import { Cover, coverOfDir, coverOfRegex } from './fs-sets';
import { hostRules } from './host-rules';
import { ContextFacts, readServer, readVirtualHost, ServerFacts } from './read-config';
import { Answer, follow, mayAnswer, Step, surelyAnswer } from './route';
import { Rule } from './rule';
import { Cause, FsPattern, Meeting, UrlPattern, UrlSpace } from './types';
import { locationUrlSet, UrlSet } from './url-sets';

export type { Cause, FsPattern, Meeting, UrlPattern, UrlSpace } from './types';
export type { Version } from './conditions';
export { fsPatternOf, urlPatternOf } from './section-patterns';

export interface UrlSpaceOptions {
  /** Which httpd the answers hold for (default `both`). */
  readonly version?: Version;
  /** ServerRoot when the files do not set it. */
  readonly serverRoot?: string;
}

function coverOf(fs: FsPattern): Cover {
  if (fs.kind === 'dir-regex') return coverOfRegex(fs.source);
  return coverOfDir(fs.kind === 'dir' ? fs.path : fs.dir);
}

function dedupe(causes: readonly Cause[]): Cause[] {
  const seen = new Map<string, Cause>();
  for (const c of causes) seen.set(`${c.file.realPath}\u0000${c.line}\u0000${c.why}`, c);
  return [...seen.values()];
}

function anyOf(answers: readonly Answer[]): Answer {
  const sure = answers.find((a) => a.value && a.causes.length === 0 && !a.approx) ?? answers.find((a) => a.value && a.causes.length === 0);
  if (sure) return sure;
  const possible = answers.filter((a) => a.value);
  if (possible.length === 0) return { value: false, causes: [], approx: false };
  return { value: true, causes: possible.flatMap((a) => a.causes), approx: possible.some((a) => a.approx) };
}

function allOf(answers: readonly Answer[]): Answer {
  if (answers.every((a) => a.value)) return { value: true, causes: [], approx: false };
  const sureNot = answers.find((a) => !a.value && a.causes.length === 0 && !a.approx) ?? answers.find((a) => !a.value && a.causes.length === 0);
  if (sureNot) return sureNot;
  const doubtful = answers.filter((a) => !a.value);
  return { value: false, causes: doubtful.flatMap((a) => a.causes), approx: doubtful.some((a) => a.approx) };
}

function fileOfSection(section: Section, files: readonly SourceFile[]): SourceFile | undefined {
  let top: unknown = section;
  while ((top as { parent?: unknown }).parent) top = (top as { parent: unknown }).parent;
  return files.find((f) => f.tree === top);
}

export function buildUrlSpace(files: readonly SourceFile[], options: UrlSpaceOptions = {}): UrlSpace {
  return new ServerUrlSpace(files, readServer(files, options));
}

/** One server's URL space. A class, not closures made per server, so V8 optimizes its methods once per run. */
class ServerUrlSpace implements UrlSpace {
  readonly hosts: readonly (Section | null)[];
  private readonly rulesByHost = new Map<Section | null, readonly Rule[]>();
  /** Where a Location's URLs go in a host does not depend on the fs scope asked about. */
  private readonly stepsCache = new Map<Section | null, Map<string, Step[]>>();

  constructor(
    private readonly files: readonly SourceFile[],
    private readonly server: ServerFacts,
  ) {
    this.hosts = [...(server.mainServes ? [null] : []), ...server.vhosts.keys()];
  }

  private contextOf(vhost: Section | null): ContextFacts | null {
    if (vhost === null) return null;
    const server = this.server;
    return server.vhosts.get(vhost) ?? readVirtualHost(vhost, fileOfSection(vhost, this.files) ?? server.main.file, server);
  }

  private rulesOf(vhost: Section | null): readonly Rule[] {
    let rules = this.rulesByHost.get(vhost);
    if (!rules) {
      rules = hostRules(this.server, this.contextOf(vhost));
      this.rulesByHost.set(vhost, rules);
    }
    return rules;
  }

  private stepsOf(urls: UrlSet, host: Section | null): Step[] {
    let byUrls = this.stepsCache.get(host);
    if (!byUrls) this.stepsCache.set(host, (byUrls = new Map()));
    const key = `${urls.kind}\u0000${urls.kind === 'none' ? '' : urls.p}`;
    let steps = byUrls.get(key);
    if (!steps) byUrls.set(key, (steps = follow(urls, this.rulesOf(host))));
    return steps;
  }

  meets(loc: UrlPattern, locVhost: Section | null, fs: FsPattern, fsVhost: Section | null): Meeting {
    if (locVhost && fsVhost && locVhost !== fsVhost) return { may: false, surely: false, unknown: [], approximate: false };
    const hosts = this.hosts;
    const urls = locationUrlSet(loc);
    const cover = coverOf(fs);
    const locHosts = locVhost ? [locVhost] : fsVhost && !hosts.includes(fsVhost) ? [...hosts, fsVhost] : hosts;
    const bothHosts = fsVhost ? [fsVhost] : locHosts;
    const mayAnswers: Answer[] = [];
    const surelyAnswers: Answer[] = [];
    for (const host of locHosts) {
      const steps = this.stepsOf(urls.set, host);
      if (bothHosts.includes(host)) mayAnswers.push(mayAnswer(steps, cover));
      // in a host where the fs scope does not apply, the Location's requests surely miss it
      surelyAnswers.push(bothHosts.includes(host) ? surelyAnswer(steps, cover) : { value: urls.set.kind === 'none', causes: [], approx: false });
    }
    const surely = allOf(surelyAnswers);
    // every request of the Location lands in the scope (and a Location matches some URL): so some does
    const may = surely.value && urls.set.kind !== 'none' ? { value: true, causes: [], approx: false } : anyOf(mayAnswers);
    const unknown = dedupe([...(may.value ? may.causes : []), ...(surely.value ? [] : surely.causes)]);
    // never-meeting is sound, and so is surely-meeting; in between, a widened pattern may blur the answer
    const approximate = may.value && !surely.value && (!urls.exact || may.approx || surely.approx);
    return { may: may.value, surely: surely.value, unknown, approximate };
  }
}
