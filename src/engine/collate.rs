//! In-root entry order: `a.name.localeCompare(b.name)` under the process default locale.
//!
//! The locale is the one Node 22 derives from the environment ([`icu_id`]: `LC_ALL`, then
//! `LC_MESSAGES`, then `LANG`, the first that is set, even empty; `LC_COLLATE` is ignored).
//! `localeCompare` then uses ICU's collator for that locale with the locale's own defaults
//! (alternate shifted for `th`, upper case first for `da` and `mt`, French accents for
//! `fr-CA`) except the strength, which V8 always sets to tertiary. [`EntryCollator`] picks the
//! tailoring ICU's resource fallback would pick and sets the same options.
//!
//! The data is ICU 78.3's own ([`Icu78`], `collate/data/`): its root collation (CLDR 48,
//! Unicode 17, Han in radical-stroke order across the blocks, as ICU4C builds its root) and
//! every tailoring ICU 78.3 ships, baked for ICU4X by `tools/collation-data` from ICU 78.3's
//! resource bundles. icu_collator's compiled data is a later CLDR with ICU4X's smaller root,
//! which keeps Han in code point order block by block and lacks some of ICU's tailorings.

mod icu78;
mod icu_id;
mod iso_codes;

pub use icu_id::IcuLocale;
pub use icu78::Icu78;

use icu_collator::options::{CollatorOptions, Strength};
use icu_collator::{Collator, CollatorPreferences};
use icu_locale::Locale;
use std::cmp::Ordering;

pub struct EntryCollator {
    collator: Collator,
    /// The locale as `new Intl.Collator().resolvedOptions().locale` reports it.
    pub locale: String,
}

impl EntryCollator {
    /// A collator for a locale given as the environment would give it: a POSIX name
    /// (`sv_SE.UTF-8`, `sr_RS@latin`, `C`), a BCP-47 tag (`de-DE-u-co-phonebk`) or a tag
    /// [`locale_from_env`] returned. The empty string is the root collation.
    pub fn new(name: &str) -> EntryCollator {
        let resolved = icu_id::resolve(&icu_id::default_locale_id(name));
        let locale = resolved.to_language_tag();
        let mut options = CollatorOptions::default();
        // V8: `sensitivity` defaults to "variant" for sorting, which sets tertiary strength
        // whatever default the tailoring has; so `ja`'s hiragana/katakana distinction, a
        // quaternary difference, is a tie.
        options.strength = Some(Strength::Tertiary);
        let prefs = collator_preferences(&resolved);
        let collator = Collator::try_new_unstable(&Icu78, prefs, options)
            .or_else(|_| Collator::try_new_unstable(&Icu78, Default::default(), options))
            .expect("the root collation is compiled in");
        EntryCollator { collator, locale }
    }

    pub fn compare(&self, a: &str, b: &str) -> Ordering {
        self.collator.as_borrowed().compare(a, b)
    }
}

/// Why `name` is not a locale ICU knows, when it is not (`--locale xx` or a malformed value):
/// the harness then falls back to the root collation, and so does dsh-skills.
pub fn unknown_locale(name: &str) -> Option<String> {
    if name.is_empty() {
        // `LC_ALL=` (set but empty) is the root collation on purpose.
        return None;
    }
    let tag = locale_from_value(name);
    let locale = match Locale::try_from_str(&tag) {
        Ok(l) => l,
        Err(_) => return Some(format!("`{name}` is not a well-formed locale")),
    };
    if locale.id.language.is_unknown() {
        return Some(format!("ICU reads no language from `{name}`; the root collation applies"));
    }
    // A language ICU has likely-subtags data for is one it knows.
    let mut lang = icu_locale::LanguageIdentifier::from(locale.id.language);
    let known =
        matches!(icu_locale::LocaleExpander::new_extended().maximize(&mut lang), icu_locale::TransformResult::Modified);
    (!known).then(|| format!("ICU does not know the language of `{name}`"))
}

/// The locale (as `resolvedOptions().locale`) Node would use for the given environment.
pub fn locale_from_env(var: &dyn Fn(&str) -> Option<String>) -> String {
    let (_, posix) = icu_id::posix_id(var);
    icu_id::resolve(&icu_id::default_locale_id(&posix)).to_language_tag()
}

/// The locale (as `resolvedOptions().locale`) for a value given as `LC_ALL` would be.
pub fn locale_from_value(value: &str) -> String {
    icu_id::resolve(&icu_id::default_locale_id(value)).to_language_tag()
}

/// A locale tag for messages: `und` is said to be the root collation.
pub fn describe(locale: &str) -> String {
    if locale == "und" { "the root (und)".to_string() } else { locale.to_string() }
}

/// The environment variable ICU takes the locale from, if any.
pub fn locale_source(var: &dyn Fn(&str) -> Option<String>) -> Option<&'static str> {
    icu_id::posix_id(var).0
}

