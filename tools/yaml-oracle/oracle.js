// Differential oracle: reads a JSON array of strings on stdin (or argv[2] file),
// prints one JSON line per input with the canonical encoding of YAML.parse result.
'use strict';
const path = require('path');
const YAML = require(path.join(process.env.ORACLE_DIR || '/work/oracle', 'node_modules/yaml'));
const fs = require('fs');

function enc(v, seen) {
  if (v === null) return null;
  if (v === undefined) return { undef: true };
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return { num: Object.is(v, -0) ? '-0' : String(v) };
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return { bigint: String(v) };
  if (typeof v === 'symbol') return { symbol: String(v) };
  if (seen.has(v)) return { circular: true };
  seen.add(v);
  let r;
  if (Array.isArray(v)) r = v.map(x => enc(x, seen));
  else if (v instanceof Date) r = { date: String(v.getTime()) };
  else if (v instanceof Uint8Array) r = { buf: Array.from(v) };
  else if (v instanceof Map) r = { map: Array.from(v.entries()).map(([k, x]) => [enc(k, seen), enc(x, seen)]) };
  else if (v instanceof Set) r = { set: Array.from(v.values()).map(x => enc(x, seen)) };
  else r = { obj: Object.keys(v).map(k => [k, enc(v[k], seen)]) };
  seen.delete(v);
  return r;
}

function run(src) {
  const warnings = [];
  const orig = process.emitWarning;
  process.emitWarning = (w) => { warnings.push(String(typeof w === 'string' ? 'Warning: ' + w : w)); };
  let out;
  try {
    const v = YAML.parse(src);
    let json;
    try { json = JSON.stringify(v); } catch (e) { json = 'THROWS: ' + String(e.name); }
    out = { ok: enc(v, new Set()), json: json === undefined ? null : json, warnings };
  } catch (e) {
    out = { err: { name: e.name, message: e.message.split(' at line ')[0], pretty: String(e), pos: e.linePos ? e.linePos[0] : null }, warnings };
  } finally {
    process.emitWarning = orig;
  }
  return out;
}

const input = fs.readFileSync(process.argv[2] || 0, 'utf8');
const arr = JSON.parse(input);
const lines = [];
for (const s of arr) lines.push(JSON.stringify(run(s)));
process.stdout.write(lines.join('\n') + '\n');
