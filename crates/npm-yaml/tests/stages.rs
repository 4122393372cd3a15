//! Differential test of each stage against npm yaml 2.9.0, without Node: `tests/data/<corpus>.bin`
//! holds every input of the six corpora of `tools/yaml-oracle` with npm yaml's answers
//! (`tools/yaml-oracle/stages_pack.py` writes them; the format is described there). For the lexer,
//! the CST parser and the scalar resolvers the answer is a hash of a canonical text dump (the
//! same text `tools/yaml-oracle/stages.js` writes for npm yaml's `Lexer`, `Parser` and
//! `resolveFlowScalar`/`resolveBlockScalar`); `YAML.parse`'s value, warnings and `String(e)` are
//! kept whole and checked against `npm_yaml::api::parse`.
//!
//! The test fails when a stage agrees on fewer inputs of a corpus than its floor in `FLOORS`.
//! To see an input's dumps side by side: `NPM_YAML_SHOW=3 cargo test -p dsh-skills-npm-yaml
//! --test stages -- --nocapture` prints up to 3 disagreeing inputs per corpus and stage with this
//! crate's dump; `node tools/yaml-oracle/stages.js` on a JSON array of them prints npm yaml's.

mod common;

use common::{Utf16, cst_dump, fnv1a32, lex_dump, load, records, scalars_dump};
use std::fmt::Write as _;

/// Per corpus: inputs, and the least number of them on which the lexer, the CST and the scalar
/// resolvers (every flow and block scalar of the tree) agree with npm yaml: all of them.
const FLOORS: &[(&str, usize, usize, usize, usize)] = &[
    ("real", 15_498, 15_498, 15_498, 15_498),
    ("block", 9_000, 9_000, 9_000, 9_000),
    ("mixed", 12_000, 12_000, 12_000, 12_000),
    ("chars", 9_000, 9_000, 9_000, 9_000),
    ("y11", 6_696, 6_696, 6_696, 6_696),
    ("keys", 6_000, 6_000, 6_000, 6_000),
];

#[test]
fn stages_agree_with_npm_yaml() {
    let show: usize = std::env::var("NPM_YAML_SHOW").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut report = String::from("corpus   inputs  npm-ok  lexer            cst              scalars\n");
    let mut failures = Vec::new();
    for &(name, inputs, lex_floor, cst_floor, sc_floor) in FLOORS {
        let secs = load(name);
        let recs = records(&secs);
        assert_eq!(recs.len(), inputs, "{name}: number of inputs");
        let (mut lex_ok, mut cst_ok, mut sc_ok, mut npm_ok) = (0, 0, 0, 0);
        let (mut lex_shown, mut cst_shown, mut sc_shown) = (0, 0, 0);
        for r in &recs {
            npm_ok += usize::from(r.outcome.starts_with("{\"ok\""));
            let u = Utf16::new(r.input);
            let tokens = npm_yaml::lex(r.input);
            let dump = lex_dump(&u, &tokens);
            if fnv1a32(&dump) == r.lex_hash {
                lex_ok += 1;
            } else if lex_shown < show {
                lex_shown += 1;
                println!("{name} lexer differs on {:?}\n  ours: {dump}", r.input);
            }
            let cst = npm_yaml::parse(r.input, &tokens);
            let dump = cst_dump(r.input, &u, &cst);
            if fnv1a32(&dump) == r.cst_hash {
                cst_ok += 1;
            } else if cst_shown < show {
                cst_shown += 1;
                println!("{name} CST differs on {:?}\n  ours: {dump}", r.input);
            }
            let dump = scalars_dump(r.input, &u, &cst);
            if fnv1a32(&dump) == r.scalars_hash {
                sc_ok += 1;
            } else if sc_shown < show {
                sc_shown += 1;
                println!("{name} scalars differ on {:?}\n  ours: {dump}", r.input);
            }
        }
        writeln!(
            report,
            "{name:<8} {inputs:>6}  {npm_ok:>6}  {lex_ok:>6} ({lex_floor:>6})  {cst_ok:>6} ({cst_floor:>6})  {sc_ok:>6} ({sc_floor:>6})"
        )
        .unwrap();
        if lex_ok < lex_floor {
            failures.push(format!("{name}: the lexer agrees on {lex_ok}, below its floor {lex_floor}"));
        }
        if sc_ok < sc_floor {
            failures.push(format!("{name}: the scalar resolvers agree on {sc_ok}, below their floor {sc_floor}"));
        }
        if cst_ok < cst_floor {
            failures.push(format!("{name}: the CST agrees on {cst_ok}, below its floor {cst_floor}"));
        }
    }
    println!("{report}");
    assert!(failures.is_empty(), "{}\n{report}", failures.join("\n"));
}