/// ICU4X preferences that select the tailoring ICU's collation loader would select for
/// `loc`. ICU walks its resource tree (`sr_RS_LATIN` → `sr_RS` → `sr` → root, with the
/// tree's aliases such as `sh` → `sr_Latn`); ICU4X walks its own fallback chain, which
/// agrees once the aliases and the variants are handled here.
fn collator_preferences(loc: &IcuLocale) -> CollatorPreferences {
    if loc.language.is_empty() {
        // ICU never infers a language from a script or a region: `und-Hant` is the root.
        return root_with_keywords(loc);
    }
    let mut language = loc.language.as_str();
    let mut script = loc.script.as_str();
    let region = loc.region.as_str();
    if language == "sh" {
        // An alias in ICU's collation tree; ICU4X's data has no `sh`.
        language = "sr";
        if script.is_empty() {
            script = "Latn";
        }
    }
    if script.is_empty() {
        // The aliases of ICU's collation tree from a region to a script.
        script = match (language, region) {
            ("zh", "TW" | "HK" | "MO") => "Hant",
            ("zh" | "yue", "CN" | "SG") => "Hans",
            ("kk", "CN") => "Arab",
            _ => "",
        };
    }
    // ICU truncates `uz_Cyrl` to `uz`, where ICU4X would look for a Cyrillic tailoring; and
    // ICU never guesses a script from a region, where ICU4X would (`sr-ME` → `sr-Latn`).
    // So only the scripts and regions ICU has a tailoring for are handed on.
    let script = match (language, script) {
        ("sr", "Latn") | ("bs", "Cyrl") | ("kk", "Arab") | ("ff", "Adlm") | ("zh" | "yue", "Hans" | "Hant") => script,
        _ => "",
    };
    let posix = loc.variants.first().is_some_and(|v| v == "POSIX");
    let region = match (language, script, region) {
        ("fa", "", "AF") | ("de", "", "AT") | ("fr", "", "CA") => region,
        // The only tailoring ICU keys by a variant; ICU drops variants from the end, so
        // further variants after POSIX still reach it.
        ("en", "", "US") if posix => "US-posix",
        _ => "",
    };
    let mut tag = language.to_string();
    for part in [script, region] {
        if !part.is_empty() {
            tag.push('-');
            tag.push_str(part);
        }
    }
    tag.push_str(&unicode_suffix(loc));
    match Locale::try_from_str(&tag) {
        Ok(l) => (&l).into(),
        Err(_) => root_with_keywords(loc),
    }
}

fn root_with_keywords(loc: &IcuLocale) -> CollatorPreferences {
    let tag = format!("und{}", unicode_suffix(loc));
    Locale::try_from_str(&tag).map(|l| (&l).into()).unwrap_or_default()
}

