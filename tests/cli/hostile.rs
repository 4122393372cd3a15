//! Hostile skill trees: every subcommand must finish (a generous minute, to detect hangs, not to
//! measure speed), exit 0, 1 or 2, never panic, and never let an escape sequence from a skill file
//! reach the terminal.

use crate::support;

use support::strip_sgr;

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_dsh-skills")
}

struct Case {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Case {
    fn new() -> Case {
        let dir = tempfile::Builder::new().prefix("dsh-hostile-").tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir_all(root.join("proj/.git")).unwrap();
        fs::create_dir_all(root.join("proj/.dsh/skills")).unwrap();
        fs::create_dir_all(root.join("bundled")).unwrap();
        Case { _dir: dir, root }
    }

    fn skills(&self) -> PathBuf {
        self.root.join("proj/.dsh/skills")
    }

    fn write(&self, rel: &str, data: &[u8]) {
        let p = self.skills().join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, data).unwrap();
    }

    /// A buffered writer for a skill file, for the big cases: they are streamed to disk,
    /// never built in memory first.
    fn create(&self, rel: &str) -> BufWriter<fs::File> {
        let p = self.skills().join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        BufWriter::with_capacity(1 << 16, fs::File::create(p).unwrap())
    }

    /// Run every subcommand against the tree.
    fn run_all(&self, label: &str) {
        let root = self.root.to_string_lossy().into_owned();
        let base = [
            "--no-config".to_string(),
            "--cwd".into(),
            format!("{root}/proj"),
            "--dsh-home".into(),
            format!("{root}/home/.dsh"),
            "--agents-home".into(),
            format!("{root}/home/.agents"),
            "--bundled-dir".into(),
            format!("{root}/bundled"),
        ];
        let commands: [&[&str]; 11] = [
            &["list"],
            &["list", "--format", "json"],
            &["list", "--verbose", "--color", "always"],
            &["catalog"],
            &["catalog", "--format", "json"],
            &["show", "victim"],
            &["explain", "victim"],
            &["explain", "nothing"],
            &["lint"],
            &["lint", "--format", "github"],
            &["lint", "--format", "sarif"],
        ];
        for args in commands {
            let mut cmd = Command::new(bin());
            cmd.args(args).args(&base).env("COLUMNS", "100").env("LC_ALL", "en_US.UTF-8");
            let (code, out, err) = run_bounded(cmd, label, args);
            assert!(matches!(code, 0..=2), "{label} {args:?}: exit {code}\n{err}");
            assert!(!err.contains("panicked"), "{label} {args:?} panicked:\n{err}");
            // JSON and the exact catalog text are data and stay byte-exact; stderr never is.
            let exact_data = args.contains(&"json") || args.contains(&"sarif") || args == ["catalog"];
            for bad in ['\u{1b}', '\u{9b}', '\u{7}', '\u{202e}'] {
                assert!(!err.contains(bad), "{label} {args:?}: raw {bad:?} on stderr");
            }
            if !exact_data {
                let text = String::from_utf8_lossy(&out);
                let stripped = strip_sgr(&text);
                for bad in ['\u{1b}', '\u{9b}', '\u{7}', '\u{202e}'] {
                    assert!(!stripped.contains(bad), "{label} {args:?}: raw {bad:?} on stdout");
                }
            }
        }
    }
}

/// Run with a deadline; kill and fail on a hang.
fn run_bounded(mut cmd: Command, label: &str, args: &[&str]) -> (i32, Vec<u8>, String) {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut v).ok();
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut v).ok();
        v
    });
    let status = support::wait_bounded(&mut child, LIMIT, &format_args!("{label} {args:?}"));
    let out = out_reader.join().unwrap();
    let err = String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned();
    use std::os::unix::process::ExitStatusExt;
    let code = status.code().unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
    (code, out, err)
}

fn mkfifo(path: &Path) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

/// Write `unit` `times` times, a buffer at a time.
fn repeat(w: &mut impl Write, unit: &[u8], times: usize) {
    let per = (1 << 16) / unit.len();
    let block = unit.repeat(per.max(1));
    let mut left = times;
    while left > 0 {
        let n = left.min(per.max(1));
        w.write_all(&block[..n * unit.len()]).unwrap();
        left -= n;
    }
}

fn skill(name: &str, description: &str, body: &str) -> Vec<u8> {
    format!("---\nname: {name}\ndescription: {description}\n---\n{body}\n").into_bytes()
}

