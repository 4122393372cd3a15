//! The default locale of a Node 22 process, derived as ICU 78 and V8 derive it.
//!
//! 1. ICU reads the POSIX locale name from the environment (`putil.cpp`,
//!    `uprv_getPOSIXIDForCategory(LC_MESSAGES)`): Node never calls `setlocale`, so libc says `C`
//!    and ICU falls back to `getenv("LC_ALL")`, then `getenv("LC_MESSAGES")`, then
//!    `getenv("LANG")`, each taken when it is *set*, even empty. `LC_COLLATE`, `LC_CTYPE` and
//!    `LANGUAGE` are never read. Nothing set, `C` or `POSIX` gives `en_US_POSIX`.
//! 2. `uprv_getDefaultLocaleID` cuts the codeset (`.UTF-8`) and the modifier, maps `C.*` and
//!    `POSIX.*` to `en_US_POSIX`, and appends the rightmost `@modifier` (up to a `.`) as a
//!    variant (`nynorsk` becomes `NY`): `sr_RS@latin` is `sr_RS_latin`, `de@euro` `de__euro`.
//! 3. ICU canonicalizes it (`ulocimp_canonicalize`): an ID with a one-letter subtag and no `@` is
//!    read as a BCP-47 tag (`de-DE-u-co-phonebk`, `i-klingon`); otherwise subtags are split at
//!    `_` or `-`, the language lowercased (ISO 639-2 codes and deprecated codes replaced), a
//!    4-letter script titlecased, a 2-3 character region uppercased, variants uppercased; a few
//!    legacy IDs are replaced whole (`zh_MIN_NAN` → `nan`).
//! 4. V8 (`Isolate::DefaultLocale`) maps `en_US_POSIX` and `c` to `en-US` and writes the rest
//!    as a BCP-47 tag the way ICU's non-strict `toLanguageTag` does (invalid subtags dropped,
//!    4-letter variants as `x-lvariant-…`, an empty language as `und`).
//! 5. `Intl.Collator` with no arguments takes that locale whole (the lookup matcher returns
//!    the default locale as is) and keeps only the `co`, `kf`, `kn` keywords ICU accepts.
//!
//! Every step is checked against Node 22.23.3 / ICU 78.3 by `tests/collation_oracle.rs`.

/// A locale as ICU holds it after canonicalization.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IcuLocale {
    /// Lowercase; empty for the root locale.
    pub language: String,
    /// Titlecase, or empty.
    pub script: String,
    /// Uppercase, or empty.
    pub region: String,
    /// Uppercase, in ICU's order.
    pub variants: Vec<String>,
    /// Unicode extension keywords, BCP-47 spelling (`co` → `phonebk`), sorted by key.
    pub unicode: Vec<(String, String)>,
}

/// Step 1: the POSIX locale name ICU sees, and the variable it came from.
pub fn posix_id(var: &dyn Fn(&str) -> Option<String>) -> (Option<&'static str>, String) {
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
        if let Some(v) = var(name) {
            if v == "C" || v == "POSIX" {
                return (Some(name), "en_US_POSIX".to_string());
            }
            return (Some(name), v);
        }
    }
    (None, "en_US_POSIX".to_string())
}

/// Step 2: `uprv_getDefaultLocaleID`.
pub fn default_locale_id(posix: &str) -> String {
    let mut corrected = posix.to_string();
    if let Some(i) = corrected.find('.') {
        corrected.truncate(i);
    }
    if let Some(i) = corrected.find('@') {
        corrected.truncate(i);
    }
    if corrected == "C" || corrected == "POSIX" {
        corrected = "en_US_POSIX".to_string();
    }
    if let Some(i) = posix.rfind('@') {
        let mut p = &posix[i + 1..];
        if p == "nynorsk" {
            p = "NY";
        }
        corrected.push_str(if corrected.contains('_') { "_" } else { "__" });
        corrected.push_str(p.split('.').next().unwrap_or(""));
    }
    corrected
}

/// Steps 3 to 5: the locale `Intl.Collator` resolves for a default locale ID.
pub fn resolve(id: &str) -> IcuLocale {
    let canonical = canonicalize(id);
    // V8's DefaultLocale().
    let name = canonical.icu_name();
    let tag = if name == "en_US_POSIX" || name == "c" { "en-US".to_string() } else { canonical.to_language_tag() };
    // ResolveLocale: the lookup matcher returns the default locale; ICU reads it back from
    // the tag and V8 keeps only the collator's extension keys.
    let mut resolved = parse_bcp47(&tag);
    resolved.unicode.retain_mut(|(k, v)| match k.as_str() {
        "co" => valid_collation(&resolved_language(&tag), v),
        "kf" => matches!(v.as_str(), "upper" | "lower" | "false"),
        "kn" => match v.as_str() {
            "" | "true" | "yes" => {
                v.clear();
                true
            }
            "false" | "no" => {
                *v = "false".to_string();
                true
            }
            _ => false,
        },
        _ => false,
    });
    resolved
}

