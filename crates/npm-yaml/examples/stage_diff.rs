//! Prints, as JSON lines `[input, lexer dump, CST dump]`, up to N inputs of a corpus on which this
//! crate's lexer or CST disagrees with the oracle data; `tools/yaml-oracle/stage_diff.py` runs
//! npm yaml on them and shows the differences.
//! usage: cargo run -p dsh-skills-npm-yaml --example stage_diff -- CORPUS [N] [lex|cst]

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Utf16, cst_dump, fnv1a32, json_string, lex_dump, load, records, scalars_dump};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let corpus = args.get(1).expect("a corpus name");
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let stage = args.get(3).map_or("any", String::as_str);
    let secs = load(corpus);
    let mut shown = 0;
    for r in records(&secs) {
        let u = Utf16::new(r.input);
        let tokens = npm_yaml::lex(r.input);
        let lex = lex_dump(&u, &tokens);
        let tree = npm_yaml::parse(r.input, &tokens);
        let cst = cst_dump(r.input, &u, &tree);
        let scalars = scalars_dump(r.input, &u, &tree);
        let lex_bad = fnv1a32(&lex) != r.lex_hash;
        let cst_bad = fnv1a32(&cst) != r.cst_hash;
        let sc_bad = fnv1a32(&scalars) != r.scalars_hash;
        let bad = match stage {
            "lex" => lex_bad,
            "cst" => cst_bad && !lex_bad,
            "scalars" => sc_bad && !cst_bad && !lex_bad,
            _ => lex_bad || cst_bad || sc_bad,
        };
        if bad && shown < n {
            shown += 1;
            println!(
                "[{},{},{},{}]",
                json_string(r.input),
                json_string(&lex),
                json_string(&cst),
                json_string(&scalars)
            );
        }
    }
}
