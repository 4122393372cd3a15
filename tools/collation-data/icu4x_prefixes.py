"""Give ICU4X's contraction matcher the intermediate contractions it needs. Run after genrb and
icu4x_root.py, from the work directory of regenerate.sh, with PyICU 78.3 on the path; rewrites
the tailorings' `*_data.toml` in icuexport/collation/unihan/.

ICU4X's collator (icu_collator 2.4, `elements.rs`) gathers the non-starters that follow a
starter and matches them against the starter's contraction suffixes first; it goes on to a
following starter only when every gathered non-starter was consumed by a suffix that has a
value (`at_least_one_suffix_contains_starter && combining_characters.is_empty()`). ICU4C walks
the contraction trie contiguously and needs no value there. So a tailored contraction of a
starter, non-starters and then a starter (kok's and mr's `क्ष`, or's `କ୍ଷ`, as's `ক্ষ`, ...)
never matched in ICU4X: `क्ष` sorted as `क` + `्ष`, where ICU puts it after `ळ`. (ta's rules
spell the intermediate out, `&[before 1]க<க்`, and ta sorted right.)

ICU's builder cannot be asked for the intermediate: a rule `&क्=क्` maps the string to the
collation elements it has anyway, and the builder drops such a mapping. So it is added to the
data here: for every such contraction (found from ICU 78.3's own tailored sets through PyICU,
with ICU's combining classes; prefix rules such as ja's `か|ー` are told apart by ICU consuming
the whole string at once), the starter with its non-starters (`क्`), when the tailoring does
not map it, becomes a suffix of the starter's contraction trie whose value is an expansion to
the starter's and the non-starters' own CE32s: exactly the collation elements ICU gives that
sequence, now reachable by ICU4X's matcher. The contraction's flags are set as ICU's builder
sets them for the new suffix set. Usage: icu4x_prefixes.py (in the work directory)."""
import glob
import os
import re
import sys

import icu

nfd = icu.Normalizer2.getNFDInstance()
DIR = 'icuexport/collation/unihan'

SPECIAL = 0xC0
FALLBACK, LONG_PRIMARY, LONG_SECONDARY, EXPANSION32, CONTRACTION = 0, 1, 2, 5, 9
CONTRACT_NEXT_CCC, CONTRACT_TRAILING_CCC, CONTRACT_HAS_STARTER = 0x200, 0x400, 0x800


def ccc(ch):
    return icu.Char.getCombiningClass(ch)


def prefix_needed(s):
    """The starter and the non-starters after it, when a starter follows them."""
    cps = list(nfd.normalize(s))
    if len(cps) < 3 or ccc(cps[0]) != 0 or ccc(cps[1]) == 0:
        return None
    k = 1
    while k < len(cps) and ccc(cps[k]) != 0:
        k += 1
    return ''.join(cps[:k]) if k < len(cps) else None


def is_contraction(coll, s):
    """Whether ICU maps all of `s` at once (a contraction), rather than its last character in
    the context of the others (a prefix rule, ja's `か|ー`, which ICU4X matches another way)."""
    it = coll.createCollationElementIterator(s)
    it.next()
    return it.getOffset() == len(s)


def wanted_prefixes():
    """{data file: sorted prefixes} from the rule sources in src2/."""
    out = {}
    for path in sorted(glob.glob('src2/*.txt')):
        loc = os.path.basename(path)[:-4]
        text = open(path, encoding='utf-8').read()
        for m in re.finditer(r'^ {8}([\w-]+)\{\n {12}Sequence \{ "(.*)" \}\n', text, re.M):
            typ = m.group(1)
            try:
                coll = icu.Collator.createInstance(icu.Locale(loc if typ == 'standard' else f'{loc}@collation={typ}'))
            except icu.ICUError:
                # A type no locale ID selects (`private-*`): built from its own rules.
                coll = icu.RuleBasedCollator(m.group(2).replace('\\"', '"').replace('\\\\', '\\'))
            tailored = {nfd.normalize(t) for t in coll.getTailoredSet(icu.UnicodeSet())}
            wanted = {p for t in tailored if (p := prefix_needed(t)) and p not in tailored and is_contraction(coll, t)}
            if wanted:
                out[f'{loc}_{typ}_data.toml'] = sorted(wanted)
    return out


# ── UCharsTrie (ICU's ucharstrie.h), read whole and written back ────────────────────────────
MIN_LINEAR_MATCH, MIN_VALUE_LEAD, NODE_TYPE_MASK = 0x30, 0x40, 0x3F
MIN_TWO_UNIT_VALUE_LEAD, THREE_UNIT_VALUE_LEAD = 0x4000, 0x7FFF
MIN_TWO_UNIT_NODE_VALUE_LEAD, THREE_UNIT_NODE_VALUE_LEAD = 0x4040, 0x7FC0
MIN_TWO_UNIT_DELTA_LEAD, THREE_UNIT_DELTA_LEAD = 0xFC00, 0xFFFF
MAX_BRANCH_LINEAR_SUB_NODE_LENGTH = 5


