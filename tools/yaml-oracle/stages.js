// Per-stage oracle for crates/npm-yaml: reads a JSON array of strings (argv[2] or stdin) and
// prints one JSON line per input: [lexer dump, CST dump, YAML.parse outcome, scalars dump].
// The scalars dump is resolveFlowScalar / resolveBlockScalar (strict, as YAML.parse calls them)
// on every flow and block scalar of the CST, in tree order.
//
// The dumps are the canonical text forms that crates/npm-yaml/tests/stages.rs writes for its
// own lexer and parser (keep the two in step): offsets and lengths in UTF-16 code units, as
// npm yaml counts them. The outcome is oracle.js's encoding plus `String(e)`.
'use strict';
const path = require('path');
const dir = path.join(process.env.ORACLE_DIR || '/work/oracle', 'node_modules/yaml');
const YAML = require(dir);
const { Lexer } = require(path.join(dir, 'dist/parse/lexer.js'));
const { Parser } = require(path.join(dir, 'dist/parse/parser.js'));
const cst = require(path.join(dir, 'dist/parse/cst.js'));
const { resolveFlowScalar } = require(path.join(dir, 'dist/compose/resolve-flow-scalar.js'));
const { resolveBlockScalar } = require(path.join(dir, 'dist/compose/resolve-block-scalar.js'));
const fs = require('fs');

const CODE = {
  'byte-order-mark': 'bom', 'doc-mode': 'D', 'doc-start': 'ds', 'doc-end': 'de', space: '_',
  comment: '#', newline: 'n', 'directive-line': '%', anchor: '&', tag: '!', 'seq-item-ind': '-',
  'explicit-key-ind': '?', 'map-value-ind': ':', 'flow-map-start': '{', 'flow-map-end': '}',
  'flow-seq-start': '[', 'flow-seq-end': ']', 'flow-error-end': 'F', comma: ',',
  'block-scalar-header': '|', alias: '*', scalar: 'S', 'single-quoted-scalar': 'sq',
  'double-quoted-scalar': 'dq',
};

function lexDump(src) {
  const out = [];
  let atScalar = false;
  for (const t of new Lexer().lex(src)) {
    if (atScalar) {
      out.push('v' + t.length);
      atScalar = false;
      continue;
    }
    const type = cst.tokenType(t);
    if (type === 'scalar') atScalar = true;
    if (type === 'doc-mode' || type === 'flow-error-end' || type === 'scalar') out.push(CODE[type]);
    else out.push((type ? CODE[type] : 'X') + t.length);
  }
  return out.join(' ');
}

function errCode(message) {
  if (message.startsWith('Not a YAML token: ')) return 'E1';
  if (message === 'Unexpected block-seq-ind on same line with key') return 'E2';
  let m = /^Unexpected (.*) token in YAML stream$/.exec(message);
  if (m) return 'E3:' + m[1];
  m = /^Unexpected (.*) token in YAML document$/.exec(message);
  if (m) return 'E4:' + m[1];
  return 'E?' + JSON.stringify(message);
}

function list(l) {
  return l === undefined ? '-' : '[' + l.map(tok).join(' ') + ']';
}

function item(it) {
  const key = it.sep === undefined ? (it.key === undefined ? '-' : '!' + tok(it.key)) : it.key === null || it.key === undefined ? '~' : tok(it.key);
  return '(' + list(it.start) + (it.explicitKey ? ' k ' : ' ') + key + ' ' + list(it.sep) + ' ' + (it.value === undefined ? '-' : tok(it.value)) + ')';
}

function tok(t) {
  switch (t.type) {
    case 'document':
      return '{doc ' + t.offset + ' ' + list(t.start) + ' ' + (t.value === undefined ? '-' : tok(t.value)) + ' ' + list(t.end) + '}';
    case 'doc-end':
      return '{de ' + t.offset + ' ' + t.source.length + ' ' + list(t.end) + '}';
    case 'directive':
      return '{% ' + t.offset + ' ' + t.source.length + '}';
    case 'error':
      return '{err ' + t.offset + ' ' + t.source.length + ' ' + errCode(t.message) + '}';
    case 'alias':
    case 'scalar':
    case 'single-quoted-scalar':
    case 'double-quoted-scalar':
      return '{' + CODE[t.type] + ' ' + t.offset + ' ' + t.source.length + ' ' + t.indent + ' ' + list(t.end) + '}';
    case 'block-scalar':
      return '{| ' + t.offset + ' ' + t.indent + ' ' + list(t.props) + ' ' + t.source.length + '}';
    case 'block-map':
      return '{map ' + t.offset + ' ' + t.indent + ' ' + t.items.map(item).join('') + '}';
    case 'block-seq':
      return '{seq ' + t.offset + ' ' + t.indent + ' ' + t.items.map(item).join('') + '}';
    case 'flow-collection':
      return '{fc ' + t.offset + ' ' + t.indent + ' ' + tok(t.start) + ' ' + t.items.map(item).join('') + ' ' + list(t.end) + '}';
    default:
      // a source token
      return CODE[t.type] + '.' + t.offset + '.' + t.source.length + '.' + t.indent;
  }
}

function cstDump(src) {
  const out = [];
  for (const t of new Parser().parse(src)) out.push(tok(t));
  return out.join('\n');
}

// Every flow and block scalar of a CST, resolved; `atRoot` for a block scalar that is a
// document's value (as compose-node's ctx.atRoot).
function scalarsDump(src) {
  const out = [];
  const errs = [];
  const onError = (at, code, message) => {
    const where = typeof at === 'number' ? String(at) : at.offset + ':' + at.source.length;
    errs.push(where + ' ' + code + ' ' + JSON.stringify(message));
  };
  const res = (r) => {
    out.push(JSON.stringify(r.value) + ' ' + r.type + ' ' + JSON.stringify(r.comment) + ' ' + r.range.join(',') +
      (errs.length ? ' ! ' + errs.join(' ; ') : ''));
    errs.length = 0;
  };
  const stack = [];
  const push = (t, atRoot) => { if (t && typeof t === 'object') stack.push([t, atRoot]); };
  const tops = Array.from(new Parser().parse(src));
  for (let i = tops.length - 1; i >= 0; --i) push(tops[i], false);
  while (stack.length) {
    const [t, atRoot] = stack.pop();
    switch (t.type) {
      case 'document':
        push(t.value, true);
        break;
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
        res(resolveFlowScalar(t, true, onError));
        break;
      case 'block-scalar':
        res(resolveBlockScalar({ atRoot, options: { strict: true } }, t, onError));
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        for (let k = t.items.length - 1; k >= 0; --k) {
          push(t.items[k].value, false);
          push(t.items[k].key, false);
        }
        break;
    }
  }
  return out.join('\n');
}

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

function outcome(src) {
  const warnings = [];
  const orig = process.emitWarning;
  process.emitWarning = (w) => { warnings.push(String(typeof w === 'string' ? 'Warning: ' + w : w)); };
  let out;
  try {
    out = { ok: enc(YAML.parse(src), new Set()), warnings };
  } catch (e) {
    out = { err: { name: e.name, code: e.code, pretty: String(e), pos: e.linePos ? e.linePos[0] : null }, warnings };
  } finally {
    process.emitWarning = orig;
  }
  return out;
}

const input = JSON.parse(fs.readFileSync(process.argv[2] || 0, 'utf8'));
const lines = [];
for (const s of input) lines.push(JSON.stringify([lexDump(s), cstDump(s), outcome(s), scalarsDump(s)]));
process.stdout.write(lines.join('\n') + '\n');
