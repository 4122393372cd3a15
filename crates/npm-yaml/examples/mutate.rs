//! Dev tool: runs every stage on mutations of the corpus inputs (a fixed-seed generator), to
//! find panics. usage: cargo run --release -p dsh-skills-npm-yaml --example mutate -- [ROUNDS]

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Utf16, load, records, scalars_dump};

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let mut rng = common::Rng::new();
    let mut n = 0;
    for corpus in ["real", "block", "mixed", "chars", "y11", "keys"] {
        let secs = load(corpus);
        for r in records(&secs) {
            for _ in 0..rounds {
                let s = common::mutate(r.input, &mut rng);
                let tokens = npm_yaml::lex(&s);
                let cst = npm_yaml::parse(&s, &tokens);
                let u = Utf16::new(&s);
                std::hint::black_box(scalars_dump(&s, &u, &cst));
                std::hint::black_box(npm_yaml::api::parse(&s).is_ok());
                n += 1;
            }
        }
    }
    println!("{n} mutated inputs, no panic");
}