def read_value(u, pos, lead):
    if lead < MIN_TWO_UNIT_VALUE_LEAD:
        return lead, pos
    if lead < THREE_UNIT_VALUE_LEAD:
        return ((lead - MIN_TWO_UNIT_VALUE_LEAD) << 16) | u[pos], pos + 1
    return (u[pos] << 16) | u[pos + 1], pos + 2


def read_node_value(u, pos, lead):
    if lead < MIN_TWO_UNIT_NODE_VALUE_LEAD:
        return (lead >> 6) - 1, pos
    if lead < THREE_UNIT_NODE_VALUE_LEAD:
        return (((lead & 0x7FC0) - MIN_TWO_UNIT_NODE_VALUE_LEAD) << 10) | u[pos], pos + 1
    return (u[pos] << 16) | u[pos + 1], pos + 2


def jump_by_delta(u, pos):
    delta = u[pos]
    pos += 1
    if delta >= MIN_TWO_UNIT_DELTA_LEAD:
        if delta == THREE_UNIT_DELTA_LEAD:
            delta, pos = (u[pos] << 16) | u[pos + 1], pos + 2
        else:
            delta, pos = ((delta - MIN_TWO_UNIT_DELTA_LEAD) << 16) | u[pos], pos + 1
    return pos + delta


def read_trie(u, pos=0, prefix=()):
    """Every (suffix as a tuple of UTF-16 units, value) of the trie at u[pos:]."""
    out = []
    while True:
        node = u[pos]
        pos += 1
        if node >= MIN_VALUE_LEAD:
            if node & 0x8000:
                out.append((prefix, read_value(u, pos, node & 0x7FFF)[0]))
                return out
            value, pos = read_node_value(u, pos, node)
            out.append((prefix, value))
            node &= NODE_TYPE_MASK
        if node < MIN_LINEAR_MATCH:
            if node == 0:
                node = u[pos]
                pos += 1
            out += read_branch(u, pos, node + 1, prefix)
            return out
        length = node - MIN_LINEAR_MATCH + 1
        prefix += tuple(u[pos:pos + length])
        pos += length


def read_branch(u, pos, length, prefix):
    out = []
    while length > MAX_BRANCH_LINEAR_SUB_NODE_LENGTH:
        pos += 1  # the comparison unit
        # the greater-or-equal edge: after the delta
        after = pos + 1 + (2 if u[pos] == THREE_UNIT_DELTA_LEAD else 1 if u[pos] >= MIN_TWO_UNIT_DELTA_LEAD else 0)
        out += read_branch(u, after, length - (length >> 1), prefix)
        length >>= 1
        pos = jump_by_delta(u, pos)
    while length > 1:
        unit, node = u[pos], u[pos + 1]
        value, pos = read_value(u, pos + 2, node & 0x7FFF)
        if node & 0x8000:
            out.append((prefix + (unit,), value))
        else:
            out += read_trie(u, pos + value, prefix + (unit,))
        length -= 1
    out += read_trie(u, pos + 1, prefix + (u[pos],))
    return out


def split(v):
    v &= 0xFFFFFFFF
    return [v >> 16, v & 0xFFFF]


def write_trie(entries, depth=0):
    """Units of a trie holding `entries` (sorted (suffix units, value)), always with the
    three-unit value and delta forms (valid for every value; these tries are small)."""
    here = [v for s, v in entries if len(s) == depth]
    rest = [(s, v) for s, v in entries if len(s) > depth]
    if not rest:
        return [0xFFFF] + split(here[0])
    units = sorted({s[depth] for s, _ in rest})
    if len(units) == 1:
        run = 1
        while run < 16 and all(len(s) > depth + run for s, _ in rest) and len({s[depth + run] for s, _ in rest}) == 1:
            run += 1
        body = [MIN_LINEAR_MATCH + run - 1] + list(rest[0][0][depth:depth + run]) + write_trie(rest, depth + run)
    else:
        children = []
        for unit in units:
            group = [(s, v) for s, v in rest if s[depth] == unit]
            children.append((unit, len(group) == 1 and len(group[0][0]) == depth + 1, group))
        lead = [len(units) - 1] if len(units) - 1 < MIN_LINEAR_MATCH else [0, len(units) - 1]
        body = lead + write_branch(children, depth)
    if here:
        body = [THREE_UNIT_NODE_VALUE_LEAD | body[0]] + split(here[0]) + body[1:]
    return body


