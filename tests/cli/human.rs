//! Golden tests of the human output (`list`, `show`, `catalog`, `explain`), colour off and a
//! fixed width of 100 columns, plus one colour snapshot. Each scenario builds its skill tree in a
//! temporary directory; the tree's path is written `[T]` in the golden files.
//! Regenerate with `UPDATE_GOLDEN=1 cargo test --test cli human::`.

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Tree {
    fn new() -> Tree {
        // Always under /tmp (not $TMPDIR): human output wraps and elides paths to the width, so
        // the tree's path must have the same length on every machine for the golden files.
        let dir = tempfile::Builder::new().prefix("dsh-human-").tempdir_in("/tmp").unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        Tree { _dir: dir, root }
    }

    fn file(&self, rel: &str, text: &str) -> &Tree {
        let p = self.root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
        self
    }

    fn dir(&self, rel: &str) -> &Tree {
        fs::create_dir_all(self.root.join(rel)).unwrap();
        self
    }

    fn symlink(&self, rel: &str, target: &str) -> &Tree {
        let p = self.root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, p).unwrap();
        self
    }

    fn skill(&self, rel: &str, name: &str, description: &str) -> &Tree {
        self.file(rel, &format!("---\nname: {name}\ndescription: {description}\n---\n\nBody of {name}.\n"))
    }

    /// Run the binary in the tree with pinned homes; returns (status, stdout, stderr) with the
    /// tree's path replaced by `[T]`.
    fn run(&self, args: &[&str], extra_env: &[(&str, &str)]) -> (i32, String, String) {
        let t = self.root.to_string_lossy().into_owned();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_dsh-skills"));
        cmd.args(args)
            .args([
                "--no-config",
                "--dsh-home",
                &format!("{t}/home/.dsh"),
                "--agents-home",
                &format!("{t}/home/.agents"),
            ])
            .current_dir(&self.root)
            .env("COLUMNS", "100")
            .env("LC_ALL", "en_US.UTF-8")
            .env("HOME", format!("{t}/home"))
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("DSH_HOME")
            .env_remove("DSH_AGENTS_HOME")
            .env_remove("DSH_BUNDLED_SKILL_DIR");
        for (k, v) in extra_env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        support::check_json(args, &out);
        let clean = |b: &[u8]| String::from_utf8_lossy(b).replace(&t, "[T]");
        (out.status.code().unwrap_or(-1), clean(&out.stdout), clean(&out.stderr))
    }
}

fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, actual).unwrap();
        return;
    }
    let expected =
        fs::read_to_string(&path).unwrap_or_else(|_| panic!("missing {}; run UPDATE_GOLDEN=1", path.display()));
    assert!(
        expected == actual,
        "{name} differs from {}:\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}

fn transcript(args: &[&str], (code, out, err): (i32, String, String)) -> String {
    let mut s = format!("$ dsh-skills {}\n[exit {code}]\n{out}", args.join(" "));
    if !err.is_empty() {
        s.push_str("--- stderr\n");
        s.push_str(&err);
    }
    s
}

/// A project with shadowing (by rank and within one root), skipped files, a cut description,
/// a user-only skill, and near misses.
fn project() -> Tree {
    let t = Tree::new();
    t.dir("proj/.git")
        .skill("proj/.dsh/skills/review/SKILL.md", "review", "Project review checklist.")
        .skill("home/.dsh/skills/review/SKILL.md", "review", "Personal review checklist.")
        .skill("proj/.agents/skills/foo/SKILL.md", "foo", "Bundle foo.")
        .skill("proj/.agents/skills/Foo.md", "foo", "Flat Foo.")
        .file(
            "proj/.agents/skills/long.md",
            &format!("---\nname: long\ndescription: {}\n---\nLong body.\n", "word ".repeat(120)),
        )
        .file(
            "proj/.agents/skills/hidden.md",
            "---\nname: hidden\ndescription: Only for /hidden.\ndisable-model-invocation: true\n---\nx\n",
        )
        .file("home/.agents/skills/triage.md", "---\nname: triage\ndescription: Triage: label issues.\n---\n")
        .file("home/.agents/skills/legacy.md", "---\nname: legacy\ndescription: Old key.\nmodelInvocable: false\n---\n")
        .file("home/.agents/skills/Bad_Name.md", "---\nname: Bad_Name\ndescription: Bad.\n---\n")
        .file("home/.agents/skills/notes.markdown", "---\nname: notes\ndescription: Wrong suffix.\n---\n")
        .skill("home/.agents/skills/lower/skill.md", "lower", "Lowercase file name.")
        .skill("home/.agents/skills/group/nested/SKILL.md", "nested", "Too deep.")
        .skill("home/.dsh/skills/.system/sys/SKILL.md", "sys", "Old system layout.")
        .skill("proj/.claude/skills/claude-only/SKILL.md", "claude-only", "Lives where Claude Code looks.")
        .skill("proj/sub/.dsh/skills/subskill/SKILL.md", "subskill", "In a subfolder's .dsh.");
    t
}

#[test]
fn list_human() {
    let t = project();
    let args = ["list", "--cwd", "proj/sub", "--color", "never"];
    golden("list", &transcript(&args, t.run(&args, &[])));
    let args = ["list", "--cwd", "proj/sub", "--color", "never", "--verbose"];
    golden("list-verbose", &transcript(&args, t.run(&args, &[])));
}

#[test]
fn list_colour_snapshot() {
    let t = project();
    let args = ["list", "--cwd", "proj", "--color", "always"];
    let text = transcript(&args, t.run(&args, &[])).replace('\u{1b}', "\\e");
    golden("list-colour", &text);
}

#[test]
fn list_piped_is_plain_and_uncut() {
    let t = project();
    let (_, out, _) = t.run(&["list", "--cwd", "proj"], &[("COLUMNS", "")]);
    assert!(!out.contains('\u{1b}'), "no colour when piped");
    assert!(out.contains(&"word ".repeat(20)), "descriptions are not cut when piped");
}

#[test]
fn list_incomplete_discovery() {
    let t = Tree::new();
    t.dir("proj/.git")
        .skill("home/.dsh/skills/victim/SKILL.md", "victim", "Lost with the provider.")
        .symlink("home/.agents/skills", "skills");
    let args = ["list", "--cwd", "proj", "--color", "never"];
    golden("list-incomplete", &transcript(&args, t.run(&args, &[])));
    let args = ["catalog", "--cwd", "proj"];
    golden("catalog-incomplete", &transcript(&args, t.run(&args, &[])));
}

/// `N tokens (DeepSeek-V4)` with the count as `[N]`: the `<skill_content>` block holds the
/// temporary folder's path, whose random name tokenizes differently on each run (the counts
/// themselves are pinned in `tokens::` and the unit tests).
fn mask_tokens(s: &str) -> String {
    const TAIL: &str = " tokens (DeepSeek-V4)";
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find(TAIL) {
        let digits = rest[..at].len() - rest[..at].trim_end_matches(|c: char| c.is_ascii_digit()).len();
        out.push_str(&rest[..at - digits]);
        out.push_str("[N]");
        out.push_str(TAIL);
        rest = &rest[at + TAIL.len()..];
    }
    out.push_str(rest);
    out
}

#[test]
fn show_human_and_unknown() {
    let t = project();
    t.file(
        "proj/.dsh/skills/refs/SKILL.md",
        "---\nname: refs\ndescription: With references.\nwhenToUse: When testing.\nmetadata:\n  owner: qa\n---\nRun `scripts/go.sh`, read [guide](references/guide.md) and [notes](../outside.md).\n",
    )
    .file("proj/.dsh/skills/refs/references/guide.md", "guide");
    let args = ["show", "refs", "--cwd", "proj", "--color", "never"];
    golden("show", &mask_tokens(&transcript(&args, t.run(&args, &[]))));
    let args = ["show", "reviw", "--cwd", "proj", "--color", "never"];
    golden("show-unknown", &transcript(&args, t.run(&args, &[])));
}

#[test]
fn catalog_stats_on_stderr() {
    let t = project();
    let args = ["catalog", "--cwd", "proj", "--description-max-length", "40"];
    golden("catalog", &transcript(&args, t.run(&args, &[])));
}

#[test]
fn explain_stories() {
    let t = project();
    for (golden_name, name) in [
        ("explain-shadowed", "review"),
        ("explain-same-root", "foo"),
        ("explain-cut", "long"),
        ("explain-hidden", "hidden"),
        ("explain-yaml-error", "triage"),
        ("explain-legacy", "legacy"),
        ("explain-bad-name", "bad-name"),
        ("explain-lowercase-file", "lower"),
        ("explain-nested", "nested"),
        ("explain-system", "sys"),
        ("explain-other-agent", "claude-only"),
        ("explain-parent-dsh", "subskill"),
        ("explain-suffix", "notes"),
        ("explain-unknown", "nothing-like-it"),
    ] {
        let args = ["explain", name, "--cwd", "proj/sub", "--color", "never"];
        golden(golden_name, &transcript(&args, t.run(&args, &[])));
    }
}

#[test]
fn escapes_never_reach_the_terminal() {
    let t = Tree::new();
    t.dir("proj/.git").file(
        "proj/.dsh/skills/evil/SKILL.md",
        "---\nname: evil\ndescription: \"red \\e[31m text \\u202e reversed \\x9b bell \\a\"\n---\nBody with \u{1b}]0;title\u{7}.\n",
    );
    for args in [
        vec!["list", "--cwd", "proj", "--color", "always"],
        vec!["show", "evil", "--cwd", "proj", "--color", "never"],
        vec!["explain", "evil", "--cwd", "proj"],
        vec!["list", "--cwd", "proj", "--verbose"],
    ] {
        let (_, out, err) = t.run(&args, &[]);
        // Only our own SGR colour codes may appear; nothing from the file.
        let stripped = strip_sgr(&out);
        for bad in ['\u{1b}', '\u{9b}', '\u{202e}', '\u{7}'] {
            assert!(!stripped.contains(bad), "{args:?} leaked {bad:?}:\n{out}");
            assert!(!err.contains(bad), "{args:?} leaked {bad:?} on stderr");
        }
    }
    // JSON stays exact data.
    let (_, out, _) = t.run(&["list", "--cwd", "proj", "--format", "json"], &[]);
    assert!(out.contains("\\u001b[31m"), "{out}");
}

/// Remove `ESC [ … m` sequences (our own colours) and nothing else.
fn strip_sgr(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            let mut seq = String::from("\u{1b}[");
            chars.next();
            for d in chars.by_ref() {
                seq.push(d);
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
            if !seq.ends_with('m') || seq[2..seq.len() - 1].chars().any(|c| !(c.is_ascii_digit() || c == ';')) {
                out.push_str(&seq);
            }
            continue;
        }
        out.push(c);
    }
    out
}

#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    use std::io::Read;
    use std::process::Stdio;
    let t = Tree::new();
    t.dir("proj/.git");
    for i in 0..3000 {
        t.skill(&format!("proj/.dsh/skills/s{i}.md"), &format!("s{i}"), &"a long description ".repeat(10));
    }
    let root = t.root.to_string_lossy().into_owned();
    for args in [&["list", "--format", "json"][..], &["list"], &["catalog"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dsh-skills"))
            .args(args)
            .args(["--no-config", "--cwd", &format!("{root}/proj"), "--dsh-home", &format!("{root}/h")])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 16];
        child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(!String::from_utf8_lossy(&out.stderr).contains("error"), "{args:?}");
    }
}
