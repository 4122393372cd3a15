//! Dev tool: YAML parse time per frontmatter.
//!
//!     cargo run --release --example yaml_bench                 # a typical 5-line frontmatter
//!     cargo run --release --example yaml_bench -- <n>          # the same, n parses (callgrind)
//!     cargo run --release --example yaml_bench -- <dir> [n]    # every *.md frontmatter under <dir>
//!
//! With a directory (e.g. a benchmark tree under target/bench/), it parses each file's
//! frontmatter in a loop and reports the mean time per frontmatter, for profiling the YAML
//! layer apart from file system work.
use dsh_skills::engine::yaml::ToJson;
use std::time::Instant;

fn main() {
    let arg = std::env::args().nth(1);
    let n: u32 = arg.as_deref().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    if let Some(dir) = arg.filter(|a| a.parse::<u32>().is_err()) {
        let parses = std::env::args().nth(2).and_then(|n| n.parse().ok()).unwrap_or(200_000);
        return corpus(&dir, parses);
    }
    let text = "name: pdf-tools\ndescription: Extract text and tables from PDF files. Use when the user asks about PDFs.\nwhenToUse: PDF work\nmetadata:\n  version: \"1.2\"\n";
    for _ in 0..1000.min(n) {
        std::hint::black_box(dsh_skills::engine::yaml::parse(text).unwrap());
    }
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(dsh_skills::engine::yaml::parse(std::hint::black_box(text)).unwrap());
    }
    let per = t.elapsed() / n;
    println!("typical 5-line frontmatter: {per:?} per parse");
    let t = Instant::now();
    for _ in 0..n {
        let p = dsh_skills::engine::yaml::parse(std::hint::black_box(text)).unwrap();
        std::hint::black_box(p.value.to_json());
    }
    println!("  + to_json: {:?} per parse", t.elapsed() / n);
    println!("lexer and CST parser only: {:?}", cst_only(text, n));
}

/// About `parses` parses, a whole number of rounds over the corpus.
fn corpus(dir: &str, parses: usize) {
    let mut texts = Vec::new();
    for e in walkdir::WalkDir::new(dir).into_iter().flatten() {
        if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md") {
            let Ok(raw) = std::fs::read_to_string(e.path()) else { continue };
            if let Ok(fm) = dsh_skills::engine::skillfile::split_frontmatter(&raw) {
                texts.push(raw[fm.yaml].to_string());
            }
        }
    }
    let rounds = (parses / texts.len().max(1)).max(1);
    let t = Instant::now();
    for _ in 0..rounds {
        for text in &texts {
            std::hint::black_box(dsh_skills::engine::yaml::parse(std::hint::black_box(text)).ok());
        }
    }
    let n = (rounds * texts.len()) as u32;
    println!("{} frontmatters: {:?} per parse", texts.len(), t.elapsed() / n.max(1));
    let t = Instant::now();
    for _ in 0..rounds {
        for text in &texts {
            std::hint::black_box(cst_only(text, 1));
        }
    }
    println!("lexer and CST parser only: {:?}", t.elapsed() / n.max(1));
}

fn cst_only(text: &str, n: u32) -> std::time::Duration {
    let t = Instant::now();
    for _ in 0..n {
        let text = std::hint::black_box(text);
        let tokens = npm_yaml::lex(text);
        std::hint::black_box(npm_yaml::parse(text, &tokens));
    }
    t.elapsed() / n
}