fn resolved_language(tag: &str) -> String {
    tag.split('-').next().unwrap_or("").to_string()
}

/// The collation types (`-u-co-…`) ICU 78 offers beyond `standard` and `search`, by language.
/// V8 drops a `co` keyword the locale does not offer.
fn valid_collation(language: &str, co: &str) -> bool {
    let offered: &[&str] = match language {
        "de" => &["phonebk"],
        "es" | "fi" | "sv" | "bn" | "kn" | "vi" => &["trad"],
        "ar" => &["compat"],
        "si" => &["dict"],
        "ja" => &["unihan"],
        "ko" => &["searchjl", "unihan"],
        "zh" | "yue" => &["pinyin", "stroke", "unihan", "zhuyin"],
        "ln" => &["phonetic"],
        _ => &[],
    };
    offered.contains(&co) || matches!(co, "emoji" | "eor")
}

impl IcuLocale {
    /// ICU's `getName()` without keywords: `sr_Latn_RS`, `de__PHONEBOOK`.
    pub fn icu_name(&self) -> String {
        let mut s = self.language.clone();
        if !self.script.is_empty() {
            s.push('_');
            s.push_str(&self.script);
        }
        if !self.region.is_empty() {
            s.push('_');
            s.push_str(&self.region);
        }
        if !self.variants.is_empty() {
            if self.region.is_empty() {
                s.push('_');
            }
            for v in &self.variants {
                s.push('_');
                s.push_str(v);
            }
        }
        s
    }

    /// ICU's non-strict `toLanguageTag`.
    pub fn to_language_tag(&self) -> String {
        let mut tag = if is_language_subtag(&self.language) { self.language.clone() } else { "und".to_string() };
        if !self.script.is_empty() && is_alpha(&self.script, 4, 4) {
            tag.push('-');
            tag.push_str(&self.script);
        }
        if !self.region.is_empty() && (is_alpha(&self.region, 2, 2) || is_digits(&self.region, 3)) {
            tag.push('-');
            tag.push_str(&self.region);
        }
        let lower: Vec<String> = self.variants.iter().map(|v| v.to_ascii_lowercase()).collect();
        let only_posix = lower.len() == 1 && lower[0] == "posix";
        let mut listed: Vec<&str> = Vec::new();
        for v in &lower {
            if is_variant_subtag(v) {
                if !only_posix && !listed.contains(&v.as_str()) {
                    listed.push(v);
                }
            } else if is_private_subtag(v) {
                break;
            }
        }
        listed.sort_unstable();
        for v in listed {
            tag.push('-');
            tag.push_str(v);
        }
        let mut unicode = self.unicode.clone();
        if only_posix {
            unicode.push(("va".to_string(), "posix".to_string()));
            unicode.sort();
        }
        if !unicode.is_empty() {
            tag.push_str("-u");
            for (k, v) in &unicode {
                tag.push('-');
                tag.push_str(k);
                if !v.is_empty() {
                    tag.push('-');
                    tag.push_str(v);
                }
            }
        }
        // Variants that are no BCP-47 variant go to the private use: leading valid variants
        // are skipped, then every subtag up to the first that is not private-use material.
        let mut private = Vec::new();
        let mut leading = true;
        for v in &lower {
            if !is_private_subtag(v) {
                break;
            }
            if leading && is_variant_subtag(v) {
                continue;
            }
            leading = false;
            private.push(v.as_str());
        }
        if !private.is_empty() {
            tag.push_str("-x-lvariant-");
            tag.push_str(&private.join("-"));
        }
        tag
    }
}

fn is_alpha(s: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphabetic())
}

