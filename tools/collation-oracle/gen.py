#!/usr/bin/env python3
"""Records what Node's `localeCompare` does under many process environments.

Runs `sort.js` once per environment (a clean environment holding only the locale variables
of the case) and writes fixtures/collation/oracle.json, which tests/cli/collation_oracle.rs
replays without Node. Development tooling only; see README.md beside this file.

    NODE=/path/to/node22 python3 tools/collation-oracle/gen.py
"""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ladder import NAMES  # noqa: E402

NODE = os.environ.get("NODE", "node")
OUT = os.path.join(HERE, "..", "..", "fixtures", "collation", "oracle.json")

# Every locale whose collation data ICU4X compiles in (icu_collator_data 2.4: the data
# identifiers without a collation-type attribute), written as a POSIX locale name, plus
# the collation locales ICU has and ICU4X does not (they show the known gaps), and
# locales with no collation data of their own.
ICU4X = """af am ar as az be bg blo bn br bs bs_Cyrl ceb chr cs cy da de_AT dsb ee el en_US_POSIX eo es
et fa fa_AF ff_Adlm fi fil fo fr_CA fy gl gu ha he hi hr hsb hu hy ig is ja ka kk kk_Arab km kn ko kok
ku ky lo lt lv mk ml mn mr mt my ne no nso om or pa pl ps ro ru si sk sl sq sr sr_Latn sv ta te th tk
tn to tr ug uk ur uz vi wo yo""".split()
# Regions that pick up a script or a parent locale (ICU aliases and CLDR parentLocales).
REGIONAL = """zh_CN zh_SG zh_TW zh_HK zh_MO zh_Hans zh_Hant zh_Hant_HK zh_Hans_HK zh yue yue_HK yue_CN
yue_Hans ja_JP ko_KR sr_RS sr_BA sr_ME sr_Latn_RS sr_Cyrl_RS sr_Latn_ME bs_BA bs_Cyrl_BA uz_Cyrl
uz_Arab uz_Latn uz_UZ kk_KZ kk_CN pa_PK pa_Arab pa_Guru pa_IN ha_NE ha_Arab ff ff_SN ff_Latn az_Cyrl
az_AZ mn_Mong mn_MN ms_Arab ku_Arab ckb ky_KG fr fr_FR fr_BE fr_CH de de_DE de_CH de_LU es_ES es_MX
es_419 en en_US en_GB en_AU en_IN en_CA sv_SE sv_FI fi_FI da_DK nb nb_NO nn nn_NO no_NO tr_TR th_TH
vi_VN lt_LT lv_LV mt_MT hu_HU pl_PL cs_CZ sk_SK ro_RO ro_MD hr_HR sl_SI is_IS fo_FO et_EE el_GR ru_RU
uk_UA bg_BG mk_MK he_IL ar_SA ar_EG fa_IR ur_PK ur_IN hi_IN bn_BD bn_IN ta_IN ta_LK si_LK my_MM km_KH
lo_LA ka_GE hy_AM gl_ES cy_GB eo_001 ig_NG yo_NG yo_BJ wo_SN""".split()
ICU_ONLY = """bo ca dz ga haw id it kl lb lkt ln ms nl pt sa se smn st sw wae xh yi zu gsw sat mni
iw in ji mo sh tl""".split()
NO_DATA = "xx xx_YY qaa zz_ZZ tlh root und".split()


def locale_cases():
    seen = []
    for name in ICU4X + REGIONAL + ICU_ONLY + NO_DATA:
        for value in (name, name + ".UTF-8"):
            if value not in seen:
                seen.append(value)
    return [{"LC_ALL": v} for v in seen]


