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

export function readScopeRules(container: Section | ConfigFile, assume?: Assumptions): ReadResult {
  const allows: AccessEntry[] = [];
  const denys: AccessEntry[] = [];
  const orders: { order: Order; methods: MethodMask }[] = [];
  const requires: AuthRequire[] = [];
  const satisfy: SatisfySetting[] = [];
  const authoritative: { -readonly [K in keyof Authoritative]?: boolean } = {};
  const accessLines: Directive[] = [];
  const contextLines: Directive[] = [];
  const limitSections: Section[] = [];
  let hasHost = false;
  let hasRequire = false;
  let authType: string | null = null;
  let dbmGroups: boolean | null = null;
  let unsupported: string | null = null;
  let has24 = false;
  const wrapperModules: string[] = [];

  const fail = (node: Node, why: string) => {
    unsupported ??= `line ${node.line}: ${why}`;
  };

  const visit = (body: readonly Node[], limit: Section | null) => {
    for (const node of body) {
      if (node.kind === 'section') {
        const lower = node.lowerName;
        if (lower === 'limit' || lower === 'limitexcept') {
          if (limit) fail(node, '<Limit> sections cannot be nested');
          else {
            const onlyAccess = node.body.every(
              (n) => n.kind === 'blank' || n.kind === 'comment' || (n.kind === 'directive' && ACCESS_DIRECTIVES.includes(n.lowerName)),
            );
            if (onlyAccess) limitSections.push(node);
            visit(node.body, node);
          }
        } else if (REQUIRE_24_SECTIONS.includes(lower)) {
          has24 = true;
        } else {
          const verdict = assumedVerdict(node, assume);
          if (!verdict || verdict.kind === 'dead' || verdict.kind === 'only22') continue;
          const holds = containsAccess(node) || containsAuthz(node);
          if (verdict.kind === 'unknown') {
            if (holds) fail(node, `access rules inside ${verdict.why}`);
            continue;
          }
          if (verdict.kind === 'only24' && holds) has24 = true;
          if (verdict.needs && holds) wrapperModules.push(verdict.needs);
          visit(node.body, limit);
        }
        continue;
      }
      if (node.kind !== 'directive') continue;
      const name = node.lowerName;
      // most directives of a scope are not access rules: their words are not scanned here
      if (!READ_DIRECTIVES.has(name)) continue;
      const values = node.values;
      const methods = mask(limit);
      if (name === 'order') {
        hasHost = true;
        accessLines.push(node);
        const order = (values[0] ?? '').toLowerCase();
        if (values.length !== 1 || !['deny,allow', 'allow,deny', 'mutual-failure'].includes(order)) {
          fail(node, `Order ${values.join(' ')} is not valid (httpd rejects it)`);
        } else orders.push({ order: order as Order, methods });
      } else if (name === 'allow' || name === 'deny') {
        hasHost = true;
        accessLines.push(node);
        if (values.length < 2 || values[0].toLowerCase() !== 'from') {
          fail(node, `${node.name} must be followed by "from" and at least one host`);
          continue;
        }
        for (const word of values.slice(1)) {
          const entry = classifyHostWord(word);
          if ('error' in entry) fail(node, `${node.name} from ${word}: ${entry.error}`);
          else (name === 'allow' ? allows : denys).push({ entry, methods });
        }
      } else if (name === 'satisfy') {
        accessLines.push(node);
        const value = (values[0] ?? '').toLowerCase();
        if (values.length !== 1 || (value !== 'any' && value !== 'all')) fail(node, `Satisfy ${values.join(' ')} is not valid`);
        else satisfy.push({ value, methods });
      } else if (name === 'require') {
        const provider = (values[0] ?? '').toLowerCase();
        if (REQUIRE_24_PROVIDERS.includes(provider)) {
          has24 = true;
          continue;
        }
        hasRequire = true;
        accessLines.push(node);
        if (values.length === 0) fail(node, 'Require without arguments');
        requires.push({ words: values, methods });
      } else if (AUTH_CONTEXT.includes(name) || name in AUTHORITATIVE) {
        contextLines.push(node);
        if (limit) fail(node, `${node.name} inside <${limit.name}>`);
        if (name === 'authtype') authType = values[0] ?? '';
        else if (name === 'authdbmgroupfile') dbmGroups = true;
        else {
          const on = (values[0] ?? '').toLowerCase() !== 'off';
          authoritative[AUTHORITATIVE[name]] = on;
        }
      } else if (name === 'authmerging') {
        has24 = true;
      }
    }
  };
  visit(container.body, null);

  const host: HostRecord | null = hasHost ? { orders, allows, denys } : null;
  return {
    rules: { host, requires: hasRequire ? requires : null, satisfy, authType, dbmGroups, authoritative },
    accessLines,
    limitSections,
    contextLines,
    unsupported,
    has24,
    wrapperModules: [...new Set(wrapperModules)],
  };
}


/** True when a wrapper section holds 2.2 access directives of the enclosing scope (not of a nested scope). */
export function containsAccess(section: Section): boolean {
  for (const node of section.body) {
    if (node.kind === 'directive' && ACCESS_DIRECTIVES.includes(node.lowerName)) return true;
    if (node.kind === 'section' && !SCOPE_SECTIONS.has(node.lowerName) && containsAccess(node)) return true;
  }
  return false;
}
