import { describe, expect, it } from 'vitest';
import { percentiles } from '../../bench/maskbench/percentiles.js';
import {
  PyFloat,
  PyInt,
  parsePythonJson,
  pythonDumps,
  pythonFloatRepr,
  toPlain,
} from '../../bench/maskbench/python-json.js';

// Expected strings are what CPython 3 prints for json.dumps(json.loads(text), ensure_ascii=False).
const dumps = (text: string) => pythonDumps(parsePythonJson(text));

describe('pythonFloatRepr', () => {
  it.each([
    [1, '1.0'],
    [-2, '-2.0'],
    [0, '0.0'],
    [-0, '-0.0'],
    [0.1, '0.1'],
    [1.5, '1.5'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e-7, '1.5e-07'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16'],
    [1e20, '1e+20'],
    [123456789012345680000, '1.2345678901234568e+20'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [5e-324, '5e-324'],
    [0.1 + 0.2, '0.30000000000000004'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NaN, 'NaN'],
  ])('%d -> %s', (value, expected) => {
    expect(pythonFloatRepr(value)).toBe(expected);
  });
});

describe('pythonDumps of parsed JSON', () => {
  it('keeps integers and floats apart as Python reads them', () => {
    expect(dumps('[1, 1.0, 1e2, 1E-5, -0, -0.0, 2.50]')).toBe('[1, 1.0, 100.0, 1e-05, 0, -0.0, 2.5]');
  });

  it('keeps integers beyond 2^53 digit for digit', () => {
    expect(dumps('12345678901234567890123')).toBe('12345678901234567890123');
    expect(parsePythonJson('7')).toBeInstanceOf(PyInt);
    expect(parsePythonJson('7.0')).toBeInstanceOf(PyFloat);
  });

  it('uses ", " and ": " and no other whitespace, nested', () => {
    expect(dumps('{ "a" :[ 1 ,{"b":null,"c":[true,false]} ] , "d":{}, "e":[] }')).toBe(
      '{"a": [1, {"b": null, "c": [true, false]}], "d": {}, "e": []}',
    );
  });

  it('writes non-ASCII as is and escapes what Python escapes', () => {
    expect(dumps('"caf\\u00e9 \\ud83d\\ude00 ü"')).toBe('"café 😀 ü"');
    expect(dumps('"tab\\t nl\\n quote\\" back\\\\ slash\\/ bell\\u0007 del\\u007f"')).toBe(
      '"tab\\t nl\\n quote\\" back\\\\ slash/ bell\\u0007 del\u007f"',
    );
  });

  it('keeps key order as written, index-like keys included, and a repeated key in its first place', () => {
    expect(dumps('{"b": 1, "2": 2, "a": 3, "1": 4, "b": 5}')).toBe('{"b": 5, "2": 2, "a": 3, "1": 4}');
  });

  it('reads NaN and Infinity as Python json does', () => {
    expect(dumps('[NaN, Infinity, -Infinity, 1e400]')).toBe('[NaN, Infinity, -Infinity, Infinity]');
  });

  it('refuses what is not JSON', () => {
    expect(() => parsePythonJson('{"a": 01}')).toThrow(SyntaxError);
    expect(() => parsePythonJson('[1, 2')).toThrow(SyntaxError);
    expect(() => parsePythonJson('"a" "b"')).toThrow(SyntaxError);
  });

  it('gives plain values for a schema, with __proto__ as an ordinary key', () => {
    const plain = toPlain(parsePythonJson('{"__proto__": {"type": "string"}, "n": 1.5}')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(plain)).toEqual(['__proto__', 'n']);
    expect(plain.n).toBe(1.5);
  });
});

describe('percentiles', () => {
  it('takes the nearest rank: every value reported was measured', () => {
    const samples = Array.from({ length: 1000 }, (_, i) => 1000 - i); // 1..1000, unsorted
    expect(percentiles(samples)).toEqual({
      count: 1000,
      p25: 250,
      p50: 500,
      p75: 750,
      p90: 900,
      p99: 990,
      p99_9: 999,
      max: 1000,
    });
  });

  it('handles one sample and none', () => {
    expect(percentiles([7])).toMatchObject({ p25: 7, p50: 7, p99_9: 7, max: 7 });
    expect(percentiles([])).toMatchObject({ count: 0, p50: null, max: null });
  });
});
