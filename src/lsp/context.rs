//! The settings of `dsh-skills lsp`: the ones every other command uses, per workspace folder.

use super::Context;
use crate::cli::{GlobalArgs, LspArgs};
use crate::commands::lint::Options;
use crate::engine::discover::Environment;
use crate::lint::Compat;
use crate::lint::config::Config;

/// Serve the editor on stdin/stdout. Called by `main` before it takes stdout for itself.
pub fn run(g: &GlobalArgs, args: &LspArgs, env: &Environment) -> anyhow::Result<u8> {
    // Inside the server a bug in one request must not end the editor's session: the failure is
    // logged, caught, and answered as an error (see `lsp::server`).
    std::panic::set_hook(Box::new(|info| {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "dsh-skills lsp: internal failure: {info}");
    }));
    let g = g.clone();
    let env = env.clone();
    let explicit_config = args.config.clone();
    let flags: Vec<Compat> = args.compat.iter().map(|&c| Compat::from(c)).collect();
    let factory = move |root: Option<&str>| -> anyhow::Result<Context> {
        let mut g = g.clone();
        // The workspace folder is the session cwd, unless the command line names one.
        if g.cwd.is_none() && !g.no_cwd {
            g.cwd = root.map(str::to_string);
        }
        let var = |k: &str| std::env::var(k).ok();
        let mut problems = Vec::new();
        // A broken configuration file must not end the editor's session: the server says so
        // and goes on with the defaults for that part.
        let mut settings = match crate::engine::config::resolve(&g.flags(), &env, &var) {
            Ok(r) if !g.no_config => {
                problems.extend(r.report.problems.iter().cloned());
                r.settings
            }
            Ok(_) => crate::commands::settings_from_args(&g, &env),
            Err(e) => {
                problems.push(e.0);
                crate::commands::settings_from_args(&g, &env)
            }
        };
        settings.scan.keep_content = false;
        let start = settings
            .cwd
            .as_deref()
            .map_or_else(|| env.process_cwd.clone(), |c| crate::engine::platform::resolve(&env.process_cwd, c));
        let config = match Config::find(&start, explicit_config.as_deref(), &env.process_cwd) {
            Ok(c) => c,
            Err(e) => {
                problems.push(e.0);
                Config::default()
            }
        };
        if let Some(file) = config.baseline_path(&start) {
            let shown = crate::lint::term::escape(&file).into_owned();
            match std::fs::read_to_string(&file) {
                Err(e) => problems.push(format!(
                    "cannot read the baseline {shown} named in the lint configuration: {e}; every finding is shown"
                )),
                Ok(text) => {
                    if let Err(e) = crate::lint::baseline::Baseline::parse(&text) {
                        problems.push(format!(
                            "{shown} is not a dsh-skills lint baseline: {}; every finding is shown",
                            crate::lint::term::escape(&e)
                        ));
                    }
                }
            }
        }
        let mut compat = flags.clone();
        for c in &config.compat {
            if !compat.contains(c) {
                compat.push(*c);
            }
        }
        Ok(Context { settings, env: env.clone(), opts: Options { config, compat }, problems })
    };
    super::run_stdio(Box::new(factory))
}
