/**
 * How conditional sections are decided for the 2.4 target: which ones the transforms treat as
 * never applying (left alone so dual-version configs keep working), what each `<IfModule>` spelling
 * gives (httpd matches only `mod_x.c` or `x_module`, byte for byte: measured against a real
 * 2.4.71 in httpd-dual-version.test.ts), and the wrapper verdicts the access model reads.
 */
import { Section, directives, parse, sections } from '../src/cst';
import { ifModuleOutcome, isTwoTwoOnly, reliesOnModule, sectionIsTwoTwoOnly } from '../src/semantics/version-guards';
import { wrapperVerdict } from '../src/semantics/access/wrappers';

function firstSection(text: string): Section {
  return sections(parse(text))[0];
}

describe('sectionIsTwoTwoOnly', () => {
  test.each([
    ['<IfVersion < 2.4>\nOrder allow,deny\n</IfVersion>\n', true],
    ['<IfVersion >= 2.4>\nRequire all granted\n</IfVersion>\n', false],
    ['<IfModule !mod_authz_core.c>\nOrder allow,deny\nAllow from all\n</IfModule>\n', true],
    ['<IfModule !authz_core_module>\nOrder allow,deny\n</IfModule>\n', true],
    ['<IfModule mod_authz_core.c>\nRequire all granted\n</IfModule>\n', false],
    // a load guard (how the module planner writes new lines) applies on 2.4
    ['<IfModule !authz_core_module>\n    LoadModule authz_core_module modules/mod_authz_core.so\n</IfModule>\n', false],
    ['<IfModule !mod_authz_core.c>\n# loads it\nLoadModule authz_core_module modules/mod_authz_core.so\n</IfModule>\n', false],
    ['<IfModule !version_module>\n    LoadModule version_module modules/mod_version.so\n</IfModule>\n', false],
    ['<IfModule !mod_version.c>\nLoadModule version_module modules/mod_version.so\n</IfModule>\n', false],
    // anything else in it makes it the 2.2 branch again
    ['<IfModule !mod_authz_core.c>\nLoadModule authz_core_module modules/mod_authz_core.so\nOrder allow,deny\n</IfModule>\n', true],
    ['<IfModule !mod_authz_core.c>\nLoadModule access_compat_module modules/mod_access_compat.so\n</IfModule>\n', true],
    ['<IfModule !mod_authz_core.c>\n</IfModule>\n', true],
    // mod_version is compiled into Debian's 2.4 and loaded by the migration elsewhere: its fallback never runs
    ['<IfModule !mod_version.c>\nDeny from all\n</IfModule>\n', true],
    ['<IfModule !version_module>\nDeny from all\n</IfModule>\n', true],
    ['<IfModule ! mod_version.c>\nDeny from all\n</IfModule>\n', true],
    ['<IfModule mod_version.c>\n<IfVersion >= 2.4>\nRequire all denied\n</IfVersion>\n</IfModule>\n', false],
    // httpd 2.0's module: no 2.2 or 2.4 server has it
    ['<IfModule mod_access.c>\nDeny from all\n</IfModule>\n', true],
    ['<IfModule !mod_access.c>\nRequire all denied\n</IfModule>\n', false],
    // spellings no module answers to (Matomo's bare mod_access_compat): never true
    ['<IfModule mod_access_compat>\nDeny from all\n</IfModule>\n', true],
    ['<IfModule !mod_access_compat>\nDeny from all\n</IfModule>\n', false],
    ['<IfModule access_compat>\nDeny from all\n</IfModule>\n', true],
    ['<IfModule mod_access_compat.so>\nDeny from all\n</IfModule>\n', true],
    ['<IfModule MOD_ACCESS_COMPAT.C>\nDeny from all\n</IfModule>\n', true],
    ['<IfModule mod_version>\nDeny from all\n</IfModule>\n', true],
    // decided by the server: not "never"
    ['<IfModule mod_access_compat.c>\nDeny from all\n</IfModule>\n', false],
    ['<IfModule !mod_access_compat.c>\nRequire all denied\n</IfModule>\n', false],
    ['<IfModule !mod_rewrite.c>\nDeny from all\n</IfModule>\n', false],
    ['<IfModule !php5_module>\nDeny from all\n</IfModule>\n', false],
    ['<IfModule prefork.c>\nMaxClients 10\n</IfModule>\n', false],
  ])('%j → %s', (text, expected) => {
    expect(sectionIsTwoTwoOnly(firstSection(text))).toBe(expected);
  });

  test('isTwoTwoOnly looks at every enclosing section', () => {
    const tree = parse('<Directory /x>\n<IfVersion < 2.4>\n<IfModule mod_a.c>\nOrder allow,deny\n</IfModule>\n</IfVersion>\nRequire all granted\n</Directory>\n');
    expect(isTwoTwoOnly(directives(tree, 'Order')[0])).toBe(true);
    expect(isTwoTwoOnly(directives(tree, 'Require')[0])).toBe(false);
  });
});

