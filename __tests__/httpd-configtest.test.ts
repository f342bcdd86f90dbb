/**
 * Real httpd 2.4: files transformed by the first transforms are accepted by
 * `apache2 -t` without the deprecation warnings their 2.2 originals cause.
 */
import * as fs from 'fs';
import * as path from 'path';
import { transformText } from '../src/run/runner';
import { TRANSFORMS } from '../transforms';
import { baseConfig, configtest, tempDir } from './support/httpd';

const EXAMPLE = path.join(__dirname, '..', 'examples', 'upstream-2.2', 'conf', 'extra');
const WARNINGS = /AH00548|AH00117|no effect|deprecated/i;

function migrate(text: string): string {
  const result = transformText(text, TRANSFORMS);
  expect(result.errors).toEqual([]);
  return result.output;
}

function serverWith(dir: string, body: string): string {
  const file = path.join(dir, 'httpd.conf');
  fs.writeFileSync(file, baseConfig(dir, 8, ['mime', 'dir', 'log_config']) + body);
  return file;
}

describe('apache2 -t on migrated files', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('2.2-only values are rejected or warned about before, accepted silently after', () => {
    const legacy = [
      '<IfModule mpm_prefork_module>',
      '    StartServers 2',
      '    MaxClients 20',
      '    MaxRequestsPerChild 1000',
      '</IfModule>',
      'NameVirtualHost *:80',
      'DefaultType text/plain',
      'KeepAlive 1',
      '',
    ].join('\n');
    const before = configtest(serverWith(dir, legacy));
    expect(before.ok).toBe(false);
    expect(before.output).toMatch(/KeepAlive must be On or Off/);

    const after = configtest(serverWith(dir, migrate(legacy)));
    expect(after.output).not.toMatch(WARNINGS);
    expect(after.ok).toBe(true);
  });

  test('the upstream example vhosts and defaults, migrated, pass without warnings', () => {
    const names = ['httpd-vhosts.conf', 'httpd-default.conf'];
    const include = (suffix: string) => names.map((n) => `Include "${path.join(dir, n + suffix)}"\n`).join('');
    for (const name of names) {
      const original = fs.readFileSync(path.join(EXAMPLE, name)).toString('latin1');
      fs.writeFileSync(path.join(dir, name + '.orig'), Buffer.from(original, 'latin1'));
      fs.writeFileSync(path.join(dir, name), Buffer.from(migrate(original), 'latin1'));
    }
    fs.mkdirSync(path.join(dir, 'logs'));
    const before = configtest(serverWith(dir, include('.orig')));
    expect(before.output).toMatch(/AH00548: NameVirtualHost has no effect/);

    const after = configtest(serverWith(dir, include('')));
    expect(after.output).not.toMatch(WARNINGS);
    expect(after.ok).toBe(true);
  });
});
