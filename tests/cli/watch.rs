//! `dsh-skills watch`: real edits in a temporary tree, read back from the command's JSON Lines
//! event stream. Every wait is bounded by a generous timeout and ends as soon as the awaited
//! event arrives; nothing here measures time.

use crate::support;

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any one awaited event may take on a loaded machine.
pub(crate) const PATIENCE: Duration = Duration::from_secs(30);

/// A running `dsh-skills watch --format json` and its parsed event lines.
pub(crate) struct Watch {
    pub(crate) child: Child,
    pub(crate) events: Receiver<Value>,
    pub(crate) seen: Vec<Value>,
}

pub(crate) fn skill(dir: &Path, name: &str, description: &str, body: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), format!("---\nname: {name}\ndescription: {description}\n---\n{body}\n"))
        .unwrap();
}

/// A project (with `.git`) and an empty home, in a fresh temporary directory.
pub(crate) fn tree() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("p");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    (tmp, project, home)
}

pub(crate) fn args(project: &Path, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> =
        ["watch", "--no-config", "--format", "json", "--stability-threshold", "40", "--poll-interval", "20"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    a.extend(["--cwd".to_string(), project.to_string_lossy().into_owned()]);
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn validator() -> &'static jsonschema::Validator {
    static V: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
    V.get_or_init(|| {
        let text = std::fs::read_to_string(support::manifest().join("schemas/watch.schema.json")).unwrap();
        jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
    })
}

impl Watch {
    pub(crate) fn start(project: &Path, home: &Path, extra: &[&str]) -> Watch {
        let mut cmd = support::command(project, home);
        cmd.args(args(project, extra));
        Watch::spawn(cmd)
    }

    pub(crate) fn spawn(mut cmd: std::process::Command) -> Watch {
        let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, events) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { return };
                let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                let errors: Vec<String> = validator().iter_errors(&v).map(|e| e.to_string()).collect();
                assert!(errors.is_empty(), "{line}\ndoes not follow schemas/watch.schema.json: {errors:?}");
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        let mut w = Watch { child, events, seen: Vec::new() };
        // The first catalog event comes once every root is watched: edits may start.
        w.next("the start", |e| e["event"] == "catalog" && e["trigger"] == "start");
        w
    }

    /// The next event that `want` accepts (events before it are kept in `seen`).
    pub(crate) fn next(&mut self, what: &str, want: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            match self.events.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(e) => {
                    self.seen.push(e.clone());
                    if want(&e) {
                        return e;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("{what}: no such event within {PATIENCE:?}; saw {:#?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let _ = self.child.wait();
                    let mut err = String::new();
                    if let Some(mut e) = self.child.stderr.take() {
                        use std::io::Read;
                        let _ = e.read_to_string(&mut err);
                    }
                    panic!("{what}: the watch ended; saw {:#?}\nstderr: {err}", self.seen)
                }
            }
        }
    }

    /// The next catalog event after a change.
    pub(crate) fn change(&mut self, what: &str) -> Value {
        self.next(what, |e| e["event"] == "catalog" && e["trigger"] == "change")
    }

    /// The next catalog event after a change with a note that says `note`. On a loaded machine
    /// one write can settle twice (a writer paused between truncating and writing for longer
    /// than the threshold): the second evaluation of the earlier change can come first, or be
    /// folded into this change's, whose notes then name the earlier file too.
    pub(crate) fn change_noting(&mut self, what: &str, note: &str) -> Value {
        self.next(what, |e| {
            e["event"] == "catalog"
                && e["trigger"] == "change"
                && e["notes"]
                    .as_array()
                    .is_some_and(|ns| ns.iter().any(|n| n.as_str().is_some_and(|n| n.contains(note))))
        })
    }

    pub(crate) fn catalog_events(&self) -> usize {
        self.seen.iter().filter(|e| e["event"] == "catalog").count()
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What `dsh-skills catalog [--update]` prints for the same tree (without the final newline).
pub(crate) fn catalog_text(project: &Path, home: &Path, update: bool) -> String {
    let mut a = vec!["catalog", "--no-config", "--quiet", "--cwd", project.to_str().unwrap()];
    if update {
        a.push("--update");
    }
    let out = support::run(project, home, &a);
    let text = support::stdout(&out);
    text.strip_suffix('\n').unwrap_or(&text).to_string()
}

pub(crate) fn names(list: &Value) -> Vec<&str> {
    list.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect()
}

#[test]
fn each_kind_of_event_with_the_texts_catalog_prints() {
    let (_tmp, p, home) = tree();
    let dsh = p.join(".dsh/skills");
    let agents = p.join(".agents/skills");
    skill(&dsh.join("alpha"), "alpha", "Alpha does things.", "Body one.");
    skill(&agents.join("gamma"), "gamma", "Gamma, the agents copy.", "G.");
    skill(&dsh.join("gamma"), "gamma", "Gamma, the dsh copy.", "G.");
    let mut w = Watch::start(&p, &home, &["--skill", "alpha"]);
    let start = w.seen.iter().find(|e| e["event"] == "catalog").unwrap().clone();
    assert_eq!(start["outcome"], "initial");
    assert_eq!(start["text"].as_str().unwrap(), catalog_text(&p, &home, false));
    let content = w.next("the skill at the start", |e| e["event"] == "skill");
    let rendered = support::stdout(&support::run(&p, &home, &["show", "alpha", "--rendered", "--no-config"]));
    assert_eq!(format!("{}\n", content["text"].as_str().unwrap()), rendered);
    assert_eq!((content["ok"].as_bool(), content["trigger"].as_str()), (Some(true), Some("start")));

    // A description edit: the replacement, worded as `catalog --update` words it.
    skill(&dsh.join("alpha"), "alpha", "Alpha does other things.", "Body one.");
    let e = w.change("a description edit");
    assert_eq!(e["outcome"], "replacement", "{e:#}");
    assert_eq!(names(&e["diff"]["descriptionChanged"]), ["alpha"]);
    assert_eq!(e["text"].as_str().unwrap(), catalog_text(&p, &home, true));
    assert_eq!((e["reread"]["files"].as_u64(), e["reread"]["roots"].as_u64()), (Some(1), Some(0)), "{e:#}");

    // A body edit: nothing for the catalog, the new content for --skill.
    skill(&dsh.join("alpha"), "alpha", "Alpha does other things.", "Body two.");
    let e = w.change("a body edit");
    assert_eq!((e["outcome"].as_str(), e["reason"].as_str()), (Some("nothing"), Some("digest-unchanged")), "{e:#}");
    assert!(e["notes"][0].as_str().unwrap().contains("body"), "{e:#}");
    let s = w.next("the new skill content", |e| e["event"] == "skill");
    assert!(s["text"].as_str().unwrap().contains("Body two."), "{s:#}");
    // The same bytes written again (an editor's save without a change): said so, not taken
    // for a body edit.
    skill(&dsh.join("alpha"), "alpha", "Alpha does other things.", "Body two.");
    let e = w.change_noting("a write without a change", "content is unchanged");
    assert_eq!(e["outcome"], "nothing", "{e:#}");
    assert!(!e["notes"].as_array().unwrap().iter().any(|n| n.as_str().unwrap().contains("body")), "{e:#}");

    // whenToUse and a shadowed copy: nothing.
    std::fs::write(
        dsh.join("alpha/SKILL.md"),
        "---\nname: alpha\ndescription: Alpha does other things.\nwhenToUse: Always.\n---\nBody two.\n",
    )
    .unwrap();
    let e = w.change_noting("a whenToUse edit", "whenToUse");
    assert_eq!(e["outcome"], "nothing", "{e:#}");
    skill(&agents.join("gamma"), "gamma", "Gamma, the agents copy, edited.", "G.");
    let e = w.change_noting("a shadowed copy's edit", "shadowed");
    assert_eq!(e["outcome"], "nothing", "{e:#}");

    // A flat file added.
    // A second settle of the shadowed copy's write can come first (see `change_noting`).
    std::fs::write(dsh.join("flat.md"), "---\nname: flat\ndescription: A flat skill.\n---\nF.\n").unwrap();
    let e = w.next("a flat file", |e| e["event"] == "catalog" && e["trigger"] == "change" && e["outcome"] != "nothing");
    assert_eq!((e["outcome"].as_str(), names(&e["diff"]["added"])), (Some("replacement"), vec!["flat"]), "{e:#}");

    // A rename across roots: the dsh copy of gamma moves to the agents root, where the folder
    // `gamma` collates first, so the agents copy wins now.
    std::fs::rename(dsh.join("gamma"), agents.join("zeta")).unwrap();
    let e = w.change("a rename across roots");
    assert_eq!(e["outcome"], "replacement", "{e:#}");
    assert_eq!(names(&e["diff"]["descriptionChanged"]), ["gamma"], "{e:#}");
    let entry = e["entries"].as_array().unwrap().iter().find(|x| x["name"] == "gamma").unwrap().clone();
    assert_eq!(entry["description"], "Gamma, the agents copy, edited.");

    // Every skill gone: the empty replacement; then a skill again: a replacement (the session
    // already had a catalog).
    // (on a loaded machine the two removals can settle as two changes: a replacement with
    // what is left first)
    std::fs::remove_dir_all(&dsh).unwrap();
    std::fs::remove_dir_all(&agents).unwrap();
    let e = w.next("every skill removed", |e| {
        e["event"] == "catalog" && e["trigger"] == "change" && e["outcome"] != "replacement"
    });
    assert_eq!(e["outcome"], "empty-replacement", "{e:#}");
    assert_eq!(e["text"].as_str().unwrap(), catalog_text(&p, &home, true));
    let gone =
        |e: &Value| e["event"] == "skill" && e["text"] == "Error: skill \"alpha\" is unknown or no longer available";
    if !w.seen.iter().any(gone) {
        w.next("the skill is gone", gone);
    }
    skill(&agents.join("omega"), "omega", "Omega.", "O.");
    let e = w.change("a skill again");
    assert_eq!((e["outcome"].as_str(), names(&e["diff"]["added"])), (Some("replacement"), vec!["omega"]), "{e:#}");
}

#[test]
fn a_root_created_after_the_start_is_seen() {
    let (_tmp, p, home) = tree();
    let mut w = Watch::start(&p, &home, &[]);
    let start = w.seen.iter().find(|e| e["event"] == "catalog").unwrap().clone();
    assert_eq!(
        (start["outcome"].as_str(), start["reason"].as_str()),
        (Some("nothing"), Some("no-model-invocable-skill"))
    );
    // One convention with `catalog --format json`: no catalog, no digest (before, watch gave the
    // digest of the empty list where catalog says null).
    let out = support::run(&p, &home, &["catalog", "--no-config", "--format", "json", "--cwd", p.to_str().unwrap()]);
    let catalog: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((&start["digest"], &catalog["digest"]), (&Value::Null, &Value::Null), "{start:#}");
    skill(&p.join(".agents/skills/late"), "late", "Arrives late.", "L.");
    // The session never had a catalog: its first one is the initial message.
    let e = w.next("the initial catalog", |e| e["event"] == "catalog" && e["outcome"] == "initial");
    assert_eq!(e["text"].as_str().unwrap(), catalog_text(&p, &home, false));
}

#[test]
fn an_incomplete_discovery_keeps_the_previous_catalog() {
    let (_tmp, p, home) = tree();
    skill(&p.join(".dsh/skills/alpha"), "alpha", "Alpha.", "A.");
    std::fs::create_dir_all(p.join(".agents")).unwrap();
    let mut w = Watch::start(&p, &home, &[]);
    // A root that is a symbolic link to itself: realpath fails with ELOOP, the provider fails.
    #[cfg(unix)]
    std::os::unix::fs::symlink("skills", p.join(".agents/skills")).unwrap();
    #[cfg(not(unix))]
    return;
    let e = w.next("an incomplete discovery", |e| e["event"] == "catalog" && e["outcome"] == "incomplete");
    let failures = e["failures"].as_array().unwrap();
    assert!(failures.iter().any(|f| f.as_str().unwrap().contains("ELOOP")), "{e:#}");
    assert!(e["text"].is_null());
    std::fs::remove_file(p.join(".agents/skills")).unwrap();
    // Discovery works again and gives the catalog the session still shows: nothing.
    let e = w.next("discovery back", |e| e["event"] == "catalog" && e["outcome"] != "incomplete");
    assert_eq!((e["outcome"].as_str(), e["reason"].as_str()), (Some("nothing"), Some("digest-unchanged")), "{e:#}");
}

#[test]
fn a_burst_of_a_thousand_writes_gives_few_events() {
    let (_tmp, p, home) = tree();
    let root = p.join(".dsh/skills");
    for i in 0..50 {
        skill(&root.join(format!("s{i:02}")), &format!("s{i:02}"), "Version 0.", "B.");
    }
    let mut w = Watch::start(&p, &home, &[]);
    for round in 1..=20 {
        for i in 0..50 {
            skill(&root.join(format!("s{i:02}")), &format!("s{i:02}"), &format!("Version {round}."), "B.");
        }
    }
    let settled = |e: &Value| {
        e["event"] == "catalog"
            && e["entries"].as_array().is_some_and(|es| es.iter().all(|x| x["description"] == "Version 20."))
    };
    w.next("the catalog after the burst", settled);
    let events = w.catalog_events();
    // 1,000 writes; the events that reached the stream, the start included.
    assert!(events <= 25, "{events} catalog events for 1,000 writes: {:#?}", w.seen);
}

#[cfg(unix)]
#[test]
fn ctrl_c_ends_the_watch_with_status_0() {
    let (_tmp, p, home) = tree();
    skill(&p.join(".dsh/skills/alpha"), "alpha", "Alpha.", "A.");
    let mut w = Watch::start(&p, &home, &[]);
    // SAFETY: signalling our own child process.
    unsafe { libc::kill(w.child.id() as i32, libc::SIGINT) };
    let status = support::wait_bounded(&mut w.child, PATIENCE, &"watch after SIGINT");
    assert_eq!(status.code(), Some(0));
}

#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_the_watch_quietly() {
    let (_tmp, p, home) = tree();
    skill(&p.join(".dsh/skills/alpha"), "alpha", "Alpha.", "A.");
    let mut child = support::command(&p, &home)
        .args(args(&p, &[]))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.contains("\"event\":\"watching\""), "{first}");
    drop(out);
    // No event is due: the closed pipe alone must end it.
    let status = support::wait_bounded(&mut child, PATIENCE, &"watch with its stdout closed");
    let mut err = String::new();
    use std::io::Read;
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn human_output_with_text_prints_the_exact_messages() {
    let (_tmp, p, home) = tree();
    skill(&p.join(".dsh/skills/alpha"), "alpha", "Alpha.", "A.");
    let mut a = args(&p, &["--text"]);
    a.retain(|x| x != "--format" && x != "json");
    let mut child = support::command(&p, &home).args(a).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let expected = catalog_text(&p, &home, false);
    let mut got = String::new();
    let deadline = Instant::now() + PATIENCE;
    while !got.contains("</system-reminder>") && Instant::now() < deadline {
        if out.read_line(&mut got).unwrap() == 0 {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let head = got.lines().next().unwrap_or("");
    assert!(head.contains("initial catalog: 1 entry,"), "{got}");
    assert!(got.contains(&format!("{expected}\n")), "{got}\n---\n{expected}");
}

/// The incremental re-evaluation (a memo that re-reads only what was reported changed) gives
/// the snapshot a full discovery gives, after every one of a series of random edits.
#[test]
fn incremental_discovery_equals_full_discovery_after_random_edits() {
    use dsh_skills::engine::discover::{Environment, ProviderConfig, ScanMemo};
    use dsh_skills::engine::snapshot::{Settings, Snapshot};
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().to_string_lossy().into_owned();
    let roots = [format!("{base}/r0"), format!("{base}/r1"), format!("{base}/r2")];
    let env = Environment {
        process_cwd: base.clone(),
        home: format!("{base}/home"),
        dsh_home: None,
        agents_home: None,
        bundled_skill_dir: None,
    };
    let settings = Settings::single(
        None,
        ProviderConfig { custom_skill_dirs: roots.to_vec(), include_default_roots: false, ..ProviderConfig::default() },
        40,
        "en-US".into(),
    );
    let full = |s: &Snapshot| serde_json::to_value(dsh_skills::render::report::list(s, Value::Null)).unwrap();
    // A small deterministic generator (xorshift): the same edits on every run.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let names = ["a", "b", "c", "d", "e", "f"];
    let mut memo = ScanMemo::new();
    let first = Snapshot::discover_with(&settings, &env, Some(&mut memo));
    assert_eq!(full(&first), full(&Snapshot::discover(&settings, &env)));
    memo.take_stats();
    for step in 0..300 {
        let root = &roots[next(3) as usize];
        let name = names[next(6) as usize];
        let dir = format!("{root}/{name}");
        let flat = format!("{root}/{name}.md");
        let text = |d: &str| format!("---\nname: {name}\ndescription: {d} {step}\n---\nBody {step}.\n");
        // What changed, as the watcher reports it: the root's listing and/or the entry's file.
        let mut listing = false;
        let mut entry = name.to_string();
        match next(8) {
            0 | 1 => {
                std::fs::create_dir_all(&dir).unwrap();
                listing = true;
                std::fs::write(format!("{dir}/SKILL.md"), text("Bundle")).unwrap();
            }
            2 => {
                if std::path::Path::new(&dir).is_dir() {
                    std::fs::write(format!("{dir}/SKILL.md"), text("Edited")).unwrap();
                }
            }
            3 => {
                std::fs::create_dir_all(root).unwrap();
                std::fs::write(&flat, text("Flat")).unwrap();
                listing = true;
                entry = format!("{name}.md");
            }
            4 => {
                let _ = std::fs::remove_dir_all(&dir);
                listing = true;
            }
            5 => {
                let _ = std::fs::remove_file(&flat);
                listing = true;
                entry = format!("{name}.md");
            }
            6 => {
                if std::path::Path::new(&dir).is_dir() {
                    // Broken YAML: a warning instead of a candidate.
                    std::fs::write(format!("{dir}/SKILL.md"), "---\nname: [unclosed\n---\n").unwrap();
                }
            }
            _ => {
                if next(2) == 0 {
                    let _ = std::fs::remove_dir_all(root);
                    memo.invalidate_root(root);
                } else {
                    std::fs::create_dir_all(root).unwrap();
                    listing = true;
                }
            }
        }
        if listing {
            memo.invalidate_listing(root);
        }
        memo.invalidate_entry(root, &entry);
        let incremental = Snapshot::discover_with(&settings, &env, Some(&mut memo));
        let stats = memo.take_stats();
        assert_eq!(full(&incremental), full(&Snapshot::discover(&settings, &env)), "step {step}");
        assert!(stats.read <= 1, "step {step}: {stats:?} (one entry changed)");
        assert!(stats.listed <= 1, "step {step}: {stats:?}");
    }
}

#[test]
fn polling_sees_edits_without_notifications() {
    let (_tmp, p, home) = tree();
    let dsh = p.join(".dsh/skills");
    skill(&dsh.join("alpha"), "alpha", "Alpha.", "A.");
    let mut w = Watch::start(&p, &home, &["--poll"]);
    skill(&dsh.join("alpha"), "alpha", "Alpha, edited while polled.", "A.");
    let e = w.change("a polled description edit");
    assert_eq!((e["outcome"].as_str(), names(&e["diff"]["descriptionChanged"])), (Some("replacement"), vec!["alpha"]));
    assert_eq!(e["text"].as_str().unwrap(), catalog_text(&p, &home, true));
    skill(&dsh.join("beta"), "beta", "Beta, a new folder.", "B.");
    let e = w.change("a polled new folder");
    assert_eq!(names(&e["diff"]["added"]), ["beta"], "{e:#}");
}

/// A skill folder that is a symbolic link: an edit of the file it leads to is a change.
#[cfg(unix)]
#[test]
fn an_edit_behind_a_symlinked_skill_is_seen() {
    let (tmp, p, home) = tree();
    let shared = tmp.path().join("shared/linked");
    skill(&shared, "linked", "Linked, as shared.", "L.");
    std::fs::create_dir_all(p.join(".dsh/skills")).unwrap();
    std::os::unix::fs::symlink(&shared, p.join(".dsh/skills/linked")).unwrap();
    let mut w = Watch::start(&p, &home, &[]);
    skill(&shared, "linked", "Linked, edited where it lives.", "L.");
    let e = w.change("an edit of the link's target");
    assert_eq!(names(&e["diff"]["descriptionChanged"]), ["linked"], "{e:#}");
    assert_eq!(e["text"].as_str().unwrap(), catalog_text(&p, &home, true));
}

/// The harness's configuration is watched too: a custom skill folder added to the home patch
/// layer brings its skills into the catalog.
#[test]
fn a_configuration_edit_changes_the_roots() {
    let tmp = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(tmp.path()).unwrap();
    let (launch, dsh, home) = (base.join("launch"), base.join("dsh"), base.join("home"));
    for d in [&launch, &dsh, &home] {
        std::fs::create_dir_all(d).unwrap();
    }
    skill(&launch.join("team-a/alpha"), "alpha", "Alpha, from team a.", "A.");
    skill(&launch.join("team-b/beta"), "beta", "Beta, from team b.", "B.");
    let patch = dsh.join("cordis.patch.yml");
    let write_patch = |dirs: &[&str]| {
        let items: String = dirs.iter().map(|d| format!("      - {d}\n")).collect();
        std::fs::write(&patch, format!("- id: skill-filesystem\n  config:\n    customSkillDirs:\n{items}")).unwrap();
    };
    write_patch(&["team-a"]);
    let cmd = || {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_dsh-skills"));
        c.current_dir(&launch).env_clear().env("HOME", &home).env("DSH_HOME", &dsh).env("LC_ALL", "C");
        c
    };
    let mut watch = cmd();
    watch.args(["watch", "--profile", "headless", "--format", "json", "--stability-threshold", "40"]);
    watch.args(["--poll-interval", "20"]);
    let mut w = Watch::spawn(watch);
    let start = w.seen.iter().find(|e| e["event"] == "catalog").unwrap().clone();
    let listed = |e: &Value| -> Vec<String> {
        e["entries"].as_array().unwrap().iter().map(|x| x["name"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(listed(&start), ["alpha"], "{start:#}");
    write_patch(&["team-a", "team-b"]);
    let e = w.change("a configuration edit");
    assert_eq!(names(&e["diff"]["added"]), ["beta"], "{e:#}");
    let out = cmd().args(["catalog", "--profile", "headless", "--update", "--quiet"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(e["text"].as_str().unwrap(), text.strip_suffix('\n').unwrap_or(&text));
}

/// Symbolic links created and removed directly in a root are changes, with the native back
/// end and with polling: a loop (the provider fails, `catalog` says incomplete), a dangling
/// link (nothing for the catalog, but an event), a link to a skill folder elsewhere (a skill
/// added, then removed).
#[cfg(unix)]
fn links_in_a_root(extra: &[&str]) {
    use std::os::unix::fs::symlink;
    let (tmp, p, home) = tree();
    let root = p.join(".dsh/skills");
    skill(&root.join("alpha"), "alpha", "Alpha.", "A.");
    let elsewhere = tmp.path().join("shared/beta");
    skill(&elsewhere, "beta", "Beta, linked in.", "B.");
    let mut w = Watch::start(&p, &home, extra);

    symlink(root.join("loop"), root.join("loop")).unwrap();
    let e = w.change("a link loop created");
    assert_eq!(e["outcome"], "incomplete", "{e:#}");
    assert!(e["failures"][0].as_str().unwrap().contains("ELOOP"), "{e:#}");
    std::fs::remove_file(root.join("loop")).unwrap();
    let e = w.change("the loop removed");
    assert_eq!((e["outcome"].as_str(), e["reason"].as_str()), (Some("nothing"), Some("digest-unchanged")), "{e:#}");

    symlink(tmp.path().join("nowhere"), root.join("dangling")).unwrap();
    // Polling may name the root too (its listing changed), before the link.
    let names_link =
        |e: &Value| e["changed"].as_array().unwrap().iter().any(|c| c == root.join("dangling").to_str().unwrap());
    let e = w.change("a dangling link created");
    assert!(names_link(&e), "{e:#}");
    std::fs::remove_file(root.join("dangling")).unwrap();
    let e = w.change("the dangling link removed");
    assert!(names_link(&e), "{e:#}");

    symlink(&elsewhere, root.join("beta")).unwrap();
    let e = w.change("a link to a skill folder elsewhere");
    assert_eq!(names(&e["diff"]["added"]), ["beta"], "{e:#}");
    assert_eq!(e["text"].as_str().unwrap(), catalog_text(&p, &home, true));
    std::fs::remove_file(root.join("beta")).unwrap();
    let e = w.change("the link removed");
    assert_eq!(names(&e["diff"]["removed"]), ["beta"], "{e:#}");
    assert_eq!(e["text"].as_str().unwrap(), catalog_text(&p, &home, true));
}

#[cfg(unix)]
#[test]
fn links_created_and_removed_in_a_root_are_changes() {
    links_in_a_root(&[]);
}

#[cfg(unix)]
#[test]
fn links_created_and_removed_in_a_root_are_changes_when_polling() {
    links_in_a_root(&["--poll"]);
}

/// A poll pass reports a change only when something changed: a dangling link and a link loop
/// in a root used to be a watcher error at every poll, so an event every poll, for good.
#[cfg(unix)]
#[test]
fn polling_a_root_with_a_dangling_link_and_a_loop_stays_quiet() {
    use std::os::unix::fs::symlink;
    let (tmp, p, home) = tree();
    let root = p.join(".dsh/skills");
    skill(&root.join("alpha"), "alpha", "Alpha.", "A.");
    skill(&p.join(".agents/skills/beta"), "beta", "Beta.", "B.");
    symlink(tmp.path().join("nowhere"), root.join("dangling")).unwrap();
    symlink(p.join(".agents/skills/loop"), p.join(".agents/skills/loop")).unwrap();
    let mut w = Watch::start(&p, &home, &["--poll"]);
    // About 50 polls at the 20 ms interval (fewer on a loaded machine, which can only make
    // this pass more easily, never fail).
    std::thread::sleep(Duration::from_secs(1));
    while let Ok(e) = w.events.try_recv() {
        w.seen.push(e);
    }
    assert_eq!(w.catalog_events(), 1, "only the start: {:#?}", w.seen);
    // And a real change is still seen.
    std::fs::remove_file(p.join(".agents/skills/loop")).unwrap();
    let e = w.change("the loop removed");
    assert_eq!(e["outcome"], "initial", "{e:#}");
}