describe('ifModuleOutcome and the module a verdict relies on', () => {
  test.each([
    // [test, on22, on24, relies]
    ['mod_version.c', null, true, 'version'],
    ['version_module', null, true, 'version'],
    ['!mod_version.c', null, false, 'version'],
    ['mod_authz_core.c', false, true, 'authz_core'],
    ['!authz_core_module', true, false, 'authz_core'],
    ['mod_authz_host.c', true, true, 'authz_host'],
    ['mod_access.c', false, false, null],
    ['mod_access_compat', false, false, null],
    ['!mod_access_compat', true, true, null],
    ['mod_access_compat.c', false, null, null],
    ['mod_rewrite.c', null, null, null],
  ])('<IfModule %s> → 2.2 %s, 2.4 %s, relies on %s', (test, on22, on24, relies) => {
    const o = ifModuleOutcome([test]);
    expect([o.on22, o.on24, o.relies]).toEqual([on22, on24, relies]);
  });

  test.each([
    ['<IfVersion >= 2.4>\nRequire all granted\n</IfVersion>\n', 'version'],
    ['<IfVersion < 2.4>\nOrder allow,deny\n</IfVersion>\n', 'version'],
    ['<IfModule !mod_version.c>\nDeny from all\n</IfModule>\n', 'version'],
    ['<IfModule mod_authz_core.c>\nRequire all granted\n</IfModule>\n', 'authz_core'],
    ['<IfModule mod_authz_host.c>\nDeny from all\n</IfModule>\n', 'authz_host'],
    ['<IfModule mod_access.c>\nDeny from all\n</IfModule>\n', null],
    ['<IfModule mod_rewrite.c>\nRewriteEngine on\n</IfModule>\n', null],
    // the planner's own guard relies on nothing
    ['<IfModule !version_module>\n    LoadModule version_module modules/mod_version.so\n</IfModule>\n', null],
  ])('%j relies on %s', (text, module) => {
    expect(reliesOnModule(firstSection(text))).toBe(module);
  });
});

describe('wrapper verdicts for the access model', () => {
  test.each([
    ['<IfModule mod_version.c>', 'only24', 'version'],
    ['<IfModule !mod_version.c>', 'only22', undefined],
    ['<IfVersion >= 2.4>', 'only24', 'version'],
    ['<IfVersion < 2.4>', 'only22', undefined],
    ['<IfModule mod_authz_core.c>', 'only24', 'authz_core'],
    ['<IfModule !mod_authz_core.c>', 'only22', undefined],
    ['<IfModule mod_authz_host.c>', 'both', 'authz_host'],
    ['<IfModule mod_access.c>', 'dead', undefined],
    ['<IfModule !mod_access.c>', 'both', undefined],
    ['<IfModule mod_access_compat>', 'dead', undefined],
    ['<IfModule !mod_access_compat>', 'both', undefined],
    // loaded only if this migration keeps old rules somewhere: the scope stays on compat, where it is true
    ['<IfModule mod_access_compat.c>', 'unknown', undefined],
    ['<IfModule mod_rewrite.c>', 'unknown', undefined],
    ['<IfDefine SSL>', 'unknown', undefined],
  ])('%s → %s (needs %s)', (open, kind, needs) => {
    const name = /^<(\w+)/.exec(open)![1];
    const verdict = wrapperVerdict(firstSection(`${open}\nDeny from all\n</${name}>\n`));
    expect([verdict?.kind, verdict?.needs]).toEqual([kind, needs]);
  });
});