/// Every stage runs to the end, without a panic, on a mutation of each corpus input (the stages
/// are meant for any text; mutations reach states the generators do not).
#[test]
fn mutated_inputs_go_through_every_stage() {
    let mut rng = common::Rng::new();
    let mut n = 0;
    for &(name, ..) in FLOORS {
        let secs = load(name);
        for r in records(&secs) {
            let s = common::mutate(r.input, &mut rng);
            let tokens = npm_yaml::lex(&s);
            let cst = npm_yaml::parse(&s, &tokens);
            // the tokens cover the input, in order
            let mut at = 0;
            for t in &tokens {
                assert_eq!(t.start, at, "{s:?}");
                at = t.end;
            }
            assert_eq!(at as usize, s.len(), "{s:?}");
            std::hint::black_box(scalars_dump(&s, &Utf16::new(&s), &cst));
            // and the composer, prettifyError and toJS
            match npm_yaml::api::parse(&s) {
                Ok(p) => drop(std::hint::black_box(p)),
                Err(e) => assert!(!e.pretty.is_empty()),
            }
            n += 1;
        }
    }
    assert_eq!(n, 58_194);
}

/// Per corpus, the least number of inputs on which `npm_yaml::api::parse` agrees with npm yaml's
/// `YAML.parse`: the value (or the error's code and `String(e)`), accept/reject, `String(e)`,
/// the warnings: all of them (no input of the corpora reaches npm yaml's stack limit).
const PARSE_FLOORS: &[(&str, usize, usize, usize, usize)] = &[
    ("real", 15_498, 15_498, 15_498, 15_498),
    ("block", 9_000, 9_000, 9_000, 9_000),
    ("mixed", 12_000, 12_000, 12_000, 12_000),
    ("chars", 9_000, 9_000, 9_000, 9_000),
    ("y11", 6_696, 6_696, 6_696, 6_696),
    ("keys", 6_000, 6_000, 6_000, 6_000),
];

#[test]
fn parse_agrees_with_npm_yaml() {
    let show: usize = std::env::var("NPM_YAML_SHOW").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    let only: Option<usize> = std::env::var("NPM_YAML_COL").ok().and_then(|s| s.parse().ok());
    let mut report =
        String::from("corpus   inputs  npm-err  value            accept/reject    String(e)        warnings\n");
    let mut failures = Vec::new();
    for &(name, f_value, f_accept, f_pretty, f_warn) in PARSE_FLOORS {
        let secs = load(name);
        let recs = records(&secs);
        let mut n = [0usize; 4];
        let mut shown = 0;
        let mut npm_err = 0;
        for r in &recs {
            npm_err += usize::from(!r.outcome.starts_with("{\"ok\""));
            let (cols, ours) = common::outcome_agreement(r.input, r.outcome);
            for (k, c) in cols.iter().enumerate() {
                n[k] += usize::from(*c);
            }
            let bad = match only {
                Some(k) => !cols[k],
                None => cols.iter().any(|c| !c),
            };
            if bad && shown < show {
                shown += 1;
                println!("{name} differs on {:?}\n  npm:  {}\n  ours: {ours}", r.input, r.outcome);
            }
        }
        writeln!(
            report,
            "{name:<8} {:>6}  {npm_err:>6}  {:>6} ({f_value:>6})  {:>6} ({f_accept:>6})  {:>6} ({f_pretty:>6})  {:>6} ({f_warn:>6})",
            recs.len(),
            n[0],
            n[1],
            n[2],
            n[3]
        )
        .unwrap();
        for (k, (&got, floor)) in n.iter().zip([f_value, f_accept, f_pretty, f_warn]).enumerate() {
            if got < floor {
                let col = ["value", "accept/reject", "String(e)", "warnings"][k];
                failures.push(format!("{name}: {col} agrees on {got}, below its floor {floor}"));
            }
        }
    }
    println!("{report}");
    assert!(failures.is_empty(), "{}\n{report}", failures.join("\n"));
}
