//! Dev tool: time per frontmatter of the stages (lexer; lexer + CST parser; `YAML.parse`, i.e.
//! everything to the JS value).
//!
//!     cargo run --release -p dsh-skills-npm-yaml --example stage_bench [N] [lex|parse|yaml]
//!
//! The text is the one `examples/yaml_bench.rs` (the engine's YAML layer) times. For
//! instruction counts run it under callgrind with two values of N and take the difference
//! (`valgrind --tool=callgrind stage_bench 20000 parse`, then 40000).
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let text = "name: pdf-tools\ndescription: Extract text and tables from PDF files. Use when the user asks about PDFs.\nwhenToUse: PDF work\nmetadata:\n  version: \"1.2\"\n";
    let n: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let only = std::env::args().nth(2);
    if only.is_none() || only.as_deref() == Some("lex") {
        let t = Instant::now();
        for _ in 0..n {
            black_box(npm_yaml::lex(black_box(text)));
        }
        println!("typical 5-line frontmatter, lexer: {:?} per parse", t.elapsed() / n);
    }
    if only.is_none() || only.as_deref() == Some("parse") {
        let t = Instant::now();
        for _ in 0..n {
            let tokens = npm_yaml::lex(black_box(text));
            black_box(npm_yaml::parse(text, &tokens));
        }
        println!("lexer + CST parser: {:?} per parse", t.elapsed() / n);
    }
    if only.is_none() || only.as_deref() == Some("yaml") {
        let t = Instant::now();
        for _ in 0..n {
            black_box(npm_yaml::api::parse(black_box(text)).is_ok());
        }
        println!("YAML.parse (to the JS value): {:?} per parse", t.elapsed() / n);
    }
}
