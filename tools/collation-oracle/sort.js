// Collation oracle, one process per environment (the default locale is fixed per process).
// Reads a JSON array of names from the file in argv[2]; prints one JSON object:
//   locale: the default collator's resolvedOptions().locale (V8's default locale),
//   order:  indices of the names, sorted as the harness sorts a root's entries: the names in
//           byte order first (libuv's scandir), then a stable sort by a.localeCompare(b),
//   equal:  for each adjacent pair of `order`, whether localeCompare gave 0.
'use strict';
const fs = require('fs');
const names = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const bytes = (s) => Buffer.from(s, 'utf8');
const idx = names.map((_, i) => i);
idx.sort((a, b) => Buffer.compare(bytes(names[a]), bytes(names[b])));
idx.sort((a, b) => names[a].localeCompare(names[b]));
const equal = [];
for (let i = 1; i < idx.length; i++) equal.push(names[idx[i - 1]].localeCompare(names[idx[i]]) === 0);
const ro = new Intl.Collator().resolvedOptions();
process.stdout.write(JSON.stringify({ locale: ro.locale, order: idx, equal }) + '\n');
