/**
 * Fixture pairs per transform (lib2to3 / rector style), compared byte for byte:
 *   __tests__/fixtures/<transform-id>/<case>.input.conf
 *   __tests__/fixtures/<transform-id>/<case>.output.conf   (absent: the input must stay unchanged)
 *   __tests__/fixtures/<transform-id>/<case>.findings.json (optional: expected [code, severity, line] triples)
 *   __tests__/fixtures/<transform-id>/<case>.options.json  (optional: RunOptions, e.g. {"pinDefaults": true})
 * A case named `main-…` is a whole server's main config, `htaccess-…` a .htaccess file; any
 * other is a fragment of a server the run cannot see.
 * Each case also checks the input's round trip and the idempotence of the output.
 * UPDATE_FIXTURES=1 rewrites the outputs; read every diff before committing.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse } from '../src/cst';
import { transformText } from '../src/run/runner';
import { TRANSFORMS } from '../transforms';
import { RunOptions } from '../src/model/run-options';

const ROOT = path.join(__dirname, 'fixtures');
const read = (file: string) => fs.readFileSync(file).toString('latin1');
const planner = TRANSFORMS.filter((t) => t.id === 'load-modules');

const cases = TRANSFORMS.flatMap((transform) => {
  const dir = path.join(ROOT, transform.id);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.input.conf'))
    .sort()
    .map((name) => ({ transform, dir, name: name.replace(/\.input\.conf$/, '') }));
});

test('every transform has fixtures', () => {
  const missing = TRANSFORMS.filter((t) => t.id !== 'load-modules' && !fs.existsSync(path.join(ROOT, t.id))).map((t) => t.id);
  expect(missing).toEqual([]);
});

describe.each(cases)('$transform.id / $name', ({ transform, dir, name }) => {
  const input = read(path.join(dir, `${name}.input.conf`));
  const outputFile = path.join(dir, `${name}.output.conf`);
  const findingsFile = path.join(dir, `${name}.findings.json`);
  const pipeline = transform.id === 'load-modules' ? [transform] : [transform, ...planner];
  const role = name.startsWith('main-') ? 'main' : name.startsWith('htaccess-') ? 'htaccess' : 'fragment';
  const optionsFile = path.join(dir, `${name}.options.json`);
  const options: RunOptions = fs.existsSync(optionsFile) ? JSON.parse(fs.readFileSync(optionsFile, 'utf8')) : {};
  const result = transformText(input, pipeline, options, `${name}.conf`, role);

  test('input round-trips', () => {
    expect(parse(input).print()).toBe(input);
  });

  test('output is exact', () => {
    expect(result.errors).toEqual([]);
    if (process.env.UPDATE_FIXTURES === '1' && result.output !== input) {
      fs.writeFileSync(outputFile, Buffer.from(result.output, 'latin1'));
    }
    if (fs.existsSync(outputFile)) {
      const expected = read(outputFile);
      expect(expected).not.toBe(input);
      expect(result.output).toBe(expected);
    } else {
      expect(result.output).toBe(input);
    }
  });

  test('a second run changes nothing', () => {
    const again = transformText(result.output, pipeline, options, `${name}.conf`, role);
    expect(again.output).toBe(result.output);
  });

  if (fs.existsSync(findingsFile)) {
    test('findings', () => {
      const expected = JSON.parse(fs.readFileSync(findingsFile, 'utf8')) as [string, string, number][];
      const actual = result.findings.map((f) => [f.code, f.severity, f.line]);
      if (process.env.UPDATE_FIXTURES === '1') fs.writeFileSync(findingsFile, JSON.stringify(actual) + '\n');
      expect(actual).toEqual(expected);
    });
  }
});
