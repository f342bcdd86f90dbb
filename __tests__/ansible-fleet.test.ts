/**
 * examples/ansible/ run by Debian's ansible-playbook against an inventory of local hosts
 * (connection local, each with its own config root: copies of the three example trees), with
 * this checkout's built CLI as the host's command: a dry run fetches one report per host and
 * changes no byte, `-e codemod_write=true` migrates, a third dry run has nothing left to change,
 * and a host whose config does not parse fails (exit 2) while the others still report and write.
 *
 * Ansible's home, temporary directories and configuration stay inside the test's directory;
 * no network, no ssh. npm test installs ansible first (scripts/ensure-ansible.sh): when
 * ansible-playbook is missing, this suite fails, it does not skip.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { tempDir } from './support/httpd';
import { copyTree } from './support/whole-server';

const ROOT = path.join(__dirname, '..');
const PLAYBOOK = path.join(ROOT, 'examples', 'ansible', 'migrate.yml');
const BIN = path.join(ROOT, 'dist', 'src', 'cli.js');
const TREES = { debian: 'debian-2.2', upstream: 'upstream-2.2', rhel: 'rhel-2.2' } as const;
type HostName = keyof typeof TREES | 'broken';
const HOSTS = Object.keys(TREES) as (keyof typeof TREES)[];

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

interface Report {
  mode: string;
  summary: { changed: number; unchanged: number; errors: number; needReview: number; needManual: number };
  servers: { id: string; main: string | null; status: string; files: { path: string; status: string }[]; errors: { path: string; line?: number; message: string }[] }[];
  files: { path: string; status: string }[];
  errors: { path: string; line?: number; message: string }[];
}

/** ansible-playbook's environment: its home, temporary directories and (empty) configuration under dir. */
function ansibleEnv(dir: string): NodeJS.ProcessEnv {
  const home = path.join(dir, 'ansible-home');
  const config = path.join(dir, 'ansible.cfg');
  // an empty configuration: neither /etc/ansible/ansible.cfg nor a user's settings apply
  if (!fs.existsSync(config)) fs.writeFileSync(config, '[defaults]\n');
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ANSIBLE_'))),
    HOME: home,
    ANSIBLE_HOME: path.join(home, '.ansible'),
    ANSIBLE_CONFIG: config,
    ANSIBLE_LOCAL_TEMP: path.join(dir, 'ansible-tmp', 'local'),
    ANSIBLE_REMOTE_TEMP: path.join(dir, 'ansible-tmp', 'remote'),
    ANSIBLE_NOCOLOR: '1',
    LC_ALL: 'C.UTF-8', // ansible-core refuses a locale whose encoding is not UTF-8
  };
}

/** A fleet on this machine: per host a config root and a report directory, and the controller's side. */
class Fleet {
  readonly dir = tempDir('codemod-ansible-');
  readonly reports = path.join(this.dir, 'controller', 'reports');

  constructor(readonly hosts: readonly HostName[]) {
    for (const host of hosts) {
      if (host === 'broken') {
        fs.mkdirSync(this.root(host), { recursive: true });
        // <Directory> never closed: the tool's exit 2
        fs.writeFileSync(path.join(this.root(host), 'httpd.conf'), 'ServerRoot "/etc/httpd"\nListen 80\n<Directory "/var/www">\n    Order allow,deny\n    Allow from all\n');
      } else copyTree(path.join(ROOT, 'examples', TREES[host]), this.root(host));
    }
    const hostVars = (host: HostName) => ({
      ansible_connection: 'local',
      codemod_config_root: this.root(host),
      codemod_report_dir: this.hostReportDir(host),
    });
    const inventory = {
      webservers: {
        // the python that runs ansible-playbook on this machine (Debian's /usr/bin/python3)
        vars: { ansible_python_interpreter: '{{ ansible_playbook_python }}' },
        hosts: Object.fromEntries(hosts.map((h) => [h, hostVars(h)])),
      },
    };
    fs.writeFileSync(path.join(this.dir, 'inventory.json'), JSON.stringify(inventory, null, 2));
  }

  root(host: HostName): string {
    return path.join(this.dir, 'hosts', host, 'httpd');
  }

  hostReportDir(host: HostName): string {
    return path.join(this.dir, 'hosts', host, 'codemod-reports');
  }

  /** ansible-playbook examples/ansible/migrate.yml with the built CLI as the hosts' command. */
  play(extraVars: Record<string, unknown> = {}): { status: number | null; output: string } {
    const vars = {
      codemod_command: `${shellQuote(process.execPath)} ${shellQuote(BIN)}`,
      codemod_fetch_dir: this.reports,
      ...extraVars,
    };
    const r = spawnSync('ansible-playbook', ['-i', 'inventory.json', PLAYBOOK, '-e', JSON.stringify(vars)], {
      cwd: this.dir,
      env: ansibleEnv(this.dir),
      encoding: 'utf8',
      timeout: 240_000,
    });
    if (r.error) throw r.error;
    return { status: r.status, output: `${r.stdout}${r.stderr}` };
  }

