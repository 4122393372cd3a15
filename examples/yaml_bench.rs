//! Dev tool: average parse time of a typical 5-line frontmatter.
use std::time::Instant;
fn main() {
    let text = "name: pdf-tools\ndescription: Extract text and tables from PDF files. Use when the user asks about PDFs.\nwhenToUse: PDF work\nmetadata:\n  version: \"1.2\"\n";
    let n = 200_000;
    for _ in 0..1000 {
        std::hint::black_box(dsh_skills::yaml::parse(text).unwrap());
    }
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(dsh_skills::yaml::parse(std::hint::black_box(text)).unwrap());
    }
    let per = t.elapsed() / n;
    println!("typical 5-line frontmatter: {per:?} per parse");
    let t = Instant::now();
    for _ in 0..n {
        let p = dsh_skills::yaml::parse(std::hint::black_box(text)).unwrap();
        std::hint::black_box(p.value.to_json());
    }
    println!("  + to_json: {:?} per parse", t.elapsed() / n);
    println!("saphyr-parser events only: {:?}", saphyr_only(text, n));
}

#[allow(dead_code)]
fn saphyr_only(text: &str, n: u32) -> std::time::Duration {
    let t = Instant::now();
    for _ in 0..n {
        let mut p = saphyr_parser::Parser::new_from_str(std::hint::black_box(text));
        while let Some(Ok(ev)) = p.next_event() {
            std::hint::black_box(ev);
        }
    }
    t.elapsed() / n
}
