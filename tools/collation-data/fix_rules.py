"""Put back every collation rule string (`Sequence`) of the derb-made sources in src2/ as ICU 78.3
returns it (derb cuts at least one long string: ja's private-kana). Run with PyICU 78.3 on the
path, from the work directory of regenerate.sh (reads src/, rewrites src2/)."""
import icu
import os
import re
import sys

fixed = 0
for fn in sorted(os.listdir('src')):
    text = open(os.path.join('src', fn), encoding='utf-8').read()
    if 'Sequence' not in text:
        continue
    rb = icu.ResourceBundle('icudt78l-coll', icu.Locale(fn[:-4]))
    cols = rb.get('collations')
    for m in re.finditer(r'^( {8})([\w-]+)\{\n( {12}Sequence \{ ")(.*)(" \}\n)', text, re.M):
        full = cols.get(m.group(2)).get('Sequence').getString()
        esc = full.replace('\\', '\\\\').replace('"', '\\"')
        if esc != m.group(4):
            fixed += 1
            print(fn, m.group(2), len(m.group(4)), '->', len(esc), file=sys.stderr)
            text = text.replace(m.group(3) + m.group(4) + m.group(5), m.group(3) + esc + m.group(5))
    open(os.path.join('src2', fn), 'w', encoding='utf-8').write(text)
print('rule strings put back:', fixed)