def write_branch(children, depth):
    """A branch's body: split on the middle unit (less-than edge by a delta, the rest inline)
    down to lists of at most five units (unit, final value or delta; the last unit's node
    inline)."""
    n = len(children)
    if n > MAX_BRANCH_LINEAR_SUB_NODE_LENGTH:
        lt, ge = children[:n >> 1], children[n >> 1:]
        ge_units = write_branch(ge, depth)
        return [ge[0][0], THREE_UNIT_DELTA_LEAD] + split(len(ge_units)) + ge_units + write_branch(lt, depth)
    head, later, fixups = [], [], []
    for unit, leaf, group in children[:-1]:
        head.append(unit)
        if leaf:
            head += [0xFFFF] + split(group[0][1])
        else:
            head += [THREE_UNIT_VALUE_LEAD, 0, 0]
            fixups.append((len(head), write_trie(group, depth + 1)))
    last_unit, _, last_group = children[-1]
    head += [last_unit] + write_trie(last_group, depth + 1)
    for end, sub in fixups:
        head[end - 2:end] = split(len(head) + len(later) - end)
        later += sub
    return head + later


# ── the TOML the data generator reads ───────────────────────────────────────────────────────
def array(text, name):
    m = re.search(r'^' + name + r' = \[(.*?)\]', text, re.M | re.S)
    return m, [int(x, 0) for x in m.group(1).replace('\n', '').split(',') if x.strip()]


def fmt(values, hexa):
    rows = [values[i:i + 16] for i in range(0, len(values), 16)]
    return '\n' + ',\n'.join('  ' + ','.join(hex(x) if hexa else str(x) for x in r) for r in rows) + '\n'


def lookup(text, cp):
    """The CE32 of a code point below U+1000 (the code point trie's fast part)."""
    assert cp < 0x1000
    index = array(text, 'index')[1]
    return array(text, 'data_32')[1][index[cp >> 6] + (cp & 0x3F)]


def self_contained(ce32):
    return ce32 & 0xFF < SPECIAL or ce32 & 0xFF in (SPECIAL | LONG_PRIMARY, SPECIAL | LONG_SECONDARY)


def patch(path, prefixes, root_text):
    text = open(path).read()
    m_data, data = array(text, 'data_32')
    m_ce32s, ce32s = array(text, 'ce32s')
    m_ctx, contexts = array(text, 'contexts')
    for p in prefixes:
        starter, marks = p[0], p[1:]
        ce32 = lookup(text, ord(starter))
        assert ce32 & 0xFF == SPECIAL | CONTRACTION, (path, p, hex(ce32))
        index = ce32 >> 13
        default = (contexts[index] << 16) | contexts[index + 1]
        entries = sorted(read_trie(contexts, index + 2))
        assert len({s for s, _ in entries}) == len(entries)
        key = tuple(ord(c) for c in marks)
        assert all(k < 0x10000 for k in key) and key not in {s for s, _ in entries}
        # The expansion: the starter's default CE32 and each mark's own (tailored, else root).
        parts = [default]
        for c in marks:
            own = lookup(text, ord(c))
            parts.append(lookup(root_text, ord(c)) if own & 0xFF == SPECIAL | FALLBACK else own)
        assert all(self_contained(x) for x in parts), (path, p, [hex(x) for x in parts])
        expansion = (len(ce32s) << 13) | (len(parts) << 8) | SPECIAL | EXPANSION32
        ce32s += parts
        entries = sorted(entries + [(key, expansion)])
        assert sorted(read_trie(write_trie(entries))) == entries
        suffixes = [''.join(map(chr, s)) for s, _ in entries]
        flags = ce32 & 0x100
        if all(ccc(s[0]) for s in suffixes):
            flags |= CONTRACT_NEXT_CCC
        if any(ccc(s[-1]) for s in suffixes):
            flags |= CONTRACT_TRAILING_CCC
        if any(not ccc(c) for s in suffixes for c in s):
            flags |= CONTRACT_HAS_STARTER
        new = (len(contexts) << 13) | flags | SPECIAL | CONTRACTION
        contexts += split(default) + write_trie(entries)
        assert len(contexts) < 1 << 19 and len(ce32s) < 1 << 19
        data = [new if v == ce32 else v for v in data]
        print(f'{path}: {" ".join(f"{ord(c):04X}" for c in p)} added to the contraction of {ord(starter):04X}', file=sys.stderr)
    # Later spans first, so earlier offsets stay valid.
    spans = [(m_data, data, True), (m_ce32s, ce32s, True), (m_ctx, contexts, True)]
    for m, values, hexa in sorted(spans, key=lambda t: -t[0].start(1)):
        text = text[:m.start(1)] + fmt(values, hexa) + text[m.end(1):]
    open(path, 'w').write(text)


root_text = open(os.path.join(DIR, 'root_standard_data.toml')).read()
wanted = wanted_prefixes()
for name, prefixes in sorted(wanted.items()):
    patch(os.path.join(DIR, name), prefixes, root_text)
print('intermediate contractions added for ICU4X:', sum(map(len, wanted.values())))
