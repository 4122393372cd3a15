//! The vendored saphyr-parser copies scalar text in runs when it reads from a `&str`
//! (`vendor/saphyr-parser/PATCH.md`, patch 6) and one character at a time from any other input.
//! Both paths must produce the same events, values, spans and errors.

use proptest::prelude::*;
use saphyr_parser::Parser;

/// Every event (with its span) or the error, as text.
fn events(mut parser: Parser<'_, impl saphyr_parser::Input>) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..10_000 {
        match parser.next_event() {
            None => break,
            Some(Ok((event, span))) => out.push(format!("{event:?} {span:?}")),
            Some(Err(e)) => {
                out.push(format!("error {e:?}"));
                break;
            }
        }
    }
    out
}

fn same_events(text: &str) -> Result<(), TestCaseError> {
    let runs = events(Parser::new_from_str(text));
    let chars = events(Parser::new_from_iter(text.chars()));
    prop_assert_eq!(runs, chars, "text: {:?}", text);
    Ok(())
}

/// Frontmatter-like text rich in what ends or continues a scalar run: blanks before and after
/// `#`, `:`, quotes and escapes, breaks, flow indicators, U+FEFF and multi-byte characters.
fn frontmatter() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a", "word", "é", "数", "😀", " ", "  ", "\t", ":", ": ", ":x", "#", " #", "-", "- ", ",", "[", "]", "{", "}",
        "\u{feff}", "\n", "\n  ", "\r\n", "\r", "\"", "'", "''", "\\", "\\n", "\\\"", "\\ ", "\\\n", "\\u00e9", "?",
        "!", "&", "*", "|", ">", "...", "---",
    ]);
    let body = prop::collection::vec(pieces, 0..30).prop_map(|v| v.concat());
    let prefix =
        prop::sample::select(vec!["k: ", "k: \"", "k: '", "k:\n  ", "- ", "{k: ", "[", "k: [", "", "a:\n  k: \""]);
    let suffix =
        prop::sample::select(vec!["", "\n", "\"", "'", "\"\n", "'\n", "}", "]", "\n# c\n", " # c", "\nz: 1\n"]);
    (prefix, body, suffix).prop_map(|(p, b, s)| format!("{p}{b}{s}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn runs_and_single_characters_scan_alike(text in frontmatter()) {
        same_events(&text)?;
    }
}

#[test]
fn typical_frontmatter_scans_alike() {
    for text in [
        "name: pdf-tools\ndescription: Extract text and tables from PDF files. Use when asked about PDFs.\n",
        "description: \"Quoted, with a \\\"quote\\\", an escape \\u00e9 and trailing blanks  \"\n",
        "description: 'single ''quoted'' text  with  blanks'\n",
        "description: plain text # a comment\nname: x\n",
        "description: plain text\n  continued on the next line\n   and again  \nname: x\n",
        "k: a :b : c\n",
        "k: {a: b c, d: [e f, g]}\n",
        "k: \"multi\n  line   \n\n  quoted\"\n",
        "k: caf\u{e9} \u{6570}\u{636e} \u{1f600} end\n",
    ] {
        same_events(text).unwrap();
    }
}
