//! Terminal safety on a real pseudo-terminal: whatever a skill file holds (ESC sequences, OSC
//! title and clipboard writes, C1 controls, bidirectional overrides; in names, descriptions,
//! bodies and paths), no command lets it reach the screen raw; `catalog`, `catalog --update` and
//! `show --rendered` show the exact texts escaped and say once on stderr that piped output is
//! exact; piped output stays byte-exact.
//!
//! The pseudo-terminal comes from `openpty(3)` through the `libc` crate the binary already
//! depends on: no extra crate, no Python, and the child sees a real terminal (`isatty`, a window
//! size) exactly as in a user's shell. The slave side is put in raw mode so the bytes read from
//! the master are the bytes the program wrote.
#![cfg(unix)]

use crate::support;

use std::fs;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;
use support::strip_sgr;

/// Like the hostile suite: a hang detector, not a speed test.
const LIMIT: Duration = Duration::from_secs(60);

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_dsh-skills")
}

struct Out {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

/// Run the binary with stdout on a pseudo-terminal (or a pipe) and stderr on a pipe.
fn run(root: &std::path::Path, args: &[&str], on_pty: bool) -> Out {
    let root = root.to_string_lossy();
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .args(["--no-config", "--cwd", &format!("{root}/proj"), "--dsh-home", &format!("{root}/home/.dsh")])
        .args(["--agents-home", &format!("{root}/home/.agents"), "--bundled-dir", &format!("{root}/bundled")])
        .current_dir(&*root)
        .env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("COLUMNS")
        .env("LC_ALL", "en_US.UTF-8")
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    let mut master = None;
    if on_pty {
        let (m, slave) = openpty();
        cmd.stdout(Stdio::from(slave));
        master = Some(m);
    } else {
        cmd.stdout(Stdio::piped());
    }
    let mut child = cmd.spawn().unwrap();
    // The parent's copy of the slave lives in `cmd`: close it, so the master sees the end.
    drop(cmd);
    let mut out_src: Box<dyn Read + Send> = match master {
        Some(m) => Box::new(fs::File::from(m)),
        None => Box::new(child.stdout.take().unwrap()),
    };
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let mut buf = [0u8; 65536];
        loop {
            match out_src.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => v.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                // Linux reports EIO on the master once the last slave descriptor is closed.
                Err(_) => break,
            }
        }
        v
    });
    let mut stderr = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        stderr.read_to_end(&mut v).ok();
        v
    });
    let status = support::wait_bounded(&mut child, LIMIT, &format_args!("{args:?}"));
    let stdout = out_reader.join().unwrap();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned();
    assert!(!stderr.contains("panicked"), "{args:?} panicked:\n{stderr}");
    Out { code: status.code().unwrap_or(-1), stdout, stderr }
}

/// A pseudo-terminal pair: the master, and the slave (raw mode, 120 columns) for the child.
fn openpty() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (-1, -1);
    let mut ws = libc::winsize { ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: openpty fills two descriptors; the pointers are valid for the call.
    let rc = unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null_mut(), &raw mut ws) };
    assert_eq!(rc, 0, "openpty failed: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned here alone.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    use std::os::fd::AsRawFd;
    // SAFETY: termios is a plain struct filled by tcgetattr on a valid descriptor.
    unsafe {
        let mut t: libc::termios = std::mem::zeroed();
        assert_eq!(libc::tcgetattr(slave.as_raw_fd(), &mut t), 0);
        libc::cfmakeraw(&mut t);
        assert_eq!(libc::tcsetattr(slave.as_raw_fd(), libc::TCSANOW, &t), 0);
    }
    (master, slave)
}

