/** Which sections the transforms treat as 2.2-only (left alone so dual-version configs keep working). */
import { Section, directives, parse, sections } from '../src/cst';
import { isTwoTwoOnly, sectionIsTwoTwoOnly } from '../src/semantics/version-guards';

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
    // anything else in it makes it the 2.2 branch again
    ['<IfModule !mod_authz_core.c>\nLoadModule authz_core_module modules/mod_authz_core.so\nOrder allow,deny\n</IfModule>\n', true],
    ['<IfModule !mod_authz_core.c>\nLoadModule access_compat_module modules/mod_access_compat.so\n</IfModule>\n', true],
    ['<IfModule !mod_authz_core.c>\n</IfModule>\n', true],
  ])('%j → %s', (text, expected) => {
    expect(sectionIsTwoTwoOnly(firstSection(text))).toBe(expected);
  });

  test('isTwoTwoOnly looks at every enclosing section', () => {
    const tree = parse('<Directory /x>\n<IfVersion < 2.4>\n<IfModule mod_a.c>\nOrder allow,deny\n</IfModule>\n</IfVersion>\nRequire all granted\n</Directory>\n');
    expect(isTwoTwoOnly(directives(tree, 'Order')[0])).toBe(true);
    expect(isTwoTwoOnly(directives(tree, 'Require')[0])).toBe(false);
  });
});
