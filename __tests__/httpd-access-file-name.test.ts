/**
 * Discovery's AccessFileName handling against a real httpd 2.4: for each
 * config, httpd is started over a document tree where every candidate
 * per-directory file says `Require all denied`; a 403 on its directory shows
 * httpd read it. Every file httpd reads must be a per-directory file
 * (role 'htaccess') in discover()'s answer; the files discovery claims beyond
 * that are listed, with the reason. Also measured: where AccessFileName may stand.
 */
import * as fs from 'fs';
import * as path from 'path';
import { discover } from '../src/server/discover';
import { baseConfig, configtest, freePorts, startServerChecked, tempDir, localRequest } from './support/httpd';

jest.setTimeout(60000);

const get = async (port: number, urlPath: string): Promise<number> => (await localRequest(port, encodeURI(urlPath))).status;

/** Candidate per-directory files, by path under htdocs; the directory they guard is the key. */
const CANDIDATES: Record<string, string> = {
  a: 'a/.acl',
  b: 'b/.htaccess',
  c: 'c/.second',
  d: 'd/my acl',
  e: 'e/sub/.x',
  f: 'f/.ACL',
  g: 'g/.htpasswd',
  h: 'h/.vh',
  i: 'i/.ht*',
};

interface Measured {
  /** Candidates httpd read, per port (main server, then the <VirtualHost>). */
  readonly main: string[];
  readonly vhost: string[];
  /** Candidates discovery made per-directory files. */
  readonly discovered: string[];
  readonly skipped: string[];
}

/** Builds the tree, runs discover() on it, then serves it and asks each directory once per port. */
async function measure(name: string, mainLines: string, vhostLines = ''): Promise<Measured> {
  const dir = tempDir(`codemod-afn-${name}-`);
  fs.chmodSync(dir, 0o755); // the children run as www-data
  const tree = path.join(dir, 'tree');
  const run = path.join(dir, 'run');
  fs.mkdirSync(run);
  for (const [guarded, file] of Object.entries(CANDIDATES)) {
    fs.mkdirSync(path.join(tree, 'htdocs', path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(tree, 'htdocs', guarded, 'x.txt'), 'ok\n');
    fs.writeFileSync(path.join(tree, 'htdocs', file), 'Require all denied\n');
  }
  fs.mkdirSync(path.join(tree, 'conf'));
  const [port, vport] = await freePorts(2);
  const conf = path.join(tree, 'conf', 'httpd.conf');
  fs.writeFileSync(
    conf,
    [
      baseConfig(run, port).trimEnd(),
      `Listen 127.0.0.1:${vport}`,
      `DocumentRoot "${tree}/htdocs"`,
      `<Directory "${tree}/htdocs">`,
      '  AllowOverride All',
      '</Directory>',
      mainLines,
      `<VirtualHost 127.0.0.1:${vport}>`,
      `  DocumentRoot "${tree}/htdocs"`,
      vhostLines,
      '</VirtualHost>',
      '',
    ].join('\n'),
  );
  try {
    const d = discover([tree], { cwd: tree });
    expect(d.errors).toEqual([]);
    const role = new Map(d.servers.flatMap((s) => s.files.map((f) => [f.displayPath, f.role] as const)));
    const candidates = Object.values(CANDIDATES);
    const discovered = candidates.filter((c) => role.get(`htdocs/${c}`) === 'htaccess');
    const skipped = candidates.filter((c) => d.skipped.some((s) => s.path === `htdocs/${c}`));
    // every candidate is either a per-directory file or reported as skipped
    expect([...discovered, ...skipped].sort()).toEqual([...candidates].sort());

    const server = await startServerChecked(conf, port, run);
    try {
      const reads = async (p: number): Promise<string[]> => {
        const out: string[] = [];
        for (const [guarded, file] of Object.entries(CANDIDATES)) {
          const status = await get(p, `/${guarded}/x.txt`);
          expect([200, 403]).toContain(status);
          if (status === 403) out.push(file);
        }
        return out;
      };
      return { main: await reads(port), vhost: await reads(vport), discovered, skipped };
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Nothing httpd reads may be missed by discovery. */
function expectNoneMissed(m: Measured): void {
  for (const file of [...m.main, ...m.vhost]) expect(m.discovered).toContain(file);
}

describe('AccessFileName: discovery finds every per-directory file httpd 2.4 reads', () => {
  it('default: only .htaccess; other names stay skipped', async () => {
    const m = await measure('unset', '');
    expect(m.main).toEqual(['b/.htaccess']);
    expect(m.vhost).toEqual(['b/.htaccess']);
    expect(m.discovered).toEqual(['b/.htaccess']);
    expectNoneMissed(m);
  });

  it('several names, a quoted one and one with a slash, all read; case-sensitive', async () => {
    const m = await measure('names', 'AccessFileName .acl "my acl" sub/.x');
    expect(m.main).toEqual(['a/.acl', 'd/my acl', 'e/sub/.x']);
    expect(m.vhost).toEqual(m.main);
    // .htaccess is no longer read here; discovery keeps it per-directory by name
    expect(m.discovered).toEqual(['a/.acl', 'b/.htaccess', 'd/my acl', 'e/sub/.x']);
    expect(m.skipped).toContain('f/.ACL');
    expectNoneMissed(m);
  });

  it('a later AccessFileName replaces an earlier one (discovery keeps both names)', async () => {
    const m = await measure('later', 'AccessFileName .acl\nAccessFileName .second');
    expect(m.main).toEqual(['c/.second']);
    expect(m.discovered).toEqual(['a/.acl', 'b/.htaccess', 'c/.second']);
    expectNoneMissed(m);
  });

  it("a <VirtualHost>'s AccessFileName replaces the main server's for that host", async () => {
    const m = await measure('vhost', 'AccessFileName .acl', '  AccessFileName .vh');
    expect(m.main).toEqual(['a/.acl']);
    expect(m.vhost).toEqual(['h/.vh']);
    expect(m.discovered).toEqual(['a/.acl', 'b/.htaccess', 'h/.vh']);
    expectNoneMissed(m);
  });

  it('names are literal: `.ht*` reads the file named `.ht*`, not .htpasswd', async () => {
    const m = await measure('literal', 'AccessFileName .ht*');
    expect(m.main).toEqual(['i/.ht*']);
    expect(m.discovered).toEqual(['b/.htaccess', 'i/.ht*']);
    expect(m.skipped).toContain('g/.htpasswd');
    expectNoneMissed(m);
  });

  it('AccessFileName with no name turns per-directory files off', async () => {
    const m = await measure('none', 'AccessFileName');
    expect(m.main).toEqual([]);
    expect(m.discovered).toEqual(['b/.htaccess']);
  });
});

describe('AccessFileName context (apache2 -t)', () => {
  const check = (body: string) => {
    const dir = tempDir('codemod-afn-ctx-');
    try {
      const file = path.join(dir, 'httpd.conf');
      fs.writeFileSync(file, baseConfig(dir, 8) + body);
      return configtest(file);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it('is allowed in the server config and <VirtualHost>, not in <Directory>', () => {
    expect(check('AccessFileName .acl\n<VirtualHost *:8>\nAccessFileName .vh\n</VirtualHost>\n')).toEqual({
      ok: true,
      output: 'Syntax OK\n',
    });
    const inDirectory = check('<Directory /tmp>\nAccessFileName .acl\n</Directory>\n');
    expect(inDirectory.ok).toBe(false);
    expect(inDirectory.output).toContain('AccessFileName not allowed in <Directory> context');
  });
});