# The brief's dozen, precedence between variables, empty values, codesets, modifiers and
# spellings that are not POSIX names at all.
SPECIAL = [
    {"LC_ALL": "en_US.UTF-8"},
    {"LC_ALL": ""},
    {"LC_ALL": "", "LANG": "sv_SE.UTF-8"},
    {"LC_ALL": "C"},
    {"LC_ALL": "POSIX"},
    {"LC_ALL": "C.UTF-8"},
    {"LC_ALL": "POSIX.UTF-8"},
    {"LC_ALL": "C@euro"},
    {"LC_ALL": "c"},
    {"LC_ALL": "en_US_POSIX"},
    {"LC_ALL": "en_US_POSIX.UTF-8"},
    {"LC_ALL": "en_US.UTF-8@posix"},
    {},
    {"LANG": "sv_SE.UTF-8"},
    {"LANG": ""},
    {"LANG": "C", "LC_MESSAGES": "sv_SE.UTF-8"},
    {"LC_MESSAGES": "sv_SE.UTF-8"},
    {"LC_MESSAGES": "", "LANG": "sv_SE.UTF-8"},
    {"LC_MESSAGES": "C", "LANG": "sv_SE.UTF-8"},
    {"LC_ALL": "C", "LANG": "sv_SE.UTF-8"},
    {"LC_ALL": "C", "LC_MESSAGES": "sv_SE.UTF-8"},
    {"LC_ALL": "POSIX", "LANG": "sv_SE.UTF-8"},
    {"LC_ALL": "da_DK.UTF-8", "LC_MESSAGES": "sv_SE.UTF-8", "LANG": "tr_TR.UTF-8"},
    {"LC_MESSAGES": "sv_SE.UTF-8", "LANG": "tr_TR.UTF-8"},
    {"LC_COLLATE": "sv_SE.UTF-8"},
    {"LC_COLLATE": "sv_SE.UTF-8", "LANG": "tr_TR.UTF-8"},
    {"LC_CTYPE": "sv_SE.UTF-8"},
    {"LANGUAGE": "sv_SE:de_DE"},
    {"LANGUAGE": "sv", "LANG": "de_DE.UTF-8"},
    {"LC_ALL": "de_DE@euro"},
    {"LC_ALL": "de_DE.UTF-8@euro"},
    {"LC_ALL": "de_DE@phonebook"},
    {"LC_ALL": "de_DE.UTF-8@phonebook"},
    {"LC_ALL": "de@phonebk"},
    {"LC_ALL": "de_DE@collation=phonebook"},
    {"LC_ALL": "de-DE-u-co-phonebk"},
    {"LC_ALL": "de_DE-u-co-phonebk"},
    {"LC_ALL": "sv-SE-u-co-trad"},
    {"LC_ALL": "es-u-co-trad"},
    {"LC_ALL": "zh-u-co-stroke"},
    {"LC_ALL": "zh-TW-u-co-pinyin"},
    {"LC_ALL": "ja-u-co-unihan"},
    {"LC_ALL": "en-u-kf-upper"},
    {"LC_ALL": "en-u-kn"},
    {"LC_ALL": "da-u-kf-false"},
    {"LC_ALL": "th-u-ka-noignore"},
    {"LC_ALL": "en-u-ks-level1"},
    {"LC_ALL": "sr_RS@latin"},
    {"LC_ALL": "sr_RS.UTF-8@latin"},
    {"LC_ALL": "sr_ME@latin"},
    {"LC_ALL": "sr@latin"},
    {"LC_ALL": "sr_RS@cyrillic"},
    {"LC_ALL": "uz_UZ@cyrillic"},
    {"LC_ALL": "uz_UZ.UTF-8@cyrillic"},
    {"LC_ALL": "be_BY@latin"},
    {"LC_ALL": "ca_ES@valencia"},
    {"LC_ALL": "ca_ES.UTF-8@valencia"},
    {"LC_ALL": "no_NO@nynorsk"},
    {"LC_ALL": "no@nynorsk"},
    {"LC_ALL": "nn_NO@nynorsk"},
    {"LC_ALL": "tt_RU@iqtelif"},
    {"LC_ALL": "aa_ER@saaho"},
    {"LC_ALL": "ks_IN@devanagari"},
    {"LC_ALL": "sd_IN@devanagari"},
    {"LC_ALL": "gez_ER@abegede"},
    {"LC_ALL": "de_DE.ISO-8859-1"},
    {"LC_ALL": "de_DE.iso88591@euro"},
    {"LC_ALL": "de_DE@euro.UTF-8"},
    {"LC_ALL": "de_DE.UTF-8@euro.UTF-8"},
    {"LC_ALL": "de_DE@a@b"},
    {"LC_ALL": "de_DE.a.b"},
    {"LC_ALL": "sv_se"},
    {"LC_ALL": "SV_SE"},
    {"LC_ALL": "Sv_Se.utf8"},
    {"LC_ALL": "sv-SE"},
    {"LC_ALL": "sv-se"},
    {"LC_ALL": "swe_SE"},
    {"LC_ALL": "swe"},
    {"LC_ALL": "deu_DE"},
    {"LC_ALL": "tur"},
    {"LC_ALL": "dan"},
    {"LC_ALL": "zh-Hant"},
    {"LC_ALL": "zh-Hant-TW"},
    {"LC_ALL": "zh_Hant_TW.UTF-8"},
    {"LC_ALL": "sr-Latn"},
    {"LC_ALL": "sr-Latn-RS"},
    {"LC_ALL": "sr_Latn"},
    {"LC_ALL": "_SE"},
    {"LC_ALL": "_TR.UTF-8"},
    {"LC_ALL": "_TR@x"},
    {"LC_ALL": "sv_"},
    {"LC_ALL": "sv__X"},
    {"LC_ALL": "sv_SE_X"},
    {"LC_ALL": "sv_SE_traditional"},
    {"LC_ALL": "es_ES_TRADITIONAL"},
    {"LC_ALL": "es__TRADITIONAL"},
    {"LC_ALL": "de__PHONEBOOK"},
    {"LC_ALL": "de_DE_PHONEBOOK"},
    {"LC_ALL": "art__LOJBAN"},
    {"LC_ALL": "zh__GUOYU"},
    {"LC_ALL": "zh_YUE"},
    {"LC_ALL": "zh_MIN_NAN"},
    {"LC_ALL": "hy__AREVMDA"},
    {"LC_ALL": "en_US_POSIX_X"},
    {"LC_ALL": "en_POSIX"},
    {"LC_ALL": "en__POSIX"},
    {"LC_ALL": "posix"},
    {"LC_ALL": "C_SE"},
    {"LC_ALL": "i-klingon"},
    {"LC_ALL": "x-private"},
    {"LC_ALL": "en-x-private"},
    {"LC_ALL": "123"},
    {"LC_ALL": "a"},
    {"LC_ALL": "abcdefghi"},
    {"LC_ALL": "sv SE"},
    {"LC_ALL": "sv_SE "},
    {"LC_ALL": " sv_SE"},
    {"LC_ALL": "@euro"},
    {"LC_ALL": ".UTF-8"},
    {"LC_ALL": "_"},
    {"LC_ALL": "-"},
    {"LC_ALL": "sv_SE;tr"},
    {"LC_ALL": "tr_TR/x"},
    {"LC_ALL": "ja_JP.eucJP"},
    {"LC_ALL": "th_TH.TIS-620"},
    {"LC_ALL": "und_Hant"},
    {"LC_ALL": "und_Hans"},
    {"LC_ALL": "und_TW"},
    {"LC_ALL": "und_Latn_RS"},
    {"LC_ALL": "sv_SE_ZZZZZ_AAAAA"},
    {"LC_ALL": "sv_SE_EURO_ABCDEFGHIJK"},
    {"LC_ALL": "sv_SE_ABCDEFGHIJK_EURO"},
    {"LC_ALL": "sv_SE_ZZZZ_A%B"},
    {"LC_ALL": "sv_SE_POSIX"},
    {"LC_ALL": "en_US_POSIX_ZZZZZ"},
    {"LC_ALL": "en-US-u-va-posix"},
    {"LC_ALL": "sv_SWE"},
    {"LC_ALL": "sv_840"},
    {"LC_ALL": "sv_1234"},
    {"LC_ALL": "ko-u-co-searchjl"},
    {"LC_ALL": "en-u-co-emoji"},
    {"LC_ALL": "zh-u-co-zhuyin"},
    {"LC_ALL": "de-1901-u-co-phonebk"},
    {"LC_ALL": "en-u-kn-false"},
    {"LC_ALL": "tr-u-kn-yes"},
    {"LC_ALL": "en-a-bbb-u-kf-upper"},
    {"LC_ALL": "en-u-kf-upper-x-foo"},
    {"LC_ALL": "sv-SE-x"},
    {"LC_ALL": "yue-Hant-u-co-pinyin"},
]


