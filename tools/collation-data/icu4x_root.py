"""Make ICU4C's root collation data (as genrb --icu4xMode writes it from ICU's regular
ucadata.icu) into what ICU4X's collator reads: ICU's release builds the root for ICU4X with
genuca in ICU4X mode, which this build of ICU 78.3 does not ship. Two CE32 forms of ICU4C's
root are ones ICU4X does not implement (icu_collator's docs.rs, "Design notes"):
- LATIN_EXPANSION (tag 4), a two-CE expansion packed into the CE32 (`ø`, `ł`, ...): written as
  an ordinary EXPANSION (tag 6) of the same two CEs, appended to `ces`;
- U0000 (tag 11), U+0000's indirection to ce32s[0]: replaced by ce32s[0];
and one flag ICU4C sets only in ICU4X mode: CONTRACT_HAS_STARTER (0x800) on a CONTRACTION
(tag 9), without which ICU4X never matches a suffix that holds a starter (Thai and Lao
prevowel + consonant). It is set on every contraction: it says a suffix may hold a starter,
so where none does ICU4X only looks further for nothing.
The rest of the differences (canonical closure, HANGUL tag) is data ICU4X never looks up, since
it normalizes to NFD first. Usage: icu4x_root.py FILE_data.toml... (rewritten in place)."""
import re
import sys

SPECIAL = 0xC0
LATIN_EXPANSION, EXPANSION, CONTRACTION, U0000 = 4, 6, 9, 11
CONTRACT_HAS_STARTER = 0x800
COMMON_SECONDARY_CE, COMMON_TERTIARY_CE = 0x05000000, 0x0500


def to_i64(u):
    return u - (1 << 64) if u >= 1 << 63 else u


for path in sys.argv[1:]:
    text = open(path).read()

    def array(name):
        m = re.search(r'^' + name + r' = \[(.*?)\]', text, re.M | re.S)
        return m, [int(x, 0) for x in m.group(1).replace('\n', '').split(',') if x.strip()]

    m_data, data = array('data_32')
    m_ce32s, ce32s = array('ce32s')
    m_ces, ces = array('ces')
    made = {}
    changed = 0
    for i, v in enumerate(data):
        if v & 0xFF == SPECIAL | LATIN_EXPANSION:
            if v not in made:
                ce0 = ((v & 0xFF000000) << 32) | COMMON_SECONDARY_CE | ((v & 0xFF0000) >> 8)
                ce1 = ((v & 0xFF00) << 16) | COMMON_TERTIARY_CE
                made[v] = (len(ces) << 13) | (2 << 8) | SPECIAL | EXPANSION
                ces += [to_i64(ce0), to_i64(ce1)]
            data[i] = made[v]
            changed += 1
        elif v & 0xFF == SPECIAL | CONTRACTION and not v & CONTRACT_HAS_STARTER:
            data[i] = v | CONTRACT_HAS_STARTER
            changed += 1
        elif v & 0xFF == SPECIAL | U0000:
            data[i] = ce32s[0]
            changed += 1
    assert len(ces) < 1 << 19
    if not changed:
        continue

    def fmt(values, hexa):
        rows = [values[i:i + 16] for i in range(0, len(values), 16)]
        return '\n' + ',\n'.join('  ' + ','.join(hex(x) if hexa else str(x) for x in r) for r in rows) + '\n'

    # Later spans first, so earlier offsets stay valid.
    for m, values, hexa in sorted([(m_data, data, True), (m_ces, ces, False)], key=lambda t: -t[0].start(1)):
        text = text[:m.start(1)] + fmt(values, hexa) + text[m.end(1):]
    open(path, 'w').write(text)
    print(f'{path}: {changed} CE32s rewritten, {len(made)} expansions added', file=sys.stderr)