/// Characters a terminal obeys: C0 controls other than line feed, carriage return (raw mode
/// writes `\r\n` for nothing here, but tabs and newlines lay text out) and tab; DEL; C1
/// controls (U+0080-U+009F, CSI is U+009B); bidirectional controls.
fn is_dangerous(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{61c}' | '\u{200e}' | '\u{200f}'
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn assert_screen_safe(what: &str, out: &Out) {
    let text = match std::str::from_utf8(&out.stdout) {
        Ok(t) => t,
        Err(e) => panic!("{what}: stdout on the terminal is not UTF-8 ({e}): raw bytes could reach the screen"),
    };
    let visible = strip_sgr(text);
    if let Some(c) = visible.chars().find(|&c| is_dangerous(c)) {
        let at = visible.find(c).unwrap();
        let context: String = visible[at.saturating_sub(60)..].chars().take(100).collect();
        panic!("{what}: raw {c:?} reached the terminal near {context:?}");
    }
    if let Some(c) = strip_sgr(&out.stderr).chars().find(|&c| is_dangerous(c) || c == '\u{1b}') {
        panic!("{what}: raw {c:?} on stderr:\n{}", out.stderr);
    }
}

struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

/// Escapes everywhere a skill file can put them.
fn hostile_tree() -> Tree {
    let dir = tempfile::Builder::new().prefix("dsh-pty-").tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    let skills = root.join("proj/.dsh/skills");
    for d in ["proj/.git", "proj/.dsh/skills", "bundled", "home/.dsh", "home/.agents"] {
        fs::create_dir_all(root.join(d)).unwrap();
    }
    let write = |rel: &str, data: &[u8]| {
        let p = skills.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, data).unwrap();
    };
    // YAML escapes in the description and whenToUse: SGR, OSC 0 (title), OSC 52 (clipboard),
    // C1 CSI, a bidi override; raw bytes in the body and in metadata.
    write(
        "victim/SKILL.md",
        "---\nname: victim\ndescription: \"\\e[31mred\\e[0m \\e]0;pwned\\a \\e]52;c;cHduZWQ=\\a \\x9b31m \\u202eevil \\u2066x\\u2069\"\n\
         whenToUse: \"\\e[2J\\x9b2J\"\nmetadata:\n  owner: \"\\e]8;;http://x\\e\\\\link\\e]8;;\\e\\\\\"\n---\n\
         # Body \u{1b}[31mred\u{1b}[0m\n\u{1b}]0;title\u{7}\n\u{1b}]52;c;cHduZWQ=\u{7}\n\u{9b}31m C1\n\u{202e}reversed\n\
         See [x](\u{1b}[31mmissing.md) and `scripts/\u{202e}run.py`.\n"
            .as_bytes(),
    );
    // Hostile names: rejected by the harness (the name is echoed in its warning).
    write("bad/SKILL.md", b"---\nname: \"\\e[31mbad\\x9b\\u202e\"\ndescription: d\n---\nbody\n");
    // Hostile paths: a flat file, a folder, and a name the harness loads.
    write("\u{1b}]0;title\u{7}.md", b"---\nname: titled\ndescription: from a hostile file name\n---\nbody\n");
    write("\u{1b}[31mred\u{9b}1m/SKILL.md", b"---\nname: red\ndescription: from a hostile folder\n---\nbody\n");
    write("\u{202e}dm.txt/SKILL.md", b"---\nname: bidi\ndescription: d\n---\nbody\n");
    write("\u{202e}evil.markdown", b"---\nname: evil\ndescription: d\n---\n");
    // A shadowed copy with a hostile path, in the bundled root.
    let b = root.join("bundled/\u{1b}[32mvictim\u{9b}");
    fs::create_dir_all(&b).unwrap();
    fs::write(b.join("SKILL.md"), b"---\nname: victim\ndescription: \"\\e[32mshadowed\"\n---\n\x1b[32mbody\n").unwrap();
    Tree { _dir: dir, root }
}

const COMMANDS: &[&[&str]] = &[
    &["list"],
    &["list", "--verbose"],
    &["list", "--format", "json"],
    &["show", "victim"],
    &["show", "victim", "--rendered"],
    &["show", "victim", "--format", "json"],
    &["show", "red"],
    &["show", "titled", "--rendered"],
    &["show", "\u{1b}[31mnothing"],
    &["catalog"],
    &["catalog", "--update"],
    &["catalog", "--format", "json"],
    &["catalog", "--digest"],
    &["explain", "victim"],
    &["explain", "victim", "--format", "json"],
    &["explain", "red"],
    &["explain", "bad"],
    &["explain", "evil"],
    &["lint"],
    &["lint", "--format", "json"],
    &["lint", "--format", "sarif"],
    &["lint", "--format", "github"],
    &["lint", "--diff"],
    &["lint", "--compat", "agentskills", "--compat", "claude-code", "--compat", "codex"],
];

#[test]
fn nothing_from_a_skill_file_drives_the_terminal() {
    let t = hostile_tree();
    let hostile_path = t.root.join("proj/.dsh/skills/\u{1b}[31mred\u{9b}1m");
    let path_arg = hostile_path.to_string_lossy().into_owned();
    let with_path: &[&str] = &["lint", &path_arg];
    for args in COMMANDS.iter().copied().chain([with_path]) {
        for color in [None, Some("never"), Some("always")] {
            let mut a: Vec<&str> = args.to_vec();
            if let Some(c) = color {
                a.extend(["--color", c]);
            }
            let out = run(&t.root, &a, true);
            assert!(matches!(out.code, 0..=2), "{a:?}: exit {}\n{}", out.code, out.stderr);
            assert_screen_safe(&format!("{a:?}"), &out);
        }
    }
}