def run(env):
    names_file = os.path.join(HERE, ".names.json")
    clean = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    clean.update(env)
    out = subprocess.run([NODE, os.path.join(HERE, "sort.js"), names_file], env=clean,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main():
    with open(os.path.join(HERE, ".names.json"), "w", encoding="utf-8") as f:
        json.dump(NAMES, f, ensure_ascii=False)
    version = subprocess.run([NODE, "-p", "process.version + ' ' + process.versions.icu"],
                             capture_output=True, text=True, check=True).stdout.split()
    envs = SPECIAL + [e for e in locale_cases() if e not in SPECIAL]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(run, envs))
    orders, order_ids, cases = [], {}, []
    for env, r in zip(envs, results):
        key = (tuple(r["order"]), tuple(r["equal"]))
        if key not in order_ids:
            order_ids[key] = len(orders)
            # Adjacent ties are written as "=" between indices, the rest as " ".
            text = str(r["order"][0])
            for i, eq in zip(r["order"][1:], r["equal"]):
                text += ("=" if eq else " ") + str(i)
            orders.append(text)
        cases.append({"env": env, "locale": r["locale"], "order": order_ids[key]})
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    doc = {
        "generatedBy": "tools/collation-oracle/gen.py",
        "node": version[0],
        "icu": version[1],
        "names": NAMES,
        "orders": orders,
        "cases": cases,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=0)
        f.write("\n")
    os.remove(os.path.join(HERE, ".names.json"))
    print(f"{len(cases)} environments, {len(orders)} distinct orders -> {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