#[test]
fn fifos_are_never_opened() {
    let c = Case::new();
    mkfifo(&c.skills().join("victim/SKILL.md"));
    mkfifo(&c.skills().join("x.md"));
    mkfifo(&c.root.join("bundled/b/SKILL.md"));
    mkfifo(&c.root.join("bundled/y.md"));
    c.write("ok.md", &skill("victim", "still here", "body"));
    c.run_all("fifos");
}

#[test]
fn links_to_devices() {
    let c = Case::new();
    std::os::unix::fs::symlink("/dev/zero", c.skills().join("zero.md")).unwrap();
    fs::create_dir_all(c.skills().join("victim")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", c.skills().join("victim/SKILL.md")).unwrap();
    fs::create_dir_all(c.root.join("bundled/z")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", c.root.join("bundled/z/SKILL.md")).unwrap();
    std::os::unix::fs::symlink("/dev/urandom", c.root.join("bundled/r.md")).unwrap();
    c.run_all("devices");
}

#[test]
fn symlink_loops_in_entries_and_roots() {
    let c = Case::new();
    std::os::unix::fs::symlink("loop", c.skills().join("loop")).unwrap();
    c.run_all("entry loop");
    let c = Case::new();
    fs::create_dir_all(c.root.join("home/.agents")).unwrap();
    std::os::unix::fs::symlink("skills", c.root.join("home/.agents/skills")).unwrap();
    std::os::unix::fs::symlink("bloop", c.root.join("bundled/bloop")).unwrap();
    c.write("victim/SKILL.md", &skill("victim", "d", "b"));
    c.run_all("root loop");
}

#[test]
fn pathological_yaml() {
    let c = Case::new();
    c.write("deep.md", format!("---\nname: victim\ndescription: {}\n---\n", "[".repeat(200_000)).as_bytes());
    c.write(
        "deep2.md",
        format!("---\nname: victim\ndescription: {}x{}\n---\n", "{a: ".repeat(50_000), "}".repeat(50_000)).as_bytes(),
    );
    let mut bomb =
        String::from("---\nname: victim\ndescription: d\nmetadata:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..20 {
        bomb.push_str(&format!(
            "  a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n",
            p = i - 1
        ));
    }
    bomb.push_str("---\n");
    c.write("bomb.md", bomb.as_bytes());
    let mut keys = c.create("keys.md");
    keys.write_all(b"---\nname: victim\ndescription: d\nmetadata:\n").unwrap();
    for i in 0..200_000 {
        writeln!(keys, "  k{i}: {i}").unwrap();
    }
    keys.write_all(b"---\n").unwrap();
    keys.flush().unwrap();
    // Many anchors, then many collection-valued keys: each key's stringifier must know the
    // anchors converted before it without listing them all (that was quadratic: 20,000 of
    // each took 143 s).
    let mut anchors = c.create("anchors.md");
    anchors.write_all(b"---\nname: victim\ndescription: d\nmetadata:\n").unwrap();
    for i in 0..10_000 {
        writeln!(anchors, "  a{i}: &x{i} v{i}").unwrap();
    }
    for i in 0..10_000 {
        writeln!(anchors, "  ? [k{i}, *x{i}]\n  : {i}").unwrap();
    }
    anchors.write_all(b"---\n").unwrap();
    anchors.flush().unwrap();
    // A `!!set` and a `!!omap` of many entries: JS Sets and Maps find an entry by hash, and so
    // must the layer (a scan of the entries before each took 18 s for 50,000).
    let mut sets = c.create("sets.md");
    sets.write_all(b"---\nname: victim\ndescription: d\nmetadata:\n  s: !!set\n").unwrap();
    for i in 0..20_000 {
        writeln!(sets, "    ? k{i}").unwrap();
    }
    sets.write_all(b"  o: !!omap\n").unwrap();
    for i in 0..20_000 {
        writeln!(sets, "    - o{i}: {i}").unwrap();
    }
    sets.write_all(b"---\n").unwrap();
    sets.flush().unwrap();
    // Lone surrogates everywhere: 20,000 keys that differ only in one, a set of them, and an
    // alias key of a list of them (`String(array)` joins their code units once).
    let mut lone = c.create("lone.md");
    lone.write_all(b"---\nname: victim\ndescription: \"d\\ud800\"\nmetadata:\n  l: &l [").unwrap();
    for i in 0..20_000 {
        write!(lone, "\"\\u{:04x}\", ", 0xD800 + i % 0x800).unwrap();
    }
    lone.write_all(b"x]\n  ? *l\n  : 1\n  s: !!set\n").unwrap();
    for i in 0..20_000 {
        writeln!(lone, "    ? \"k{i}\\u{:04x}\"", 0xD800 + i % 0x800).unwrap();
    }
    for i in 0..20_000 {
        writeln!(lone, "  \"k{i}\\u{:04x}\": {i}", 0xD800 + i % 0x800).unwrap();
    }
    lone.write_all(b"---\n").unwrap();
    lone.flush().unwrap();
    // Scalars over many lines (1.6 MB each), quoted and plain: the scanner copies each line's
    // text in one run and must stop at the line's end.
    let lines = b"  word word word\n";
    let mut quoted = c.create("quoted-lines.md");
    quoted.write_all(b"---\nname: victim\ndescription: \"").unwrap();
    repeat(&mut quoted, lines, 100_000);
    quoted.write_all(b"  end\"\n---\n").unwrap();
    quoted.flush().unwrap();
    let mut plain = c.create("plain-lines.md");
    plain.write_all(b"---\nname: victim\ndescription: start\n").unwrap();
    repeat(&mut plain, lines, 100_000);
    plain.write_all(b"---\n").unwrap();
    plain.flush().unwrap();
    c.run_all("yaml");
}

/// One finding per key, 200,000 times: every lint format must answer within the hang limit
/// (before lint looked keys up by scanning all of them, 20,000 keys took 1.65 s and 200,000 did
/// not finish in two minutes; `bench/scale.py` measures the growth).
#[test]
fn a_finding_per_key_for_200000_keys() {
    let c = Case::new();
    let mut keys = c.create("victim/SKILL.md");
    keys.write_all(b"---\nname: victim\ndescription: d\n").unwrap();
    for i in 0..200_000 {
        writeln!(keys, "x-key-{i}: {i}").unwrap();
    }
    keys.write_all(b"---\nbody\n").unwrap();
    keys.flush().unwrap();
    let root = c.root.to_string_lossy().into_owned();
    for format in ["human", "json", "sarif", "github"] {
        // Human output groups a rule's findings unless --verbose, which shows every one.
        let args = ["lint", "--format", format, "--verbose"];
        let mut cmd = Command::new(bin());
        cmd.args(args).args(["--no-config", "--cwd", &format!("{root}/proj"), "--dsh-home", &format!("{root}/h")]);
        let (code, out, err) = run_bounded(cmd, "200,000 keys", &args);
        assert_eq!(code, 0, "{format}: warnings only: {err}");
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("x-key-199999"), "{format}: the last key's finding is missing");
    }
}

#[test]
fn huge_files() {
    let c = Case::new();
    // A 50 MB description.
    let mut f = c.create("victim.md");
    f.write_all(b"---\nname: victim\ndescription: ").unwrap();
    repeat(&mut f, b"x", 50 << 20);
    f.write_all(b"\n---\nb\n").unwrap();
    f.flush().unwrap();
    // Dense non-ASCII text takes the YAML layer's checkpoint table (6 MB of CJK).
    let mut f = c.create("cjk.md");
    f.write_all(b"---\nname: cjk\ndescription: ").unwrap();
    repeat(&mut f, "数据".as_bytes(), 1 << 20);
    f.write_all(b"\n---\nb\n").unwrap();
    f.flush().unwrap();
    // A 200 MB body.
    let mut f = c.create("big.md");
    f.write_all(b"---\nname: big\ndescription: big body\n---\n").unwrap();
    repeat(&mut f, b"lorem ipsum ", (200 << 20) / 12);
    f.flush().unwrap();
    c.run_all("huge");
}

#[test]
fn odd_bytes_and_names() {
    let c = Case::new();
    c.write("nul.md", b"---\nname: victim\ndescription: a\0b\n---\n");
    c.write("bad-utf8.md", b"---\nname: victim\ndescription: caf\xe9\n---\n");
    fs::write(c.root.join("bundled/bad-utf8.md"), b"---\nname: victim\ndescription: caf\xe9\n---\n").unwrap();
    use std::os::unix::ffi::OsStrExt;
    let weird = c.skills().join(std::ffi::OsStr::from_bytes(b"n\xffame.md"));
    fs::write(weird, skill("weird", "d", "b")).unwrap();
    c.write(
        "esc.md",
        b"---\nname: victim\ndescription: \"\\e[2J\\e]0;pwned\\a \\u202e \\x9b\"\n---\nbody \x1b[31m red\n",
    );
    c.write("\u{1b}[31mred.md", &skill("red", "d", "b"));
    c.write("empty.md", b"");
    c.write("fence.md", b"---\n");
    c.write("fences.md", b"---\n---\n");
    fs::create_dir_all(c.skills().join("dir/SKILL.md")).unwrap();
    c.run_all("odd");
}

#[test]
fn many_entries() {
    let c = Case::new();
    for i in 0..20_000 {
        c.write(&format!("s{i}.md"), &skill(&format!("s{i}"), "d", "b"));
    }
    c.run_all("20k");
}

#[test]
fn unreadable_directory_as_another_user() {
    let is_root = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    if !is_root || Command::new("setpriv").arg("--help").output().is_err() {
        eprintln!("skipped: needs root and setpriv to run as nobody");
        return;
    }
    let c = Case::new();
    c.write("victim/SKILL.md", &skill("victim", "d", "b"));
    c.write("locked/SKILL.md", &skill("locked", "d", "b"));
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&c.root, fs::Permissions::from_mode(0o755)).unwrap();
    for d in ["proj", "proj/.dsh", "proj/.dsh/skills", "proj/.dsh/skills/victim", "bundled"] {
        fs::set_permissions(c.root.join(d), fs::Permissions::from_mode(0o755)).unwrap();
    }
    fs::set_permissions(c.skills().join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
    let copy = c.root.join("dsh-skills");
    fs::copy(bin(), &copy).unwrap();
    fs::set_permissions(&copy, fs::Permissions::from_mode(0o755)).unwrap();
    let root = c.root.to_string_lossy().into_owned();
    for args in [&["list"][..], &["catalog", "--format", "json"], &["explain", "locked"]] {
        let mut cmd = Command::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"]).arg(&copy).args(args).args([
            "--no-config",
            "--cwd",
            &format!("{root}/proj"),
            "--dsh-home",
            &format!("{root}/h"),
            "--agents-home",
            &format!("{root}/h"),
        ]);
        let (code, _, err) = run_bounded(cmd, "unreadable", args);
        assert!(matches!(code, 0..=2), "{args:?}: exit {code}: {err}");
        assert!(!err.contains("panicked"));
    }
    fs::set_permissions(c.skills().join("locked"), fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn files_over_two_gib_fail_the_provider_as_node_does() {
    let c = Case::new();
    let path = c.skills().join("huge.md");
    let mut f = fs::File::create(&path).unwrap();
    f.write_all(b"---\nname: huge\ndescription: d\n---\n").unwrap();
    f.set_len(3 << 30).unwrap(); // sparse: no disk is used
    drop(f);
    c.run_all("sparse 3 GiB");
    let root = c.root.to_string_lossy().into_owned();
    let out = Command::new(bin())
        .args([
            "list",
            "--format",
            "json",
            "--no-config",
            "--cwd",
            &format!("{root}/proj"),
            "--dsh-home",
            &format!("{root}/h"),
        ])
        .output()
        .unwrap();
    support::check_json(&["list", "--format", "json"], &out);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["providerError"], "RangeError [ERR_FS_FILE_TOO_LARGE]: File size (3221225472) is greater than 2 GiB",
        "{v}"
    );
}

