//! `dsh-skills watch`: run the watch engine ([`crate::watch`]) and print its events, until
//! Ctrl-C (exit 0) or a closed stdout (quietly, exit 0).

use super::io::{EXIT_OK, Io, human_or_json, write_exact};
use super::{UsageError, settings_from_args};
use crate::cli::{GlobalArgs, WatchArgs};
use crate::engine::config::Report;
use crate::engine::discover::Environment;
use crate::engine::snapshot::Settings;
use crate::engine::watch::fs::WatchConfig;
use crate::engine::watch::{Emit, Engine, Msg, Options};
use crate::render::watch as report_watch;
use std::io;
use std::time::Duration;

pub fn run(
    g: &GlobalArgs,
    args: &WatchArgs,
    settings: Settings,
    report: &Report,
    env: &Environment,
    io: &mut Io,
) -> anyhow::Result<u8> {
    let json = human_or_json(g, "watch")?;
    if let Some(name) = &args.skill
        && !crate::engine::js::is_skill_name(name)
    {
        return Err(UsageError(format!(
            "--skill {}: not a skill name (the `skill` tool accepts only lowercase letters, digits and single hyphens)",
            crate::render::term::safe(name)
        ))
        .into());
    }
    let options = Options {
        watch: WatchConfig {
            polling: args.poll,
            stability: Duration::from_millis(args.stability_threshold),
            poll_interval: Duration::from_millis(args.poll_interval),
        },
        skill: args.skill.clone(),
    };
    let reread_global = g.clone();
    let reread_env = env.clone();
    let reconfigure = Box::new(move || {
        let var = |k: &str| std::env::var(k).ok();
        let resolved = crate::engine::config::resolve(&reread_global.flags(), &reread_env, &var).map_err(|e| e.0)?;
        let settings =
            if reread_global.no_config { settings_from_args(&reread_global, &reread_env) } else { resolved.settings };
        Ok((settings, config_files(&resolved.report)))
    });
    let mut engine = Engine::new(settings, env.clone(), config_files(report), reconfigure, options);
    let stop = engine.stopper();
    // Ctrl-C (and SIGTERM) end the watch cleanly. A second handler cannot be installed in one
    // process; the binary runs one command, so that only happens in tests of the library.
    let _ = ctrlc::set_handler(move || {
        let _ = stop.send(Msg::Stop);
    });
    watch_stdout_closed(engine.stopper());
    let term = io.term;
    let err_term = io.err_term;
    let mut sink = |emit: Emit| -> io::Result<()> {
        if json {
            let text = serde_json::to_string(&report_watch::json(&emit))?;
            if io.out_is_terminal {
                writeln!(io.out, "{}", crate::render::term::json_for_terminal(&text))?;
            } else {
                writeln!(io.out, "{text}")?;
            }
        } else {
            match &emit {
                Emit::Watching(roots) => {
                    io.err.write_all(report_watch::human_watching(roots, &err_term).as_bytes())?;
                }
                Emit::Catalog(e) => {
                    io.out.write_all(report_watch::human_event(e, &term).as_bytes())?;
                    if args.text
                        && let Some(text) = &e.text
                    {
                        write_exact(io, text)?;
                    }
                }
                Emit::Skill(s) => {
                    io.out.write_all(report_watch::human_skill(s, &term).as_bytes())?;
                    if args.text
                        && let Ok(text) = &s.result
                    {
                        write_exact(io, text)?;
                    }
                }
            }
        }
        io.out.flush()
    };
    engine.run(&mut sink)?;
    Ok(EXIT_OK)
}

/// The configuration files `catalog` reads (present or not): a change to one re-reads the
/// configuration.
fn config_files(report: &Report) -> Vec<String> {
    if report.no_config {
        return Vec::new();
    }
    report.files.iter().map(|f| f.path.clone()).collect()
}

/// A reader that goes away ends the watch even while no event is due: the write end of a pipe
/// reports an error condition once the read end is closed.
#[cfg(unix)]
fn watch_stdout_closed(stop: std::sync::mpsc::Sender<Msg>) {
    use std::os::fd::AsRawFd;
    let fd = io::stdout().as_raw_fd();
    // SAFETY: fstat on a file descriptor the process owns, into a zeroed stat buffer.
    let is_pipe = unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        libc::fstat(fd, &mut st) == 0 && matches!(st.st_mode & libc::S_IFMT, libc::S_IFIFO | libc::S_IFSOCK)
    };
    if !is_pipe {
        return;
    }
    let _ = std::thread::Builder::new().name("stdout-closed".into()).spawn(move || {
        loop {
            let mut pfd = libc::pollfd { fd, events: 0, revents: 0 };
            // SAFETY: one valid pollfd; no events asked, so only POLLERR/POLLHUP wake it.
            let n = unsafe { libc::poll(&mut pfd, 1, -1) };
            if n < 0 {
                if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return;
            }
            if pfd.revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) != 0 {
                let _ = stop.send(Msg::Stop);
                return;
            }
        }
    });
}

#[cfg(not(unix))]
fn watch_stdout_closed(_stop: std::sync::mpsc::Sender<Msg>) {}
