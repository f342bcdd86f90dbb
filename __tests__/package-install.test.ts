/**
 * The packed CLI stands alone: `npm pack` ships the runtime only (no tests, benchmarks or
 * corpus), and the tarball installed into a fresh prefix migrates a file in a directory
 * outside the repository, through both of its bin names.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('the npm package', () => {
  let tmp: string;
  let tarball: string;
  let packed: string[];

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'codemod-pack-'));
    // dist/ was built by the global setup; --ignore-scripts keeps `prepare` from building it again
    const out = execFileSync(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: ROOT, encoding: 'utf8' });
    const info = JSON.parse(out)[0] as { filename: string; files: { path: string }[] };
    tarball = path.join(tmp, path.basename(info.filename));
    packed = info.files.map((f) => f.path);
  }, 120_000);

  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('ships the runtime, its licence and README, and nothing of the tests or benchmarks', () => {
    expect(packed).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/src/cli.js', 'dist/transforms/index.js']));
    expect(packed).toContain('dist/src/modules/directive-modules.generated.json');
    expect(packed.filter((p) => /(^|\/)(__tests__|bench|corpus|examples)\//.test(p) || p.endsWith('.map') || p.endsWith('.ts'))).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.private).toBeUndefined();
    expect(manifest.bin['httpd-codemod']).toBe('dist/src/cli.js');
    expect(manifest.engines.node).toBeDefined();
  });

  test('installs into a fresh prefix and migrates a file outside the repository', () => {
    const prefix = path.join(tmp, 'prefix');
    fs.mkdirSync(prefix);
    execFileSync(NPM, ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', '--no-save', tarball], {
      cwd: prefix,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const site = path.join(tmp, 'elsewhere', 'site.conf');
    fs.mkdirSync(path.dirname(site));
    fs.writeFileSync(site, 'NameVirtualHost *:80\n<IfModule mpm_prefork_module>\n    MaxClients 20\n</IfModule>\n');

    for (const bin of ['httpd-codemod', 'codemod']) {
      const exe = path.join(prefix, 'node_modules', '.bin', bin);
      const dry = spawnSync(exe, ['site.conf'], { cwd: path.dirname(site), encoding: 'latin1' });
      expect(dry.status).toBe(1);
      expect(dry.stdout).toContain('-NameVirtualHost *:80');
      expect(dry.stdout).toContain('+    MaxRequestWorkers 20');
    }
    const exe = path.join(prefix, 'node_modules', '.bin', 'httpd-codemod');
    const write = spawnSync(exe, ['--write', site], { cwd: os.tmpdir(), encoding: 'latin1' });
    expect(write.stderr).toContain('1 changed');
    expect(fs.readFileSync(site, 'latin1')).toBe('<IfModule mpm_prefork_module>\n    MaxRequestWorkers 20\n</IfModule>\n');
  }, 180_000);
});