fn unicode_suffix(loc: &IcuLocale) -> String {
    let mut s = String::new();
    for (k, v) in &loc.unicode {
        if matches!(k.as_str(), "co" | "kf" | "kn") {
            s.push('-');
            s.push_str(k);
            if !v.is_empty() {
                s.push('-');
                s.push_str(v);
            }
        }
    }
    if s.is_empty() { s } else { format!("-u{s}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(locale: &str, names: &[&str]) -> Vec<String> {
        let c = EntryCollator::new(locale);
        let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        v.sort_by(|a, b| c.compare(a, b));
        v
    }

    #[test]
    fn unknown_locales() {
        assert_eq!(unknown_locale("sv_SE.UTF-8"), None);
        assert_eq!(unknown_locale("en-US"), None);
        assert_eq!(unknown_locale("tr"), None);
        assert_eq!(unknown_locale("C"), None);
        assert!(unknown_locale("xx-YY").is_some());
        assert!(unknown_locale("not a locale!").is_some());
    }

    #[test]
    fn locale_names() {
        let tag = |name: &str| EntryCollator::new(name).locale;
        assert_eq!(tag("en_US.UTF-8"), "en-US");
        assert_eq!(tag("C.UTF-8"), "en-US");
        assert_eq!(tag("POSIX"), "en-US");
        assert_eq!(tag("en_US_POSIX"), "en-US");
        assert_eq!(tag(""), "und");
        assert_eq!(tag("de_DE@euro"), "de-DE-x-lvariant-euro");
        assert_eq!(tag("sr_RS.UTF-8@latin"), "sr-RS-latin");
        assert_eq!(tag("no_NO@nynorsk"), "no-NO-x-lvariant-ny");
        assert_eq!(tag("de-DE-u-co-phonebk"), "de-DE-u-co-phonebk");
        assert_eq!(tag("swe_SWE"), "sv-SE");
        let env = |k: &str| match k {
            "LC_ALL" => Some(String::new()),
            "LC_MESSAGES" => None,
            "LANG" => Some("sv_SE.UTF-8".to_string()),
            _ => None,
        };
        assert_eq!(locale_from_env(&env), "und");
        assert_eq!(locale_source(&env), Some("LC_ALL"));
        let env = |k: &str| (k == "LANG").then(|| "sv_SE.UTF-8".to_string());
        assert_eq!(locale_from_env(&env), "sv-SE");
        let env = |k: &str| (k == "LC_COLLATE").then(|| "sv_SE.UTF-8".to_string());
        assert_eq!(locale_from_env(&env), "en-US");
        assert_eq!(locale_from_env(&|_| None), "en-US");
        assert_eq!(locale_source(&|_| None), None);
    }

    #[test]
    fn root_collation_facts_from_the_spec() {
        assert_eq!(sorted("en-US", &["AB", "Ab", "aB", "ab"]), ["ab", "aB", "Ab", "AB"]);
        assert_eq!(sorted("en-US", &["Zeta.md", "beta", "alpha.md", "Beta"]), ["alpha.md", "beta", "Beta", "Zeta.md"]);
        assert_eq!(
            sorted("en-US", &["foobar", "foo0", "foo.md", "foo-bar.md", "foo_bar", "foo"]),
            ["foo", "foo_bar", "foo-bar.md", "foo.md", "foo0", "foobar"]
        );
        assert_eq!(
            sorted("en-US", &["a.md", "0zero.md", ".hidden.md", "-dash.md", "_private.md"]),
            ["_private.md", "-dash.md", ".hidden.md", "0zero.md", "a.md"]
        );
        assert_eq!(
            sorted("en-US", &["skill-9", "skill-2", "skill-10", "skill-1"]),
            ["skill-1", "skill-10", "skill-2", "skill-9"]
        );
        assert_eq!(
            sorted("en-US", &["resumf.md", "rèsume.md", "résumé.md", "Resume.md", "resume.md"]),
            ["resume.md", "Resume.md", "résumé.md", "rèsume.md", "resumf.md"]
        );
    }

    #[test]
    fn ties_keep_input_order() {
        // NFC and NFD spellings compare equal; a stable sort keeps readdir order.
        let c = EntryCollator::new("en-US");
        assert_eq!(c.compare("\u{e1}", "a\u{301}"), Ordering::Equal);
        assert_eq!(c.compare("a\u{200B}b", "ab"), Ordering::Equal);
        assert_eq!(sorted("en-US", &["b", "a\u{301}", "\u{e1}"]), ["a\u{301}", "\u{e1}", "b"]);
    }

    /// ICU 78.3's own data: Han by radical and stroke across the blocks (U+20000 and U+20089,
    /// Extension B, among the BMP ideographs of their radicals), and tailorings ICU4X's compiled
    /// data lacks. Recorded with Node 22.23.3: `[...names].sort(new Intl.Collator(locale).compare)`.
    #[test]
    fn icu_78_root_han_order_and_tailorings() {
        let han = ["中", "𠀀", "一", "丁", "𠂉", "乙"];
        assert_eq!(sorted("en-US", &han), ["一", "丁", "𠀀", "中", "𠂉", "乙"]);
        assert_eq!(sorted("", &han), ["一", "丁", "𠀀", "中", "𠂉", "乙"]);
        assert_eq!(
            sorted("se", &["z", "đ", "d", "e", "æ", "ø", "å", "ŋ", "n", "o"]),
            ["d", "đ", "e", "n", "ŋ", "o", "z", "ø", "æ", "å"]
        );
        assert_eq!(sorted("kl", &["z", "æ", "ø", "å", "a", "q", "ĸ", "r"]), ["a", "q", "ĸ", "r", "z", "æ", "ø", "å"]);
        assert_eq!(sorted("yi", &["ב", "בֿ", "ג", "פּ", "פֿ", "פ"]), ["ב", "בֿ", "ג", "פּ", "פ", "פֿ"]);
        assert_eq!(
            sorted("haw", &["a", "e", "h", "k", "ʻa", "o", "u", "w"]),
            ["a", "e", "o", "u", "h", "k", "w", "ʻa"]
        );
        // What tools/collation-data/icu4x_root.py makes of ICU4C's root for ICU4X: two-CE Latin
        // expansions (ø, ł), U+0000 (completely ignorable) and the Thai prevowel contractions.
        assert_eq!(
            sorted("en-US", &["z", "ø", "o", "ł", "l", "m", "ข", "แก", "เก", "กา"]),
            ["l", "ł", "m", "o", "ø", "z", "กา", "เก", "แก", "ข"]
        );
        assert_eq!(EntryCollator::new("en-US").compare("a\u{0}b", "ab"), Ordering::Equal);
    }

    #[test]
    fn tailored_locales() {
        assert_eq!(sorted("sv_SE.UTF-8", &["ö", "z", "o"]), ["o", "z", "ö"]);
        assert_eq!(sorted("en-US", &["ö", "z", "o"]), ["o", "ö", "z"]);
    }
}
