//! Prints `YAML.parse`'s outcome for a file (or stdin) as this crate computes it: the value's
//! oracle encoding and the warnings, or `String(e)`.
//! usage: cargo run -p dsh-skills-npm-yaml --example yaml_parse -- [FILE]

#[path = "../tests/common/mod.rs"]
mod common;

fn main() {
    let src = match std::env::args().nth(1) {
        Some(f) => std::fs::read_to_string(f).expect("a UTF-8 file"),
        None => std::io::read_to_string(std::io::stdin()).expect("UTF-8 input"),
    };
    match npm_yaml::api::parse(&src) {
        Ok(p) => {
            println!("{}", common::enc(&p.value));
            for w in p.warnings {
                println!("{w}");
            }
        }
        Err(e) => {
            for w in &e.warnings {
                println!("{w}");
            }
            println!("{}", e.pretty);
        }
    }
}