#[test]
fn exact_texts_are_escaped_on_a_terminal_and_exact_when_piped() {
    let t = hostile_tree();
    for args in [&["catalog"][..], &["catalog", "--update"], &["show", "victim", "--rendered"]] {
        let tty = run(&t.root, args, true);
        let piped = run(&t.root, args, false);
        assert_eq!(tty.code, 0, "{args:?}: {}", tty.stderr);
        assert_eq!(piped.code, 0, "{args:?}: {}", piped.stderr);
        let raw = String::from_utf8(piped.stdout.clone()).unwrap();
        // Piped: the exact bytes, escapes included.
        assert!(raw.contains("\u{1b}[31mred\u{1b}[0m"), "{args:?} piped: {raw:?}");
        assert!(raw.contains("\u{9b}31m") && raw.contains("\u{202e}"), "{args:?} piped: {raw:?}");
        assert!(!piped.stderr.contains("shown escaped"), "{args:?}: the note belongs to terminals only");
        // On the terminal: the same text with the notation of the human views.
        let shown = String::from_utf8(tty.stdout.clone()).unwrap();
        assert_eq!(shown, dsh_skills::render::term::safe_text(&raw), "{args:?}: not the exact text, escaped");
        assert!(shown.contains("\\x1b[31mred\\x1b[0m") && shown.contains("\\x1b]0;"), "{shown}");
        assert!(shown.contains("\\x07") && shown.contains("\\x1b]52;c;"), "{shown}");
        assert!(shown.contains("\\x9b31m") && shown.contains("\\u{202e}"), "{shown}");
        assert_eq!(tty.stderr.matches("shown escaped").count(), 1, "{args:?}: {}", tty.stderr);
        assert!(tty.stderr.contains("the exact bytes are written when the output is piped or redirected"));
        // Layout survives: line feeds stay line feeds.
        assert_eq!(shown.lines().count(), raw.lines().count(), "{args:?}");
    }
    // Nothing to escape: no note.
    let plain = run(&t.root, &["show", "titled", "--rendered"], true);
    assert_eq!(plain.code, 0);
    assert!(!plain.stderr.contains("shown escaped"), "{}", plain.stderr);
}

#[test]
fn json_on_a_terminal_is_the_same_data() {
    let t = hostile_tree();
    for args in [
        &["list", "--format", "json"][..],
        &["catalog", "--format", "json"],
        &["show", "victim", "--format", "json"],
        &["explain", "victim", "--format", "json"],
        &["lint", "--format", "json"],
        &["lint", "--format", "sarif"],
    ] {
        let tty = run(&t.root, args, true);
        let piped = run(&t.root, args, false);
        let a: serde_json::Value = serde_json::from_slice(&tty.stdout).unwrap();
        let b: serde_json::Value = serde_json::from_slice(&piped.stdout).unwrap();
        assert_eq!(a, b, "{args:?}: the terminal's JSON must decode to the piped JSON");
        assert!(String::from_utf8_lossy(&piped.stdout).contains('\u{202e}'), "{args:?}: the fixture lost its bidi");
    }
}

/// clap's own usage errors quote the offending argument: on a terminal (where clap colours its
/// message and would write the argument raw) an escape sequence in it is shown escaped.
#[test]
fn usage_errors_on_a_terminal_do_not_echo_escape_sequences() {
    for args in [
        &["list", "--bogus\u{1b}]0;owned\u{7}"][..],
        &["show\u{1b}[2J"],
        &["list", "--format", "x\u{9b}31m"],
        &["list", "--format", "\u{202e}json"],
    ] {
        let (master, slave) = openpty();
        let mut cmd = Command::new(bin());
        cmd.args(args).env("TERM", "xterm-256color").env_remove("NO_COLOR").stdin(Stdio::null());
        cmd.stdout(Stdio::null()).stderr(Stdio::from(slave));
        let mut child = cmd.spawn().unwrap();
        drop(cmd);
        let reader = std::thread::spawn(move || {
            let mut v = Vec::new();
            let mut f = fs::File::from(master);
            let mut buf = [0u8; 4096];
            while let Ok(n) = f.read(&mut buf) {
                if n == 0 {
                    break;
                }
                v.extend_from_slice(&buf[..n]);
            }
            v
        });
        let status = support::wait_bounded(&mut child, LIMIT, &format_args!("{args:?}"));
        assert_eq!(status.code(), Some(2), "{args:?}");
        let out = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
        let visible = strip_sgr(&out);
        assert!(!visible.chars().any(|c| is_dangerous(c) || c == '\u{1b}'), "{args:?}: raw control in {visible:?}");
        assert!(visible.contains("error:"), "{visible:?}");
        // Shown escaped, in clap's own message.
        assert!(visible.contains("\\x1b") || visible.contains("\\x9b") || visible.contains("\\u{202e}"), "{visible:?}");
    }
}
