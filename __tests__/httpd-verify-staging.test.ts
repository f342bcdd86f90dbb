/**
 * The pieces `--verify` stands on: prefix mapping inside arguments, lines of the migrated text
 * back to the original, mod_alias's prefix rule, address keys and URL samples for the replay, and
 * the stage of a Debian tree checked file by file, then judged by the real httpd (`apache2 -t`).
 */
import * as fs from 'fs';
import * as path from 'path';
import { findHttpd } from '../src/verify/find-httpd';
import { migratedToOriginal } from '../src/verify/line-map';
import { mapPrefixes, normalizePrefixMaps } from '../src/verify/path-prefixes';
import { addressKey } from '../src/verify/replay/stage-replay';
import { insideAddress, sampleForRegex } from '../src/verify/replay/request-set';
import { aliasMatches } from '../src/verify/replay/url-space';
import { configtestStage, runOnStage } from '../src/verify/configtest';
import { stageServer } from '../src/verify/stage-server';
import { createStage, removeStage } from '../src/verify/stage-layout';
import { APACHE2 } from './support/httpd';
import { debianTree, migrateInMemory } from './support/verify';
import { workDir } from './support/whole-server';

describe('mapPrefixes', () => {
  const maps = normalizePrefixMaps([
    { from: '/etc/apache2/', to: '/stage/root' },
    { from: '/etc/apache2/ssl', to: '/elsewhere' },
  ]);
  test.each([
    ['/etc/apache2/ports.conf', '/stage/root/ports.conf'],
    ['/etc/apache2', '/stage/root'],
    ['"/etc/apache2/x y"', '"/stage/root/x y"'],
    ['file:/etc/apache2/lock', 'file:/stage/root/lock'],
    ['"|/usr/bin/rotatelogs /etc/apache2/log 86400"', '"|/usr/bin/rotatelogs /stage/root/log 86400"'],
    ['shmcb:/etc/apache2/cache(512000)', 'shmcb:/stage/root/cache(512000)'],
    ['[/etc/apache2/docs]', '[/stage/root/docs]'],
    // the deeper mapping wins
    ['/etc/apache2/ssl/key.pem', '/elsewhere/key.pem'],
    // whole paths only
    ['/etc/apache22/x', '/etc/apache22/x'],
    ['/srv/etc/apache2/x', '/srv/etc/apache2/x'],
    ['relative/etc/apache2', 'relative/etc/apache2'],
  ])('%s', (from, to) => {
    expect(mapPrefixes(from, maps)).toBe(to);
  });
});

test('migratedToOriginal: kept lines keep their original number, lines the migration wrote have none', () => {
  const original = 'a\nOrder allow,deny\nAllow from all\nb\n';
  const migrated = 'a\nRequire all granted\nb\nc\n';
  expect(migratedToOriginal(original, migrated)).toEqual([0, 1, 0, 4, 0]);
});

test('aliasMatches follows mod_alias: a prefix on a segment boundary, repeated slashes folded', () => {
  expect(aliasMatches('/icons/a.png', '/icons/')).toBe('/icons/'.length);
  expect(aliasMatches('/icons', '/icons/')).toBe(0);
  expect(aliasMatches('/icons/a.png', '/icons')).toBe('/icons'.length);
  expect(aliasMatches('/iconsx', '/icons')).toBe(0);
  expect(aliasMatches('//icons//a.png', '/icons/')).toBe('//icons//'.length);
});

test('addressKey: one key per address:port as httpd groups virtual hosts', () => {
  expect(addressKey('80', true)).toBe('*:80');
  expect(addressKey('0.0.0.0:80', true)).toBe('*:80');
  expect(addressKey('[::]:443', true)).toBe('*:443');
  expect(addressKey('_default_:443', false)).toBe('*:443');
  expect(addressKey('10.0.0.1', false)).toBe('10.0.0.1:*');
  expect(addressKey('10.0.0.1:8080', false)).toBe('10.0.0.1:8080');
  expect(addressKey('[2001:db8::1]:80', false)).toBe('2001:db8::1:80');
});

