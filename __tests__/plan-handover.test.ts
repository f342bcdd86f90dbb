/**
 * The plan worker hands the texts it reads to the main thread when the run looks like one server
 * (src/run/plan-worker.ts), and a server run in process takes those parsed files instead of
 * reading them again (load-server.ts, server-job.ts). Checked here: which runs hand texts over
 * (one server, a lone fragment) and which do not (two servers, two fragments: the main thread lets
 * them go); that the plan is the same either way; that a prepared file is the file as loading
 * would read and parse it; and that it stands for the file only when no interrupted write was
 * found (negative control: the same edit since planning is seen once a stage directory is there).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { vhostTree } from '../bench/generate';
import { planOnWorker } from '../src/run/plan-on-worker';
import { JobSettings, processServer } from '../src/run/server-job';
import { loadServer } from '../src/server/load-server';
import { planServers } from '../src/server/plan-servers';

jest.setTimeout(60000);

const settings: JobSettings = { mode: 'diff', only: [], skip: [], runOptions: {} };
// a Map from the worker belongs to another realm than jest's: told by its tag, not instanceof
const isMap = (v: unknown): v is Map<unknown, unknown> => Object.prototype.toString.call(v) === '[object Map]';
const ser = (value: unknown) => JSON.stringify(value, (_, v) => (isMap(v) ? [...v] : v));

let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'plan-handover-')));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function write(rel: string, text: string): string {
  const p = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text, 'latin1');
  return p;
}

test('one server: every file comes over, parsed as loading would parse it, and the plan is the same', async () => {
  vhostTree(path.join(tmp, 'one'), 30);
  const { plan, prepared } = await planOnWorker(['one'], { cwd: tmp });
  expect(ser(plan)).toEqual(ser(planServers(['one'], { cwd: tmp })));
  expect(plan.servers).toHaveLength(1);
  expect(prepared?.size).toBe(31);
  const loaded = loadServer(plan.servers[0]);
  for (const file of loaded.server.files) {
    const ready = prepared?.take(file.realPath);
    expect(ready?.text).toBe(file.original);
    expect(ready?.tree.print()).toBe(file.original);
    expect(ready?.writtenFor24).toBe(file.writtenFor24 === true);
    // handed out once: a tree is edited in place by the run that takes it
    expect(prepared?.take(file.realPath)).toBeNull();
  }
});

test('a lone fragment comes over once its plan is known to be one server', async () => {
  write('frag/site.conf', '<Directory /srv>\nOrder allow,deny\nAllow from all\n</Directory>\n');
  const { plan, prepared } = await planOnWorker(['frag'], { cwd: tmp });
  expect(plan.servers).toHaveLength(1);
  expect(prepared?.size).toBe(1);
});

test('two servers, or two fragments: nothing is kept (each server runs on a worker, which reads its own)', async () => {
  vhostTree(path.join(tmp, 'two', 'a'), 3);
  vhostTree(path.join(tmp, 'two', 'b'), 3);
  const servers = await planOnWorker(['two'], { cwd: tmp });
  expect(servers.plan.servers).toHaveLength(2);
  expect(servers.prepared).toBeNull();
  expect(ser(servers.plan)).toEqual(ser(planServers(['two'], { cwd: tmp })));

  write('frags/a.conf', 'Listen 80\n');
  write('frags/b.conf', 'Listen 81\n');
  const fragments = await planOnWorker(['frags'], { cwd: tmp });
  expect(fragments.plan.servers).toHaveLength(2);
  expect(fragments.prepared).toBeNull();
});

test('a prepared file stands for the file unless an interrupted write was found (which may have changed it since)', async () => {
  const main = write('srv/conf/httpd.conf', 'ServerRoot "' + path.join(tmp, 'srv') + '"\nInclude conf/site.conf\n');
  const site = write('srv/conf/site.conf', '<Directory /srv/www>\nOrder allow,deny\nAllow from all\n</Directory>\n');
  const planned = async () => {
    const { plan, prepared } = await planOnWorker([main], { cwd: tmp });
    expect(prepared).not.toBeNull();
    // an edit after planning (an editor's save)
    fs.writeFileSync(site, '<Directory /srv/www>\nOrder deny,allow\nDeny from all\n</Directory>\n');
    return processServer(plan.servers[0], settings, prepared);
  };

  const asPlanned = await planned();
  expect(asPlanned.patch).toContain('-Allow from all');
  expect(asPlanned.findings.map((f) => f.code)).not.toContain('interrupted-write-discarded');

  // negative control: with a stage directory of a run that is gone, the files are read again
  fs.writeFileSync(site, '<Directory /srv/www>\nOrder allow,deny\nAllow from all\n</Directory>\n');
  fs.mkdirSync(path.join(tmp, 'srv', 'conf', '.codemod-stage-999999-x'));
  const reread = await planned();
  expect(reread.findings.map((f) => f.code)).toContain('interrupted-write-discarded');
  expect(reread.patch).toContain('-Deny from all');
  expect(reread.patch).not.toContain('-Allow from all');
});
