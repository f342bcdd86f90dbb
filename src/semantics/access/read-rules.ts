/**
 * Reads the 2.2 access directives one scope sets by itself (Order, Allow,
 * Deny, Satisfy, Require, AuthType, AuthDBMGroupFile, Authz*Authoritative),
 * with the methods each applies to (`<Limit>` / `<LimitExcept>`), from a
 * section's or file's direct body. `<IfModule>` wrappers that are true on a
 * usual 2.2 server are looked through; anything the reader cannot place makes
 * the scope unreadable, with the reason.
 */
import { ConfigFile, Directive, Node, Section } from '../../cst';
import { Assumptions, assumedVerdict } from './wrappers';
import { containsAuthz } from './read-authz24';
import { SCOPE_SECTIONS } from './scope-sections';
import {
  ALL_METHODS,
  AccessEntry,
  AuthRequire,
  Authoritative,
  HostRecord,
  MethodMask,
  Order,
  SatisfySetting,
  ScopeRules22,
} from './types';
import { classifyHostWord } from './ip-match';
import { canonicalMethods } from './method-mask';

/** Directives that belong to the 2.2 access model. */
export const ACCESS_DIRECTIVES = ['order', 'allow', 'deny', 'satisfy', 'require'];
const AUTH_CONTEXT = ['authtype', 'authdbmgroupfile'];
const AUTHORITATIVE: Record<string, keyof Authoritative> = {
  authzuserauthoritative: 'user',
  authzgroupfileauthoritative: 'groupFile',
  authzdbmauthoritative: 'dbm',
  authzownerauthoritative: 'owner',
  authzdefaultauthoritative: 'default',
};

/** 2.4-only authorization (mod_authz_core): its presence makes a config "mixed". */
export const REQUIRE_24_PROVIDERS = ['all', 'ip', 'host', 'env', 'method', 'expr', 'local', 'forward-dns', 'not'];
export const REQUIRE_24_SECTIONS = ['requireall', 'requireany', 'requirenone'];

/** Every directive name the reader looks at (the rest of a scope's lines are skipped unread). */
const READ_DIRECTIVES = new Set([...ACCESS_DIRECTIVES, ...AUTH_CONTEXT, ...Object.keys(AUTHORITATIVE), 'authmerging']);

export interface ReadResult {
  readonly rules: ScopeRules22;
  /** The directives that make up the scope's 2.2 access rules (replaced on migration). */
  readonly accessLines: Directive[];
  /** `<Limit>` / `<LimitExcept>` sections whose whole content is access rules (replaced with them). */
  readonly limitSections: Section[];
  /** Auth-context lines (AuthType, Authz*Authoritative …) read but kept or handled elsewhere. */
  readonly contextLines: Directive[];
  /** Set when the scope holds something the model cannot represent. */
  readonly unsupported: string | null;
  /** 2.4-style authorization met in this scope (mixed config). */
  readonly has24: boolean;
  /** Modules that wrappers around the scope's access lines need on 2.4 (`<IfModule mod_authz_host.c>`: authz_host). */
  readonly wrapperModules: string[];
}

function mask(section: Section | null): MethodMask {
  if (!section) return ALL_METHODS;
  return { except: section.is('LimitExcept'), methods: canonicalMethods(section.values.map((m) => m.toUpperCase())) };
}

/**
 * One scope's reading in progress. A class rather than closures in readScopeRules: its methods are
 * one function each for the life of the process, so V8 optimizes them once; closures made per call
 * lose their optimized code when a full collection finds none of them alive (measured: the walk
 * was compiled again 7–9 times in a fleet run).
 */
class ScopeReader {
  readonly allows: AccessEntry[] = [];
  readonly denys: AccessEntry[] = [];
  readonly orders: { order: Order; methods: MethodMask }[] = [];
  readonly requires: AuthRequire[] = [];
  readonly satisfy: SatisfySetting[] = [];
  readonly authoritative: { -readonly [K in keyof Authoritative]?: boolean } = {};
  readonly accessLines: Directive[] = [];
  readonly contextLines: Directive[] = [];
  readonly limitSections: Section[] = [];
  hasHost = false;
  hasRequire = false;
  authType: string | null = null;
  dbmGroups: boolean | null = null;
  unsupported: string | null = null;
  has24 = false;
  readonly wrapperModules: string[] = [];

  constructor(private readonly assume: Assumptions | undefined) {}

  fail(node: Node, why: string): void {
    this.unsupported ??= `line ${node.line}: ${why}`;
  }

  visit(body: readonly Node[], limit: Section | null): void {
    for (const node of body) {
      if (node.kind === 'section') this.section(node, limit);
      else if (node.kind === 'directive') this.directive(node, limit);
    }
  }