#[test]
fn non_utf8_names_are_mangled_as_node_mangles_them() {
    use std::os::unix::ffi::OsStrExt;
    let c = Case::new();
    let bundled = c.root.join("bundled");
    std::os::unix::fs::symlink("target.md", bundled.join(std::ffi::OsStr::from_bytes(b"l\xffink.md"))).unwrap();
    fs::write(bundled.join(std::ffi::OsStr::from_bytes(b"f\xffile.md")), skill("x", "d", "b")).unwrap();
    let root = c.root.to_string_lossy().into_owned();
    let out = Command::new(bin())
        .args(["list", "--format", "json", "--no-config", "--no-cwd", "--no-default-roots", "--bundled-dir"])
        .arg(&bundled)
        .output()
        .unwrap();
    support::check_json(&["list", "--format", "json"], &out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Node decodes the name lossily, cannot find the link again, and warns (bundled root only).
    let link = format!("{root}/bundled/l\u{fffd}ink.md");
    assert_eq!(
        v["warnings"],
        serde_json::json!([format!(
            "skill entry {link} ignored: failed to follow symbolic link: Error: ENOENT: no such file or directory, stat '{link}'"
        )])
    );
    assert_eq!(v["candidates"], serde_json::json!([]));
}

#[test]
fn a_bug_in_a_worker_thread_ends_with_status_2_not_a_hang() {
    if !cfg!(debug_assertions) {
        return; // the hook exists only in debug builds
    }
    let c = Case::new();
    for i in 0..64 {
        c.write(&format!("s{i}.md"), &skill(&format!("s{i}"), "d", "b"));
    }
    let root = c.root.to_string_lossy().into_owned();
    let mut cmd = Command::new(bin());
    cmd.args(["list", "--no-config", "--cwd", &format!("{root}/proj"), "--dsh-home", &format!("{root}/h")])
        .env("DSH_SKILLS_TEST_WORKER_PANIC", "1");
    let (code, _, err) = run_bounded(cmd, "worker panic", &["list"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("internal failure"), "{err}");
}

/// A `$DSH_HOME` and a project for the configuration loaders.
struct ConfigCase {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

/// The configuration files dsh-skills reads, where each lives, and the command that reads it.
/// `explicit`: named on the command line (a pipe is then read).
struct Loader {
    name: &'static str,
    rel: &'static str,
    args: &'static [&'static str],
    explicit: bool,
    /// A valid file of this kind (the FIFO case writes it into the pipe).
    valid: &'static str,
    /// Other files the loader needs to be reached.
    setup: &'static [(&'static str, &'static str)],
}

const LOADERS: &[Loader] = &[
    Loader {
        name: "home patch",
        rel: "dsh/cordis.patch.yml",
        args: &["list"],
        explicit: false,
        valid: "[]\n",
        setup: &[],
    },
    Loader {
        name: "profile patch",
        rel: "dsh/profiles/web/cordis.patch.yml",
        args: &["list"],
        explicit: false,
        valid: "[]\n",
        setup: &[],
    },
    Loader {
        name: "--patch",
        rel: "proj/overlay.yml",
        args: &["list", "--patch", "overlay.yml"],
        explicit: true,
        valid: "[]\n",
        setup: &[],
    },
    Loader {
        name: "preset",
        rel: "dsh/.agent-presets/mine/agent.cordis.yml",
        args: &["list"],
        explicit: false,
        valid: "- id: skill-filesystem\n  name: '@deepseek-ai/dsh-skill-filesystem'\n",
        setup: &[("dsh/settings.yaml", "agent-presets:\n  default: mine\n")],
    },
    Loader { name: "settings", rel: "dsh/settings.yaml", args: &["list"], explicit: false, valid: "{}\n", setup: &[] },
    Loader {
        name: "lint configuration",
        rel: "proj/.dsh-skills-lint.yaml",
        args: &["lint"],
        explicit: false,
        valid: "rules: {}\n",
        setup: &[],
    },
    Loader {
        name: "lint --config",
        rel: "proj/lint.yaml",
        args: &["lint", "--config", "lint.yaml"],
        explicit: true,
        valid: "rules: {}\n",
        setup: &[],
    },
];

impl ConfigCase {
    fn new(loader: &Loader) -> ConfigCase {
        let dir = tempfile::Builder::new().prefix("dsh-hostile-config-").tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        for d in ["proj/.git", "dsh", "home"] {
            fs::create_dir_all(root.join(d)).unwrap();
        }
        let c = ConfigCase { _dir: dir, root };
        for (rel, text) in loader.setup {
            c.write(rel, text.as_bytes());
        }
        c
    }

    fn path(&self, rel: &str) -> PathBuf {
        let p = self.root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        p
    }

    fn write(&self, rel: &str, data: &[u8]) {
        fs::write(self.path(rel), data).unwrap();
    }

    fn run(&self, loader: &Loader, label: &str) -> (i32, String) {
        let mut cmd = Command::new(bin());
        cmd.args(loader.args)
            .current_dir(self.root.join("proj"))
            .env_clear()
            .env("HOME", self.root.join("home"))
            .env("DSH_HOME", self.root.join("dsh"))
            .env("LC_ALL", "C");
        let (code, _, err) = run_bounded(cmd, &format!("{} {label}", loader.name), loader.args);
        assert!(!err.contains("panicked") && !err.contains("memory allocation"), "{} {label}:\n{err}", loader.name);
        (code, err)
    }

    /// Run, expecting a refusal (status 2) whose message names the file and contains `cause`.
    fn refused(&self, loader: &Loader, label: &str, cause: &str) -> String {
        let (code, err) = self.run(loader, label);
        assert_eq!(code, 2, "{} {label}: exit {code}\n{err}", loader.name);
        let file = self.root.join(loader.rel);
        assert!(err.contains(&*file.to_string_lossy()), "{} {label}: the file is not named:\n{err}", loader.name);
        assert!(err.contains(cause), "{} {label}: {cause:?} not said:\n{err}", loader.name);
        assert!(!err.contains("UNKNOWN") && !err.contains("is missing"), "{} {label}:\n{err}", loader.name);
        err
    }
}

/// Write `data` into a FIFO once a reader opens it; `false` if none does within the hang limit.
fn write_to_fifo(fifo: &Path, data: &[u8]) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    let deadline = std::time::Instant::now() + LIMIT;
    while std::time::Instant::now() < deadline {
        // Without a reader, a non-blocking open for writing fails (ENXIO) instead of waiting.
        match fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(fifo) {
            Ok(mut f) => return f.write_all(data).is_ok(),
            Err(_) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
    false
}

/// Every configuration loader through the hostile files: a FIFO, a link to a device, a file
/// over the size limit, an alias bomb, a deep nesting. Before, a FIFO blocked forever, an
/// alias bomb in a patch file or preset took 21 GB, `/dev/zero` read until memory ran out.
#[test]
fn every_configuration_loader_refuses_hostile_files() {
    let mut bomb = String::from("- id: x\n  config:\n    a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..20 {
        bomb.push_str(&format!("    a{i}: &a{i} [{}]\n", vec![format!("*a{}", i - 1); 10].join(", ")));
    }
    let deep = format!("- {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    for loader in LOADERS {
        // A FIFO nobody writes to: refused by name, or, named on the command line, read.
        let c = ConfigCase::new(loader);
        let fifo = c.path(loader.rel);
        mkfifo(&fifo);
        if loader.explicit {
            let valid = loader.valid;
            let writer = std::thread::spawn(move || write_to_fifo(&fifo, valid.as_bytes()));
            let (code, err) = c.run(loader, "named FIFO");
            assert!(matches!(code, 0 | 1), "{}: a FIFO named on the command line: exit {code}\n{err}", loader.name);
            assert!(writer.join().unwrap(), "{}: the FIFO was never opened", loader.name);
        } else {
            c.refused(loader, "FIFO", "is a FIFO, not a regular file");
        }
        // A link to /dev/zero: a device is never read; named explicitly, it is cut at the limit.
        let c = ConfigCase::new(loader);
        std::os::unix::fs::symlink("/dev/zero", c.path(loader.rel)).unwrap();
        c.refused(loader, "/dev/zero", if loader.explicit { "larger than 16 MiB" } else { "is a character device" });
        // Over the size limit (sparse).
        let c = ConfigCase::new(loader);
        fs::File::create(c.path(loader.rel)).unwrap().set_len(17 << 20).unwrap();
        c.refused(loader, "17 MiB", "larger than 16 MiB");
        // The billion laughs; and a nesting 100,000 deep.
        let c = ConfigCase::new(loader);
        c.write(loader.rel, bomb.as_bytes());
        let err = c.refused(loader, "alias bomb", "Excessive alias count");
        assert!(!err.contains("quote"), "{}: {err}", loader.name);
        let c = ConfigCase::new(loader);
        c.write(loader.rel, deep.as_bytes());
        let (code, err) = c.run(loader, "deep");
        assert_eq!(code, 2, "{}: deep: {err}", loader.name);
        assert!(
            err.contains("nested more than 1000 deep") || err.contains("Maximum call stack size exceeded"),
            "{err}"
        );
        // The valid file passes.
        let c = ConfigCase::new(loader);
        c.write(loader.rel, loader.valid.as_bytes());
        let (code, err) = c.run(loader, "valid");
        assert!(matches!(code, 0 | 1), "{}: valid: exit {code}\n{err}", loader.name);
    }
}

/// One anchor and many aliases, and many anchors each aliased once, in a patch file: linear
/// (100,000 of them took over 40 s; each anchor's definition copied its node, and each key was
/// compared with every key before it).
#[test]
fn many_anchors_and_aliases_in_a_patch_file() {
    let loader = &LOADERS[0];
    let c = ConfigCase::new(loader);
    let mut text = String::from("- id: x\n  config:\n");
    for i in 0..100_000 {
        text.push_str(&format!("    a{i}: &a{i} [{i}]\n    b{i}: *a{i}\n"));
    }
    c.write(loader.rel, text.as_bytes());
    let (code, err) = c.run(loader, "100,000 anchors");
    assert!(matches!(code, 0 | 1), "{err}");
}

/// Run `cmd` with `input` on stdin; its exit status, stdout, stderr and peak memory (KiB),
/// within the hang limit.
/// An alias bomb or a nesting too deep in a skill file is a resource limit, not a typo: the
/// finding says so and offers no quoting (before, the alias's `*` drew "quote the value").
#[test]
fn resource_limits_in_a_frontmatter_get_no_quoting_advice() {
    let c = Case::new();
    let mut bomb =
        String::from("---\nname: bomb\ndescription: d\nmetadata:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        bomb.push_str(&format!("  a{i}: &a{i} [{}]\n", vec![format!("*a{}", i - 1); 10].join(", ")));
    }
    bomb.push_str("  z: *a9\n---\n");
    c.write("bomb/SKILL.md", bomb.as_bytes());
    c.write("deep/SKILL.md", format!("---\nname: deep\ndescription: {}\n---\n", "[".repeat(5000)).as_bytes());
    let root = c.root.to_string_lossy().into_owned();
    let out = Command::new(bin())
        .args(["lint", "--format", "json", "--no-config"])
        .arg(c.skills())
        .env("HOME", format!("{root}/home"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = v["findings"].as_array().unwrap();
    for (skill, cause) in [("bomb", "Excessive alias count"), ("deep", "Maximum call stack size exceeded")] {
        let f = findings
            .iter()
            .find(|f| f["path"].as_str().unwrap().contains(&format!("{skill}/")) && f["rule"] == "yaml-syntax")
            .unwrap_or_else(|| panic!("{skill}: {findings:#?}"));
        assert!(f["message"].as_str().unwrap().contains(cause), "{f:#}");
        assert!(f["fix"].is_null(), "{f:#}");
        assert!(!f.to_string().contains("quote"), "{f:#}");
    }
}

// The child is reaped by `wait4` (which also gives its peak memory), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run_measured(mut cmd: Command, input: Vec<u8>, label: &str) -> (i32, Vec<u8>, String, i64) {
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start dsh-skills");
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut v).ok();
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut v).ok();
        v
    });
    let pid = child.id() as libc::pid_t;
    let deadline = std::time::Instant::now() + LIMIT;
    let (status, rss) = loop {
        let mut status = 0;
        // SAFETY: plain wait4 on our own child, with out-parameters that live on this stack.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break (status, usage.ru_maxrss);
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{label}: no exit within {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = feeder.join();
    let out = out_reader.join().unwrap();
    let err = String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned();
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 128 + libc::WTERMSIG(status) };
    (code, out, err, rss)
}

/// Whether a child's measured peak (`ru_maxrss`, KiB) is under `cap` KiB once what it did not
/// use itself is set aside. Linux keeps the largest resident size a process had, and a child
/// started from this test binary (`vfork`, then `exec`) starts with this binary's, which in a
/// loaded test run can be hundreds of MB: a child that stays at that level (measured with
/// `--version` just now, plus 16 MiB) used no more than the test process had; one that grew
/// past it and the cap is over.
fn peak_under(rss: i64, cap: i64) -> bool {
    if rss < cap {
        return true;
    }
    let (_, _, _, inherited) = run_measured(
        {
            let mut cmd = Command::new(bin());
            cmd.arg("--version");
            cmd
        },
        Vec::new(),
        "--version",
    );
    rss <= inherited + (16 << 10)
}

fn lsp_frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fn lsp_command(dir: &Path) -> Command {
    let mut cmd = Command::new(bin());
    cmd.arg("lsp").current_dir(dir).env("HOME", dir).env_remove("DSH_HOME");
    cmd
}

const LSP_INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;

/// The responses in a server's output, by id.
fn lsp_responses(out: &[u8]) -> Vec<serde_json::Value> {
    let mut r = std::io::BufReader::new(out);
    let mut v = Vec::new();
    while let Ok(Some(body)) = dsh_skills::lsp::transport::read_frame(&mut r) {
        let m: serde_json::Value = serde_json::from_slice(&body).unwrap();
        if m.get("id").is_some() && m.get("method").is_none() {
            v.push(m);
        }
    }
    v
}

/// A `Content-Length` the size of the address space, or of a gigabyte or two, is a framing
/// error and a clean exit, before and after `initialize`: never an allocation of the declared
/// size (1000000000000000 aborted on a failed allocation; 2000000000 took 1.1 GB at once).
#[test]
fn lsp_content_length_is_capped() {
    let dir = tempfile::tempdir().unwrap();
    for declared in ["1000000000000000", "2000000000", "18446744073709551616"] {
        for initialized in [false, true] {
            let mut input = if initialized { lsp_frame(LSP_INIT) } else { Vec::new() };
            input.extend(format!("Content-Length: {declared}\r\n\r\n{{\"jsonrpc\":").into_bytes());
            let (code, _, err, rss) = run_measured(lsp_command(dir.path()), input, declared);
            assert_eq!(code, 1, "{declared}: {err}");
            assert!(err.contains("over the limit") && err.contains("closing the connection"), "{declared}: {err}");
            assert!(!err.contains("panicked") && !err.contains("memory allocation"), "{err}");
            assert!(peak_under(rss, 300 << 10), "{declared}: {rss} KiB");
        }
    }
    // Under the cap, a body that never comes costs what was sent.
    let mut input = lsp_frame(LSP_INIT);
    input.extend(b"Content-Length: 60000000\r\n\r\n{}");
    let (code, _, err, rss) = run_measured(lsp_command(dir.path()), input, "60 MB declared");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the input ended inside a message"), "{err}");
    assert!(peak_under(rss, 300 << 10), "{rss} KiB");
}

/// A malformed body is logged shortened and escaped, and the session goes on; requests after
/// `shutdown` get -32600, and `exit` after `shutdown` is status 0. Before: the whole body was
/// echoed to stderr and the connection ended, the request got no answer, and the exit was 2.
#[test]
fn lsp_malformed_bodies_and_requests_after_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = lsp_frame(LSP_INIT);
    input.extend(lsp_frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#));
    let junk = format!("{{\"not\": \"a message {}\"", "\u{1b}]0;owned\u{7}".repeat(100_000));
    input.extend(lsp_frame(&junk));
    input.extend(lsp_frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#));
    input.extend(lsp_frame(
        r#"{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x.md"},"position":{"line":0,"character":0}}}"#,
    ));
    input.extend(lsp_frame(r#"{"jsonrpc":"2.0","method":"exit"}"#));
    let (code, out, err, _) = run_measured(lsp_command(dir.path()), input, "lsp shutdown");
    assert_eq!(code, 0, "{err}");
    assert!(err.len() < 1000, "{} bytes on stderr", err.len());
    assert!(err.contains("ignored a malformed message of") && !err.contains('\u{1b}'), "{err}");
    let responses = lsp_responses(&out);
    let by_id = |id: i64| responses.iter().find(|r| r["id"] == id).cloned().unwrap_or_default();
    assert_eq!(by_id(2)["result"], serde_json::Value::Null, "{responses:?}");
    assert!(by_id(2).get("error").is_none(), "{responses:?}");
    assert_eq!(by_id(3)["error"]["code"], -32600, "{responses:?}");
    // Without `shutdown`, `exit` is status 1.
    let mut input = lsp_frame(LSP_INIT);
    input.extend(lsp_frame(r#"{"jsonrpc":"2.0","method":"exit"}"#));
    let (code, _, err, _) = run_measured(lsp_command(dir.path()), input, "lsp exit");
    assert_eq!(code, 1, "{err}");
}

/// `lint`'s human output on a 40 MB line holds the excerpt it shows, not copies of the line
/// (before: about 20 times the line, 2 GB for a 100 MB line).
#[test]
fn lint_memory_on_a_long_line_is_bounded() {
    let c = Case::new();
    let line = 40usize << 20;
    let mut f = c.create("long/SKILL.md");
    f.write_all(b"---\nname: long\ndescription: ").unwrap();
    repeat(&mut f, b"word ", line / 5);
    f.write_all(b"\n---\nBody ").unwrap();
    repeat(&mut f, b"word ", line / 5);
    f.write_all(b" [a link](missing.md)\n").unwrap();
    f.flush().unwrap();
    drop(f);
    let root = c.root.to_string_lossy().into_owned();
    let mut cmd = Command::new(bin());
    cmd.args(["lint", "--no-config", "--color", "always", &format!("{root}/proj/.dsh/skills")])
        .env("COLUMNS", "100")
        .env("HOME", &c.root);
    let (code, out, err, rss) = run_measured(cmd, Vec::new(), "long line");
    assert!(matches!(code, 0 | 1), "{err}");
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("description-too-long"), "{}", &text[..text.len().min(2000)]);
    assert!(out.len() < 1 << 20, "{} bytes of output", out.len());
    let file_kib = (2 * line as i64) >> 10;
    assert!(peak_under(rss, 5 * file_kib), "{rss} KiB for a {file_kib} KiB file");
}