fn is_digits(s: &str, n: usize) -> bool {
    s.len() == n && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_alnum(s: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn is_language_subtag(s: &str) -> bool {
    is_alpha(s, 2, 3) || is_alpha(s, 5, 8)
}

fn is_variant_subtag(s: &str) -> bool {
    is_alnum(s, 5, 8) || (s.len() == 4 && s.as_bytes()[0].is_ascii_digit() && is_alnum(s, 4, 4))
}

fn is_private_subtag(s: &str) -> bool {
    is_alnum(s, 1, 8)
}

fn is_separator(c: u8) -> bool {
    c == b'_' || c == b'-'
}

/// `_hasBCP47Extension`: no `@` and a one-character subtag (the last subtag is not counted,
/// exactly as `getShortestSubtagLength` does not count it).
fn looks_like_bcp47(id: &str) -> bool {
    if id.contains('@') {
        return false;
    }
    let mut shortest = id.len();
    let mut run = 0;
    let mut reset = true;
    for &c in id.as_bytes() {
        if !is_separator(c) {
            if reset {
                run = 0;
                reset = false;
            }
            run += 1;
        } else {
            if run != 0 && run < shortest {
                shortest = run;
            }
            reset = true;
        }
    }
    shortest == 1
}

/// `ulocimp_canonicalize` for an ID without codeset or `@` keywords.
pub fn canonicalize(id: &str) -> IcuLocale {
    // A BCP-47 reading that yields nothing (`C_SE`) leaves the ID to the ICU reading.
    // Underscores become hyphens unless the one-letter subtag comes first.
    let bcp47 = looks_like_bcp47(id).then(|| {
        let b = id.as_bytes();
        if b.len() > 1 && is_separator(b[1]) { id.to_string() } else { id.replace('_', "-") }
    });
    let mut loc = match bcp47.as_deref().and_then(parse_bcp47_prefix) {
        Some(loc) => loc,
        None => parse_icu_id(id),
    };
    const MAP: &[(&str, &str)] = &[
        ("art__LOJBAN", "jbo"),
        ("hy__AREVELA", "hy"),
        ("hy__AREVMDA", "hyw"),
        ("zh__GUOYU", "zh"),
        ("zh__HAKKA", "hak"),
        ("zh__XIANG", "hsn"),
        ("zh_GAN", "gan"),
        ("zh_MIN_NAN", "nan"),
        ("zh_WUU", "wuu"),
        ("zh_YUE", "yue"),
    ];
    let name = loc.icu_name();
    if let Some((_, to)) = MAP.iter().find(|(from, _)| *from == name) {
        loc = IcuLocale { language: to.to_string(), unicode: loc.unicode, ..IcuLocale::default() };
    }
    if loc.variants.iter().all(|v| is_private_subtag(v)) {
        loc.variants.sort();
    }
    loc
}

/// `ulocimp_getSubtags` on an ICU ID (`sv_SE`, `sr-Latn-RS`, `de__PHONEBOOK`).
fn parse_icu_id(id: &str) -> IcuLocale {
    let end = id.find(['.', '@']).unwrap_or(id.len());
    let id = &id[..end];
    let b = id.as_bytes();
    let mut loc = IcuLocale::default();
    let mut i = 0;
    if id.eq_ignore_ascii_case("root") {
        return loc;
    }
    if id.len() >= 3 && id[..3].eq_ignore_ascii_case("und") && (id.len() == 3 || is_separator(b[3])) {
        i = 3;
    } else {
        while i < b.len() && !is_separator(b[i]) {
            i += 1;
        }
        loc.language = language_code(&id[..i].to_ascii_lowercase());
    }
    if i >= b.len() {
        return loc;
    }
    // b[i] is a separator.
    let subtag_at = |start: usize| -> &str {
        let e = b[start..].iter().position(|&c| is_separator(c)).map_or(b.len(), |p| start + p);
        &id[start..e]
    };
    let mut has_region = false;
    let s = subtag_at(i + 1);
    let mut next = i;
    if is_alpha(s, 4, 4) {
        let mut t = s.to_ascii_lowercase();
        t[..1].make_ascii_uppercase();
        loc.script = t;
        next = i + 1 + s.len();
    }
    if next < b.len() {
        let r = subtag_at(next + 1);
        if r.len() == 2 || r.len() == 3 {
            let upper = r.to_ascii_uppercase();
            loc.region = region_code(&upper);
            has_region = true;
            next = next + 1 + r.len();
        }
    }
    if next < b.len() {
        // A missing region leaves two separators before the variant (`de__PHONEBOOK`).
        let mut start = next + 1;
        if !has_region && start < b.len() && is_separator(b[start]) {
            start += 1;
        }
        loc.variants = id[start.min(id.len())..]
            .split(['_', '-'])
            .filter(|v| !v.is_empty())
            .map(|v| v.to_ascii_uppercase())
            .collect();
    }
    loc
}

/// ISO 639-2 codes ICU replaces by their two-letter form, and deprecated codes.
fn language_code(lang: &str) -> String {
    match lang {
        "in" => "id",
        "iw" => "he",
        "ji" => "yi",
        "jw" => "jv",
        "mo" => "ro",
        _ => match super::iso_codes::LANGUAGES_3.binary_search_by(|(three, _)| three.cmp(&lang)) {
            Ok(i) => super::iso_codes::LANGUAGES_3[i].1,
            Err(_) => lang,
        },
    }
    .to_string()
}

fn region_code(region: &str) -> String {
    match super::iso_codes::REGIONS_3.binary_search_by(|(three, _)| three.cmp(&region)) {
        Ok(i) => super::iso_codes::REGIONS_3[i].1.to_string(),
        Err(_) => region.to_string(),
    }
}

/// ICU's lenient `forLanguageTag`: parses as far as the tag is well-formed and keeps that.
pub fn parse_bcp47(tag: &str) -> IcuLocale {
    parse_bcp47_prefix(tag).unwrap_or_default()
}

/// `None` when not even the first subtag is well-formed.
fn parse_bcp47_prefix(tag: &str) -> Option<IcuLocale> {
    let lower = tag.to_ascii_lowercase();
    const LEGACY: &[(&str, &str)] = &[
        ("art-lojban", "jbo"),
        ("i-ami", "ami"),
        ("i-bnn", "bnn"),
        ("i-hak", "hak"),
        ("i-klingon", "tlh"),
        ("i-lux", "lb"),
        ("i-navajo", "nv"),
        ("i-pwn", "pwn"),
        ("i-tao", "tao"),
        ("i-tay", "tay"),
        ("i-tsu", "tsu"),
        ("no-bok", "nb"),
        ("no-nyn", "nn"),
        ("sgn-be-fr", "sfb"),
        ("sgn-be-nl", "vgt"),
        ("sgn-ch-de", "sgg"),
        ("zh-guoyu", "cmn"),
        ("zh-hakka", "hak"),
        ("zh-min-nan", "nan"),
        ("zh-xiang", "hsn"),
    ];
    let replaced = LEGACY.iter().find_map(|(legacy, preferred)| {
        let after = lower.strip_prefix(legacy)?;
        (after.is_empty() || after.starts_with('-')).then(|| format!("{preferred}{after}"))
    });
    let rest = replaced.as_deref().unwrap_or(&lower);
    let subtags: Vec<&str> = rest.split('-').collect();
    let mut loc = IcuLocale::default();
    let mut i = 0;
    let at = |i: usize| subtags.get(i).copied().unwrap_or("");
    if at(0) == "x" {
        return subtags.get(1).is_some_and(|s| is_private_subtag(s)).then_some(loc);
    }
    if !is_language_subtag(at(0)) {
        return None;
    }
    if at(0) != "und" {
        loc.language = language_code(at(0));
    }
    i += 1;
    // Up to three extended language subtags are accepted and dropped.
    let mut ext = 0;
    while ext < 3 && is_alpha(at(i), 3, 3) && loc.language.len() <= 3 {
        i += 1;
        ext += 1;
    }
    if is_alpha(at(i), 4, 4) {
        let mut s = at(i).to_string();
        s[..1].make_ascii_uppercase();
        loc.script = s;
        i += 1;
    }
    if is_alpha(at(i), 2, 2) || is_digits(at(i), 3) {
        loc.region = at(i).to_ascii_uppercase();
        i += 1;
    }
    while is_variant_subtag(at(i)) {
        loc.variants.push(at(i).to_ascii_uppercase());
        i += 1;
    }
    // Extensions: a singleton and at least one 2-8 character subtag each.
    while i < subtags.len() {
        let singleton = at(i);
        if singleton.len() != 1 || !singleton.as_bytes()[0].is_ascii_alphanumeric() {
            break;
        }
        if singleton == "x" {
            let private: Vec<&str> = subtags[i + 1..].iter().copied().take_while(|s| is_private_subtag(s)).collect();
            if private.first() == Some(&"lvariant") {
                loc.variants.extend(private[1..].iter().map(|s| s.to_ascii_uppercase()));
            }
            break;
        }
        let mut j = i + 1;
        while is_alnum(at(j), 2, 8) {
            j += 1;
        }
        if j == i + 1 {
            break;
        }
        if singleton == "u" {
            parse_unicode_extension(&subtags[i + 1..j], &mut loc);
        }
        i = j;
    }
    loc.unicode.sort();
    Some(loc)
}

/// Keys (two characters, the second a letter) with their types; `va-posix` is a variant.
fn parse_unicode_extension(subtags: &[&str], loc: &mut IcuLocale) {
    let mut k = 0;
    // Attributes (3-8 characters) before the first key are ignored.
    while k < subtags.len() && subtags[k].len() != 2 {
        k += 1;
    }
    while k < subtags.len() {
        let key = subtags[k];
        k += 1;
        let mut types = Vec::new();
        while k < subtags.len() && subtags[k].len() != 2 {
            types.push(subtags[k]);
            k += 1;
        }
        let value = types.join("-");
        if key == "va" && value == "posix" {
            loc.variants.push("POSIX".to_string());
        } else if !loc.unicode.iter().any(|(k2, _)| k2 == key) {
            loc.unicode.push((key.to_string(), value));
        }
    }
}
