/**
 * Reads a scope's mod_authz_core configuration as httpd 2.4 parses it: every
 * `Require` line (2.2 words like `valid-user` are 2.4 providers too), the
 * `<RequireAll|Any|None>` containers, `<Limit>` masks and `AuthMerging`.
 * Lines at the top of a scope go into its implicit `<RequireAny>`.
 * Conditional wrappers are judged by wrappers.ts: read through when true on
 * 2.4, skipped when false there, and unreadable when unknown.
 * Reference: docs/research/access-semantics.md §7.
 */
import { ConfigFile, Directive, Node, Section } from '../../cst';
import { MethodMask, RequireNode } from './types';
import { canonicalMethods } from './method-mask';
import { USER_PROVIDERS } from './require-tree';
import { SCOPE_SECTIONS } from './scope-sections';
import { Assumptions, assumedVerdict } from './wrappers';

export type AuthMergingOp = 'off' | 'and' | 'or';

export interface Authz24Read {
  /** `AuthMerging` value set in the scope (last wins), or null. */
  readonly op: AuthMergingOp | null;
  /** The scope's section: an implicit RequireAny of its Require lines and containers; null when it has none. */
  readonly tree: RequireNode | null;
  /** Require lines, Require containers and AuthMerging lines of the scope (outermost nodes). */
  readonly lines: Node[];
  /** The scope uses 2.4-only authorization syntax (providers, containers, AuthMerging, or Require inside a 2.4-only wrapper). */
  readonly has24: boolean;
  /** Set when the scope holds authorization the model cannot evaluate. */
  readonly unsupported: string | null;
  /** Modules that true-on-both wrappers around these lines need on 2.4 (`authz_host`). */
  readonly wrapperModules: string[];
}

/** Providers the 2.4 evaluator (eval24.ts) models. */
export const MODELLED_PROVIDERS = new Set(['all', 'ip', 'host', 'env', 'method', 'local', ...USER_PROVIDERS]);

/** 2.2 understood these Require words; any other makes the scope 2.4 syntax. */
const WORDS_22 = new Set(['valid-user', 'user', 'group', 'file-owner', 'file-group']);

const CONTAINERS: Record<string, 'all' | 'any' | 'none'> = { requireall: 'all', requireany: 'any', requirenone: 'none' };

function maskOf(section: Section): MethodMask {
  return { except: section.is('LimitExcept'), methods: canonicalMethods(section.values.map((m) => m.toUpperCase())) };
}

/** True when the body holds authz_core configuration of the enclosing scope. */
export function containsAuthz(section: Section): boolean {
  for (const node of section.body) {
    if (node.kind === 'directive' && /^(require|authmerging)$/i.test(node.name)) return true;
    if (node.kind === 'section' && !SCOPE_SECTIONS.has(node.lowerName) && (node.lowerName in CONTAINERS || containsAuthz(node))) {
      return true;
    }
  }
  return false;
}

/** One scope's reading in progress: methods, not closures made per call, so V8 optimizes them once. */
class AuthzReader {
  op: AuthMergingOp | null = null;
  unsupported: string | null = null;
  has24 = false;
  readonly lines: Node[] = [];
  readonly wrapperModules: string[] = [];

  constructor(private readonly assume: Assumptions | undefined) {}

  fail(node: Node, why: string): void {
    this.unsupported ??= `line ${node.line}: ${why}`;
  }

  /** Children of one container; `methods` is the mask of an enclosing <Limit> not yet attached. */
  readBody(body: readonly Node[], methods: MethodMask | undefined, top: boolean, in24: boolean): RequireNode[] {
    const out: RequireNode[] = [];
    for (const node of body) {
      if (node.kind === 'directive') {
        const name = node.lowerName;
        if (name === 'authmerging') {
          this.has24 = true;
          if (top) this.lines.push(node);
          const value = (node.values[0] ?? '').toLowerCase();
          if (value === 'off' || value === 'and' || value === 'or') this.op = value;
          else this.fail(node, `AuthMerging ${node.values.join(' ')} is not valid`);
        } else if (name === 'require') {
          if (top) this.lines.push(node);
          const leaf = this.readRequire(node, methods, in24);
          if (leaf) out.push(leaf);
        }
        continue;
      }
      if (node.kind !== 'section') continue;
      const lower = node.lowerName;
      if (SCOPE_SECTIONS.has(lower)) continue;
      if (lower in CONTAINERS) {
        this.has24 = true;
        if (top) this.lines.push(node);
        const children = this.readBody(node.body, undefined, false, in24);
        if (children.length === 0) this.fail(node, `<${node.name}> holds no authorization directives`);
        out.push({ kind: CONTAINERS[lower], children, ...(methods ? { methods } : {}) });
      } else if (lower === 'limit' || lower === 'limitexcept') {
        if (methods) this.fail(node, '<Limit> sections cannot be nested');
        out.push(...this.readBody(node.body, maskOf(node), top, in24));
      } else {
        const verdict = assumedVerdict(node, this.assume);
        if (!verdict) continue;
        if (verdict.kind === 'dead' || verdict.kind === 'only22') continue;
        if (verdict.kind === 'unknown') {
          if (containsAuthz(node)) this.fail(node, `Require rules inside ${verdict.why}`);
          continue;
        }
        if (verdict.needs && containsAuthz(node)) this.wrapperModules.push(verdict.needs);
        out.push(...this.readBody(node.body, methods, top, in24 || verdict.kind === 'only24'));
      }
    }
    return out;
  }

  private readRequire(node: Directive, methods: MethodMask | undefined, in24: boolean): RequireNode | null {
    const values = node.values;
    let negate = false;
    let words = values;
    if ((words[0] ?? '').toLowerCase() === 'not') {
      negate = true;
      words = words.slice(1);
    }
    const provider = (words[0] ?? '').toLowerCase();
    if (negate || !WORDS_22.has(provider) || in24) this.has24 = true;
    if (!provider) {
      this.fail(node, 'Require without a provider');
      return null;
    }
    if (!MODELLED_PROVIDERS.has(provider)) {
      this.fail(node, `Require ${provider}: the access model cannot evaluate this provider`);
      return null;
    }
    return { kind: 'require', provider, args: words.slice(1), negate, ...(methods ? { methods } : {}) };
  }
}

export function readAuthz24(container: Section | ConfigFile, assume?: Assumptions): Authz24Read {
  const reader = new AuthzReader(assume);
  const children = reader.readBody(container.body, undefined, true, false);
  return {
    op: reader.op,
    tree: children.length > 0 ? { kind: 'any', children } : null,
    lines: reader.lines,
    has24: reader.has24,
    unsupported: reader.unsupported,
    wrapperModules: [...new Set(reader.wrapperModules)],
  };
}
