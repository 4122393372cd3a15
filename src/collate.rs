//! In-root entry order: `a.name.localeCompare(b.name)` under the process default locale.
//!
//! Node's default collator is ICU's, for the locale taken from `LC_ALL`, then `LC_MESSAGES`,
//! then `LANG` (`LC_COLLATE` is ignored); `C`, `POSIX`, an empty value or none at all mean
//! `en-US`. ICU4X's collator with default options (tertiary strength, punctuation not ignored,
//! no numeric ordering) reproduces it.

use icu_collator::options::CollatorOptions;
use icu_collator::{Collator, CollatorBorrowed};
use icu_locale::Locale;
use std::cmp::Ordering;

pub struct EntryCollator {
    collator: CollatorBorrowed<'static>,
    /// The BCP-47 tag the collator was built for.
    pub locale: String,
}

impl EntryCollator {
    /// A collator for a BCP-47 tag or POSIX locale name (`sv_SE.UTF-8`). Unknown or malformed
    /// names fall back to `en-US`, as Node's default locale does.
    pub fn new(name: &str) -> EntryCollator {
        let tag = bcp47_from_posix(name);
        let locale =
            Locale::try_from_str(&tag).unwrap_or_else(|_| Locale::try_from_str("en-US").expect("en-US parses"));
        let collator = Collator::try_new((&locale).into(), CollatorOptions::default())
            .or_else(|_| Collator::try_new(Default::default(), CollatorOptions::default()))
            .expect("the root collation is compiled in");
        EntryCollator { collator, locale: locale.to_string() }
    }

    pub fn compare(&self, a: &str, b: &str) -> Ordering {
        self.collator.compare(a, b)
    }
}

/// Why `name` is not a locale ICU knows, when it is not (`--locale xx` or a malformed tag): the
/// harness then falls back to its default collation, and so does dsh-skills.
pub fn unknown_locale(name: &str) -> Option<String> {
    let tag = bcp47_from_posix(name);
    let locale = match Locale::try_from_str(&tag) {
        Ok(l) => l,
        Err(_) => return Some(format!("`{name}` is not a well-formed BCP-47 locale tag")),
    };
    // A language ICU has likely-subtags data for is one it knows.
    let mut lang = icu_locale::LanguageIdentifier::from(locale.id.language);
    let known =
        matches!(icu_locale::LocaleExpander::new_extended().maximize(&mut lang), icu_locale::TransformResult::Modified);
    (!known).then(|| format!("ICU does not know the language of `{name}`"))
}

/// The locale Node would use for the given environment lookup.
pub fn locale_from_env(var: &dyn Fn(&str) -> Option<String>) -> String {
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
        if let Some(v) = var(name).filter(|v| !v.is_empty()) {
            return bcp47_from_posix(&v);
        }
    }
    "en-US".to_string()
}

/// `sv_SE.UTF-8@euro` → `sv-SE`; `C`, `POSIX` and empty → `en-US`. BCP-47 tags pass through.
pub fn bcp47_from_posix(name: &str) -> String {
    let base = name.split(['.', '@']).next().unwrap_or("");
    if base.is_empty() || base == "C" || base == "POSIX" {
        return "en-US".to_string();
    }
    base.replace('_', "-")
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
        assert_eq!(bcp47_from_posix("en_US.UTF-8"), "en-US");
        assert_eq!(bcp47_from_posix("C.UTF-8"), "en-US");
        assert_eq!(bcp47_from_posix("POSIX"), "en-US");
        assert_eq!(bcp47_from_posix("de_DE@euro"), "de-DE");
        let env = |k: &str| match k {
            "LC_ALL" => Some(String::new()),
            "LC_MESSAGES" => None,
            "LANG" => Some("sv_SE.UTF-8".to_string()),
            _ => None,
        };
        assert_eq!(locale_from_env(&env), "sv-SE");
        assert_eq!(locale_from_env(&|_| None), "en-US");
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

    #[test]
    fn tailored_locales() {
        assert_eq!(sorted("sv_SE.UTF-8", &["ö", "z", "o"]), ["o", "z", "ö"]);
        assert_eq!(sorted("en-US", &["ö", "z", "o"]), ["o", "ö", "z"]);
    }
}