  private section(node: Section, limit: Section | null): void {
    const lower = node.lowerName;
    if (lower === 'limit' || lower === 'limitexcept') {
      if (limit) this.fail(node, '<Limit> sections cannot be nested');
      else {
        const onlyAccess = node.body.every(
          (n) => n.kind === 'blank' || n.kind === 'comment' || (n.kind === 'directive' && ACCESS_DIRECTIVES.includes(n.lowerName)),
        );
        if (onlyAccess) this.limitSections.push(node);
        this.visit(node.body, node);
      }
    } else if (REQUIRE_24_SECTIONS.includes(lower)) {
      this.has24 = true;
    } else {
      const verdict = assumedVerdict(node, this.assume);
      if (!verdict || verdict.kind === 'dead' || verdict.kind === 'only22') return;
      const holds = containsAccess(node) || containsAuthz(node);
      if (verdict.kind === 'unknown') {
        if (holds) this.fail(node, `access rules inside ${verdict.why}`);
        return;
      }
      if (verdict.kind === 'only24' && holds) this.has24 = true;
      if (verdict.needs && holds) this.wrapperModules.push(verdict.needs);
      this.visit(node.body, limit);
    }
  }

  private directive(node: Directive, limit: Section | null): void {
    const name = node.lowerName;
    // most directives of a scope are not access rules: their words are not scanned here
    if (!READ_DIRECTIVES.has(name)) return;
    const values = node.values;
    const methods = mask(limit);
    if (name === 'order') {
      this.hasHost = true;
      this.accessLines.push(node);
      const order = (values[0] ?? '').toLowerCase();
      if (values.length !== 1 || !['deny,allow', 'allow,deny', 'mutual-failure'].includes(order)) {
        this.fail(node, `Order ${values.join(' ')} is not valid (httpd rejects it)`);
      } else this.orders.push({ order: order as Order, methods });
    } else if (name === 'allow' || name === 'deny') {
      this.hasHost = true;
      this.accessLines.push(node);
      if (values.length < 2 || values[0].toLowerCase() !== 'from') {
        this.fail(node, `${node.name} must be followed by "from" and at least one host`);
        return;
      }
      for (const word of values.slice(1)) {
        const entry = classifyHostWord(word);
        if ('error' in entry) this.fail(node, `${node.name} from ${word}: ${entry.error}`);
        else (name === 'allow' ? this.allows : this.denys).push({ entry, methods });
      }
    } else if (name === 'satisfy') {
      this.accessLines.push(node);
      const value = (values[0] ?? '').toLowerCase();
      if (values.length !== 1 || (value !== 'any' && value !== 'all')) this.fail(node, `Satisfy ${values.join(' ')} is not valid`);
      else this.satisfy.push({ value, methods });
    } else if (name === 'require') {
      const provider = (values[0] ?? '').toLowerCase();
      if (REQUIRE_24_PROVIDERS.includes(provider)) {
        this.has24 = true;
        return;
      }
      this.hasRequire = true;
      this.accessLines.push(node);
      if (values.length === 0) this.fail(node, 'Require without arguments');
      this.requires.push({ words: values, methods });
    } else if (AUTH_CONTEXT.includes(name) || name in AUTHORITATIVE) {
      this.contextLines.push(node);
      if (limit) this.fail(node, `${node.name} inside <${limit.name}>`);
      if (name === 'authtype') this.authType = values[0] ?? '';
      else if (name === 'authdbmgroupfile') this.dbmGroups = true;
      else {
        const on = (values[0] ?? '').toLowerCase() !== 'off';
        this.authoritative[AUTHORITATIVE[name]] = on;
      }
    } else if (name === 'authmerging') {
      this.has24 = true;
    }
  }

  result(): ReadResult {
    const host: HostRecord | null = this.hasHost ? { orders: this.orders, allows: this.allows, denys: this.denys } : null;
    const { requires, satisfy, authType, dbmGroups, authoritative } = this;
    return {
      rules: { host, requires: this.hasRequire ? requires : null, satisfy, authType, dbmGroups, authoritative },
      accessLines: this.accessLines,
      limitSections: this.limitSections,
      contextLines: this.contextLines,
      unsupported: this.unsupported,
      has24: this.has24,
      wrapperModules: [...new Set(this.wrapperModules)],
    };
  }
}

export function readScopeRules(container: Section | ConfigFile, assume?: Assumptions): ReadResult {
  const reader = new ScopeReader(assume);
  reader.visit(container.body, null);
  return reader.result();
}


/** True when a wrapper section holds 2.2 access directives of the enclosing scope (not of a nested scope). */
export function containsAccess(section: Section): boolean {
  for (const node of section.body) {
    if (node.kind === 'directive' && ACCESS_DIRECTIVES.includes(node.lowerName)) return true;
    if (node.kind === 'section' && !SCOPE_SECTIONS.has(node.lowerName) && containsAccess(node)) return true;
  }
  return false;
}
