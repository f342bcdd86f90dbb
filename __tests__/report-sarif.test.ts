/**
 * --format sarif: a SARIF 2.1.0 log valid against the OASIS schema (__tests__/schemas/, see its
 * README), one rule per finding code, one result per finding with its file and line, levels
 * manual → error, review → warning, info → note; files that could not be used are notifications.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import * as fs from 'fs';
import * as path from 'path';
import type * as Sarif from 'sarif';
import { pathToFileURL } from 'url';
import { findingCode } from '../src/report/finding-codes';
import { ROOT, buildReportFleet, codemod, tempDir } from './support/report-fleet';

const schema = JSON.parse(fs.readFileSync(path.join(__dirname, 'schemas', 'sarif-schema-2.1.0.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

function errorsOf(log: unknown): string[] {
  return validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

let tmp: string;
beforeEach(() => {
  tmp = tempDir('codemod-sarif-');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('the schema rejects what is not SARIF 2.1.0 (the validator is live)', () => {
  expect(errorsOf({ version: '2.1.0', runs: [] })).toEqual([]);
  expect(errorsOf({ version: '2.0.0', runs: [] })).not.toEqual([]);
  const badLevel = { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }] };
  expect(errorsOf(badLevel)).not.toEqual([]);
  const badUri = { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'a b%' } } }] }] }] };
  expect(errorsOf(badUri)).not.toEqual([]);
});

describe('a fleet', () => {
  let log: Sarif.Log;
  let status: number | null;
  let stdout: string;

  beforeEach(() => {
    buildReportFleet(tmp, { oddName: true });
    const r = codemod(tmp, ['--format', 'sarif', 'fleet']);
    status = r.status;
    stdout = r.stdout;
    log = JSON.parse(r.stdout);
  });

  test('is valid against the SARIF 2.1.0 schema, ASCII only, and keeps the exit code', () => {
    expect(errorsOf(log)).toEqual([]);
    expect(stdout).toMatch(/^[\x00-\x7f]*$/);
    expect(status).toBe(2); // broken.conf
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0].tool.driver.name).toBe('httpd-codemod');
    expect(log.runs[0].tool.driver.version).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
  });

  test('one rule per code, described from the catalogue; results point at their rule', () => {
    const run = log.runs[0];
    const rules = run.tool.driver.rules ?? [];
    const results = run.results ?? [];
    const codes = [...new Set(results.map((r) => r.ruleId))].sort();
    expect(rules.map((r) => r.id)).toEqual(codes);
    for (const r of results) expect(rules[r.ruleIndex as number].id).toBe(r.ruleId);
    const thirdParty = rules.find((r) => r.id === 'module-third-party') as Sarif.ReportingDescriptor;
    expect(thirdParty.shortDescription?.text).toBe(findingCode('module-third-party')?.summary);
    expect(thirdParty.fullDescription?.markdown).toBe(findingCode('module-third-party')?.meaning);
    expect(thirdParty.defaultConfiguration?.level).toBe('error');
    expect(rules.find((r) => r.id === 'default-type-removed')?.defaultConfiguration?.level).toBe('note'); // usually info
  });

  test('one result per finding, with level, file and line', () => {
    const json = JSON.parse(codemod(tmp, ['--format', 'json', 'fleet']).stdout) as { findings: { code: string; severity: string; file: string; line: number; message: string }[] };
    const results = log.runs[0].results ?? [];
    expect(results).toHaveLength(json.findings.length);
    const level = { manual: 'error', review: 'warning', info: 'note' } as Record<string, string>;
    json.findings.forEach((f, i) => {
      const r = results[i];
      expect(r.ruleId).toBe(f.code);
      expect(r.level).toBe(level[f.severity]);
      expect(r.message.text).toBe(f.message);
      const where = r.locations?.[0].physicalLocation;
      expect(decodeURIComponent(where?.artifactLocation?.uri ?? '')).toBe(f.file);
      expect(where?.artifactLocation?.uriBaseId).toBe('%SRCROOT%');
      // a file-level finding (line 0) points at line 1, and says so
      expect(where?.region?.startLine).toBe(Math.max(1, f.line));
      expect(r.properties?.fileLevel).toBe(f.line === 0 ? true : undefined);
    });
    const manual = results.find((r) => r.ruleId === 'module-third-party');
    expect(manual).toMatchObject({ level: 'error', locations: [{ physicalLocation: { artifactLocation: { uri: 'fleet/web1/httpd.conf' }, region: { startLine: 3 } } }] });
    expect(results.find((r) => r.ruleId === 'default-type-removed')).toMatchObject({ level: 'warning', locations: [{ physicalLocation: { region: { startLine: 6 } } }] });
    expect(results.find((r) => r.ruleId === 'max-clients-renamed')).toMatchObject({ level: 'note' });
    // a name with a space, comma, colon and percent sign is a valid URI reference
    const odd = results.find((r) => r.ruleId === 'keep-alive-normalized');
    expect(odd?.locations?.[0].physicalLocation?.artifactLocation?.uri).toBe('fleet/loose/odd%2C%20name%3A%20100%25.conf');
    // the base resolves to the working directory
    const base = log.runs[0].originalUriBaseIds?.['%SRCROOT%']?.uri;
    expect(base).toBe(pathToFileURL(fs.realpathSync(tmp)).href + '/');
  });

  test('a file that could not be used is an error notification; the invocation failed', () => {
    const invocation = log.runs[0].invocations?.[0] as Sarif.Invocation;
    expect(invocation.executionSuccessful).toBe(false);
    expect(invocation.toolExecutionNotifications).toEqual([
      {
        level: 'error',
        message: { text: '<Directory> is never closed' },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'fleet/loose/broken.conf', uriBaseId: '%SRCROOT%' }, region: { startLine: 1 } } }],
      },
    ]);
  });
});

test('a clean run: no results, a successful invocation, exit 0; identical for every --jobs', () => {
  fs.mkdirSync(path.join(tmp, 'clean'));
  fs.writeFileSync(path.join(tmp, 'clean', 'a.conf'), 'Listen 80\n');
  const r = codemod(tmp, ['--format', 'sarif', 'clean']);
  const log = JSON.parse(r.stdout) as Sarif.Log;
  expect(errorsOf(log)).toEqual([]);
  expect(r.status).toBe(0);
  expect(log.runs[0].results).toEqual([]);
  expect(log.runs[0].tool.driver.rules).toEqual([]);
  expect(log.runs[0].invocations?.[0].executionSuccessful).toBe(true);

  buildReportFleet(tmp);
  const runs = ['1', '2', '3'].map((n) => codemod(tmp, ['--format', 'sarif', '--jobs', n, 'fleet']));
  for (const other of runs.slice(1)) expect(other).toEqual(runs[0]);
});

test('a file outside the working directory has a file: URI', () => {
  const inside = path.join(tmp, 'cwd');
  fs.mkdirSync(inside);
  fs.writeFileSync(path.join(tmp, 'outside.conf'), 'MaxClients 5\n');
  const r = codemod(inside, ['--format', 'sarif', path.join(tmp, 'outside.conf')]);
  const log = JSON.parse(r.stdout) as Sarif.Log;
  expect(errorsOf(log)).toEqual([]);
  const location = log.runs[0].results?.[0].locations?.[0].physicalLocation?.artifactLocation;
  expect(location).toEqual({ uri: pathToFileURL(path.join(fs.realpathSync(tmp), 'outside.conf')).href });
});
