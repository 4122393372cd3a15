#!/usr/bin/env python3
"""Hand-written seed inputs for the differential check."""
import json, sys
S = r'''
a: 017
name: x\ndescription: y
name:\tvalue
key:\t- a
key:\t[a]
key:\t"x"
key:\t# c
- \tx
-\tx
key:\t\n  a: 1
key: \t- a
key:\t-1
key:\t&a x
key:\t!!str x
key:\t|\n  x
key:\t{a: 1}
key:\ta: b
\tkey: v
a:\n\tb: c
a:\n \tb: c
a: b\tc
a\t: b
? a\n:\tb
-\t- a
a: [\tb]
a: 1\na: 2
a: 1\n"a": 2
1: a\n0x1: b
1: a\n"1": b
a: b: c
description: use: this
description: [unclosed
description: {unclosed
a: 1\n--- \nb: 2
a: 1\n...\nb: 2
a: &x 1\nb: *x
a: *x
a: *x\nb: &x 1
&a [ *a ]
? [a, b]\n: c
!foo bar
!!int abc
!!str 123
!!float 1
!!int 1.0
!!null ~
!!null x
!!bool yes
!!timestamp 2001-12-14
!!timestamp 2001-12-14t21:59:43.10-05:00
!!timestamp 2001-12-14 21:59:43.10
!!timestamp 2002-12-14
!!timestamp 0099-01-01
!!timestamp abc
!!binary aGVsbG8=
!!binary |\n  R0lGODlhDAAMAIQAAP//9/X\n  17unp5WZmZgAAAOfn515eXv
!!set {a, b}
!!set {a: 1}
!!omap [a: 1, b: 2]
!!omap [a: 1, a: 2]
!!pairs [a: 1, a: 2]
!!omap\n- a: 1\n- b: 2
!!map [a]
!!seq a
!!set [a]
!!binary [a]
<<: {a: 1}
a: &b {x: 1}\nc:\n  <<: *b
a: &b {x: 1}\nc:\n  !!merge <<: *b\n  y: 2
yes: no
on: off
y: n
~: 1
null: 1
"": 1
true: 1
1.5: a
1e21: a
-0: a
0.1: a
.nan: a
.inf: a
-.inf: a
123456789012345678901: a
__proto__: 1
b: 1\na: 2\n2: x\n1: y
10: a\n9: b\n-1: c\n01: d\n4294967294: e\n4294967295: f
a:\n  - 1\n  - 2
a: |\n  line1\n  line2\n
a: >\n  folded\n  text\n\n  para\n
a: |-\n  x\n
a: |+\n  x\n\n
a: "esc \\t \\n \\x41 \\u263A \\\\ \\" \\/ \\N \\_ \\e \\0"
a: 'it''s'
a: "unterminated
a: 'unterminated
- a\n- b
[1, 2, 3]
{a: 1, b: 2}
# just a comment
\n
~
42
"str"
a: 0o17
a: 0x1F
a: 0b11
a: 1_000
a: +1
a: 1.
a: .5
a: 1e3
a: 1.0e-3
a: 12e
a: 0x
a: 0o8
a: -0x1
a: +0o7
a: 2001-12-14
a: 1:30
a: [a, b, {c: d}]
a: {b: [c, d]}
a:\n  b:\n    c: d
a: b\n  c: d
a: b\nc
- a\nb: c
a: &anchor\n  x: 1\nb: *anchor
a: *
a: &
a: &a: x
a: *a:
a: !<tag:yaml.org,2002:str> 1
a: !<!> x
a: ! 12
a: !e!x 1
a: !! x
a: !!str%20x y
a: !foo%zz y
a: "\\q"
a: "\\x4"
a: "\\ud800"
a: multi\n  line\n  plain
a: "multi\n  line \\\n  cont"
a: 'multi\n\n  line'
a: x # comment
a: x# not comment
a: "x"y
a: [a,b]c
%YAML 1.2\n--- \na: 1
%TAG !e! tag:e.com,2000:\n--- \na: !e!x 1
%FOO\na: 1
...\na: 1
a: 1\n...\n
a: 1\n...\n# c
a: 1\n... x
- - - x
a:\n- b
a:\n  - b\n  c: d
? |\n  block key\n: v
? a\n? b
{a, b: c}
[a: b, c]
{? a: b}
[? a]
{"a":1,"b":[true,false,null]}
a: -
a: - b
- - a\n  - b
a: b # c\n# d\n
 a: b
a: é\nb: ü
é: 1\n"é": 2
a: 𝄞\nb: *x
a: "𝄞" x
﻿- a
﻿  a: 1\n  b: 2
﻿  a:\n  b: 2
﻿  a: 1\nb: 2
﻿  a: b\n  c
﻿  a: |\n   x\n  b: c
﻿- - \n- b
﻿- [a]
﻿? a
# c\n﻿  name: a\n  description: b
!!set\na: # c\nb:
!!set\na: ~ # c
x: !!set\n  a:\n# c\ny: 1
!!set\na:\n\n# c\nb:
name: a\n\n[x]: 2
name: a\n# c\n{x: y}: 2
a:\n  b: 1\n  # c\n[x]: 2
|\n\tx
--- >+\n\tx
name: a\ndescription: b\n : c
k: False\n : v
a:\n  b: 1\n : v
m:\n  k: 1\n   : v\n  z: 2
- k: 1\n   : v
k: [a]\n : v
k: 1\n : v\n   : w
? x\n : v
? x: 1\n : v
k: &a\n : v
k: 1\n : - a
: - a
- : - a
? x\n : - a
k: 1\n :\n   - a
k: 1\n : v\n w
a:\n- 1\n : v
a:\n- 1\nb: 2\n : v
metadata:\n  ? [a, # c\n   b]\n  : 1
? [a, # c\n b]\n: 1
? [a # c\n , b]\n: 1
? [a,\n # c\n b]\n: 1
? [a,\n\n b]\n: 1
? [a, b # c\n ]\n: 1
? [a, b, # c\n ]\n: 1
? [ # c\n a, b]\n: 1
? [a, # c1\n # c2\n b]\n: 1
? [a,\n # c1\n # c2\n b]\n: 1
? [[a] # c\n , b]\n: 1
? [[a, # c\n  b], c]\n: 1
? [a: 1 # c\n , b]\n: 1
? [a: 1, # c\n b]\n: 1
? {a: 1 # c\n , b: 2}\n: 1
? {a # c\n , b: 2}\n: 1
? {a # c\n : 1, b: 2}\n: 1
? {a:\n\n 1}\n: 1
? {a: # c\n 1}\n: 1
? {a: 1,\n #\n }\n: 1
metadata:\n  ? {a: 1, # c\n   b: [x, # d\n    y]}\n  : 1
? !!omap [a: 1, # c\n b: 2]\n: 1
x: &x 1\n? {*x : 1}\n: 2
? - a # c\n  - b\n: 1
? - a\n  # c\n  - b\n: 1
? - a # c\n      # d\n  - b\n: 1
? - a\n\n  - b\n: 1
? - null # c\n: 1
? a: 1 # c\n  b: 2\n: 1
? a: 1\n  # c\n  b: 2\n: 1
? ? a # c\n  : 1\n: 2
? a: # c\n    1\n: 2
metadata:\n  ? - a # c\n    - [b, # d\n       c]\n  : 1
? x\n-\tb: 1
? x\n- {a: 1, a: 2}
? x: 1\n-\tb: 1
name: a\n? x\n- !!int abc
? x\n- !!set {a: 1}
'''
cases = []
for line in S.strip('\n').split('\n'):
    out = []
    i = 0
    while i < len(line):
        c = line[i]
        if c == '\\' and i + 1 < len(line):
            n = line[i+1]
            out.append({'n': '\n', 't': '\t', 'r': '\r', '\\': '\\'}.get(n, '\\' + n))
            i += 2
        else:
            out.append(c)
            i += 1
    s = ''.join(out)
    cases.append(s)
    cases.append(s + '\n')
json.dump(cases, sys.stdout)