test('request samples: names a regex section matches, addresses inside a rule', () => {
  expect(sampleForRegex('\\.(cgi|php)$')).toBe('codemod.cgi');
  expect(sampleForRegex('^\\.ht')).toBe('.ht');
  expect(sampleForRegex('^/private/.*', '/')).toBe('/private/codemod');
  expect(sampleForRegex('(')).toBeNull();
  expect(insideAddress('127.0.0.5')).toEqual({ address: '127.0.0.5', loopback: true });
  expect(insideAddress('127.0.0.0/255.255.255.0')).toEqual({ address: '127.0.0.1', loopback: true });
  expect(insideAddress('10.20')).toEqual({ address: '10.20.0.1', loopback: false });
  expect(insideAddress('not-an-ip')).toBeNull();
});

describe('the stage of a Debian tree', () => {
  let work: string;
  beforeAll(() => {
    work = workDir('codemod-verify-staging-');
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  test('files at the places httpd reads them, with the migrated lines; the rest linked; runtime paths and envvars in the stage; apache2 -t passes', () => {
    const tree = debianTree(path.join(work, 'deb'));
    const m = migrateInMemory(path.join(tree, 'apache2.conf'));
    const found = findHttpd(APACHE2);
    if (!('probe' in found)) throw new Error(found.error);
    const layout = createStage();
    try {
      const stage = stageServer({ main: m.main, files: m.files, serverRoot: m.serverRoot, probe: found.probe, layout });
      // mods-enabled/*.load are links into mods-available/ in the tree: staged as files with the migrated text
      const load = path.join(layout.root, 'mods-enabled', 'authz_default.load');
      expect(fs.lstatSync(load).isFile()).toBe(true);
      const migrated = m.files.find((f) => f.realPath.endsWith('mods-available/authz_default.load'));
      expect(migrated?.migrated).not.toBe(migrated?.original);
      expect(fs.readFileSync(load, 'latin1')).toBe(migrated?.migrated);
      // every staged file has the migrated text's lines
      for (const [staged, source] of stage.sources) {
        if (source.migrated === null) continue;
        expect(fs.readFileSync(staged, 'latin1').split('\n').length).toBe(source.migrated.split('\n').length);
      }
      // what the run did not migrate is a link to the original
      expect(fs.readlinkSync(path.join(layout.root, 'magic'))).toBe(path.join(tree, 'magic'));
      expect(fs.readlinkSync(path.join(layout.root, 'envvars'))).toBe(path.join(tree, 'envvars'));
      // envvars: runtime directories in the stage, the rest as written
      expect(stage.env.APACHE_LOG_DIR).toBe(layout.logs);
      expect(stage.env.APACHE_RUN_DIR).toBe(layout.run);
      expect(stage.env.APACHE_RUN_USER).toBe('www-data');
      expect(stage.env.APACHE_CONFDIR).toBe(layout.root);
      // runtime paths and ServerRoot point into the stage; the main config keeps its name
      const main = fs.readFileSync(stage.main, 'latin1');
      expect(stage.main).toBe(path.join(layout.root, 'apache2.conf'));
      expect(main).toMatch(new RegExp(`^Mutex default:${layout.run}/\\d+-APACHE_LOCK_DIR mpm-accept$`, 'm'));
      expect(main).toMatch(new RegExp(`^ErrorLog ${layout.logs}/\\d+-error\\.log$`, 'm'));
      expect(stage.args).toEqual(expect.arrayContaining(['-d', layout.root, '-f', stage.main]));

      const test = configtestStage(found.probe, stage);
      expect(test.messages.filter((x) => !/AH00558/.test(x.text))).toEqual([]);
      expect(test.ok).toBe(true);
      // negative control: without the envvars environment, the same stage is refused
      const bare = runOnStage(found.probe, { ...stage, env: { PATH: process.env.PATH } }, ['-t']);
      expect(bare.status).not.toBe(0);
      expect(bare.stderr).toMatch(/APACHE_|Invalid Mutex directory|bad user name/);
    } finally {
      removeStage(layout);
    }
  });
});