  /** A fetched report, as bytes. */
  reportBytes(host: HostName, suffix = ''): Buffer {
    return fs.readFileSync(path.join(this.reports, `${host}${suffix}.json`));
  }

  report(host: HostName, suffix = ''): Report {
    return JSON.parse(this.reportBytes(host, suffix).toString('latin1')) as Report;
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** What `--check --format json` prints when run by hand the way the playbook runs it (from /). */
function directReport(root: string): { status: number | null; stdout: Buffer } {
  const r = spawnSync(process.execPath, [BIN, '--check', '--format', 'json', root], { cwd: '/', env: { ...process.env, CI: 'true' } });
  return { status: r.status, stdout: r.stdout };
}

/** Every regular file under dir (absolute path → bytes); symlinks as their link text. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(entry.parentPath, entry.name);
    if (entry.isSymbolicLink()) out.set(p, '-> ' + fs.readlinkSync(p));
    else if (entry.isFile()) out.set(p, fs.readFileSync(p).toString('latin1'));
  }
  return out;
}

function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

/** PLAY RECAP lines: host → counts. */
function recap(output: string): Record<string, { ok: number; changed: number; unreachable: number; failed: number }> {
  const out: Record<string, { ok: number; changed: number; unreachable: number; failed: number }> = {};
  const tail = output.slice(output.indexOf('PLAY RECAP'));
  for (const m of tail.matchAll(/^(\S+)\s+: ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)/gm)) {
    out[m[1]] = { ok: Number(m[2]), changed: Number(m[3]), unreachable: Number(m[4]), failed: Number(m[5]) };
  }
  return out;
}

/** Files a report says are (to be) changed, as absolute paths (the playbook runs the tool from /). */
function reportedChanges(report: Report): string[] {
  return report.files.filter((f) => f.status === 'changed').map((f) => '/' + f.path).sort();
}

beforeAll(() => {
  const dir = tempDir('codemod-ansible-');
  const v = spawnSync('ansible-playbook', ['--version'], { encoding: 'utf8', env: ansibleEnv(dir) });
  fs.rmSync(dir, { recursive: true, force: true });
  if (v.error || v.status !== 0) {
    throw new Error(
      `ansible-playbook is not usable (${v.error?.message ?? v.stderr}): npm test installs Debian's ansible-core with scripts/ensure-ansible.sh; run it, then this suite`,
    );
  }
});

describe('three hosts: dry run, write, dry run again', () => {
  let fleet: Fleet;
  const original = new Map<HostName, Map<string, string>>();
  const firstCheck = new Map<HostName, Report>();

  beforeAll(() => {
    fleet = new Fleet(HOSTS);
    for (const host of HOSTS) original.set(host, snapshot(fleet.root(host)));
  });
  afterAll(() => fleet?.remove());

  test('the dry run fetches one report per host, byte for byte what the tool prints, and changes no byte', () => {
    const expected = new Map(HOSTS.map((h) => [h, directReport(fleet.root(h))]));
    for (const { status } of expected.values()) expect(status).toBe(1); // changes pending: not a failure

    const run = fleet.play();
    expect(run.output).not.toMatch(/fatal:|FAILED!/);
    expect(run.status).toBe(0);
    const counts = recap(run.output);
    expect(Object.keys(counts).sort()).toEqual([...HOSTS].sort());
    for (const host of HOSTS) expect(counts[host]).toMatchObject({ unreachable: 0, failed: 0 });

    expect(fs.readdirSync(fleet.reports).sort()).toEqual(HOSTS.map((h) => `${h}.json`).sort());
    for (const host of HOSTS) {
      const bytes = fleet.reportBytes(host);
      expect(bytes.equals(expected.get(host)!.stdout)).toBe(true);
      const report = fleet.report(host);
      firstCheck.set(host, report);
      expect(report.mode).toBe('check');
      expect(report.summary.changed).toBeGreaterThan(0);
      expect(report.summary.errors).toBe(0);
      expect(report.servers.length).toBeGreaterThan(0);
      for (const s of report.servers) expect(['unchanged', 'migrated', 'review', 'manual']).toContain(s.status);
      expect(run.output).toContain(`servers: ${report.servers.length} (`);
      expect(run.output).toContain(`files: ${report.summary.changed} to change`);
      // no byte changed in the config root; on the host only the dry run's report
      expect(changedPaths(original.get(host)!, snapshot(fleet.root(host)))).toEqual([]);
      expect(fs.readdirSync(fleet.hostReportDir(host))).toEqual(['check.json']);
    }
    // each host's main config is a server that the migration changes
    const mainOf = (host: HostName, rel: string) =>
      fleet.report(host).servers.find((s) => s.main === path.relative('/', path.join(fleet.root(host), rel)));
    expect(mainOf('debian', 'apache2.conf')?.status).toMatch(/^(migrated|review)$/);
    expect(mainOf('upstream', 'conf/httpd.conf')?.status).toMatch(/^(migrated|review)$/);
    expect(mainOf('rhel', 'conf/httpd.conf')?.status).toMatch(/^(migrated|review)$/);
    expect(fleet.report('rhel').servers).toHaveLength(1);
  }, 300_000);

  test('-e codemod_write=true writes exactly the files the dry run named, and fetches the write reports', () => {
    const run = fleet.play({ codemod_write: true });
    expect(run.output).not.toMatch(/fatal:|FAILED!/);
    expect(run.status).toBe(0);
    const counts = recap(run.output);
    for (const host of HOSTS) {
      expect(counts[host]).toMatchObject({ unreachable: 0, failed: 0 });
      expect(counts[host].changed).toBeGreaterThan(0);
      const planned = reportedChanges(firstCheck.get(host)!);
      expect(changedPaths(original.get(host)!, snapshot(fleet.root(host)))).toEqual(planned);
      const written = fleet.report(host, '.write');
      expect(written.mode).toBe('write');
      expect(written.summary.changed).toBe(planned.length);
      expect(reportedChanges(written)).toEqual(planned);
      expect(fs.readdirSync(fleet.hostReportDir(host)).sort()).toEqual(['check.json', 'write.json']);
    }
    const rhel = fs.readFileSync(path.join(fleet.root('rhel'), 'conf', 'httpd.conf'), 'latin1');
    expect(rhel).not.toMatch(/^\s*AcceptMutex/m);
    const mpm = fs.readFileSync(path.join(fleet.root('upstream'), 'conf', 'extra', 'httpd-mpm.conf'), 'latin1');
    expect(mpm).toMatch(/^\s+MaxRequestWorkers\s+150$/m);
    expect(mpm).not.toMatch(/^\s*MaxClients/m);
  }, 300_000);

  test('a third dry run has nothing to change, and the write step is skipped even when asked', () => {
    const before = new Map(HOSTS.map((h) => [h, snapshot(fleet.root(h))]));
    const run = fleet.play({ codemod_write: true });
    expect(run.status).toBe(0);
    for (const host of HOSTS) {
      const report = fleet.report(host);
      expect(report.mode).toBe('check');
      expect(report.summary.changed).toBe(0);
      expect(report.summary.errors).toBe(0);
      // what remains is only for a human: findings to review or act on
      for (const s of report.servers) expect(['unchanged', 'review', 'manual']).toContain(s.status);
      expect(directReport(fleet.root(host)).status).toBe(report.summary.needManual > 0 ? 1 : 0);
      expect(changedPaths(before.get(host)!, snapshot(fleet.root(host)))).toEqual([]);
    }
    expect(run.output).toMatch(/TASK \[codemod : Write the migration\] \*+\nskipping: \[\w+\]\nskipping: \[\w+\]\nskipping: \[\w+\]\n/);
    expect(run.output).not.toContain('--write --format json');
  }, 300_000);
});

describe('negative control: a host whose config does not parse', () => {
  let fleet: Fleet;
  afterAll(() => fleet?.remove());

  test('fails (exit 2) with its error and report, is not written; the others still report and write', () => {
    fleet = new Fleet([...HOSTS, 'broken']);
    const brokenBefore = snapshot(fleet.root('broken'));
    expect(directReport(fleet.root('broken')).status).toBe(2);

    const run = fleet.play({ codemod_write: true });
    expect(run.status).toBe(2); // ansible-playbook: a host failed
    const counts = recap(run.output);
    expect(counts.broken).toMatchObject({ unreachable: 0, failed: 1 });
    const brokenConf = path.join(fleet.root('broken'), 'httpd.conf');
    expect(run.output).toContain(`fatal: [broken]: FAILED!`);
    expect(run.output).toContain(`exited 2 on ${fleet.root('broken')}: ${brokenConf}:3: <Directory> is never closed`);

    const broken = fleet.report('broken');
    expect(broken.servers.map((s) => s.status)).toEqual(['error']);
    expect(broken.servers[0].errors).toEqual([{ path: path.relative('/', brokenConf), line: 3, message: '<Directory> is never closed' }]);
    expect(changedPaths(brokenBefore, snapshot(fleet.root('broken')))).toEqual([]);
    expect(fs.existsSync(path.join(fleet.reports, 'broken.write.json'))).toBe(false);
    expect(fs.readdirSync(fleet.hostReportDir('broken'))).toEqual(['check.json']);

    for (const host of HOSTS) {
      expect(counts[host]).toMatchObject({ unreachable: 0, failed: 0 });
      expect(fleet.report(host).summary.changed).toBeGreaterThan(0);
      expect(fleet.report(host, '.write').summary.changed).toBe(fleet.report(host).summary.changed);
    }
  }, 300_000);
});
