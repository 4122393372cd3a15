//! `dsh-skills lsp`: a Language Server over stdio for skill files being written.
//!
//! Built on `lsp-server` and `lsp-types` (rust-analyzer's scaffold): synchronous, on channels
//! and threads like the rest of the code, no async runtime. [`server`] runs the message loop
//! and the background workers; [`features`] answers from the same code as the commands:
//! diagnostics are `lint`'s ([`buffer`]), hover and lenses use the discovery
//! snapshot and the catalog code, code actions are `lint --fix`'s edits.

pub mod buffer;
pub mod context;
pub mod features;
pub mod front;
pub mod server;
pub mod text;
pub mod transport;
pub mod uri;

use crate::commands::lint::Options;
use crate::engine::discover::Environment;
use crate::engine::snapshot::Settings;

/// What linting needs for one workspace: the discovery settings and the lint options (the
/// configuration file, `--compat`).
pub struct Context {
    pub settings: Settings,
    pub env: Environment,
    pub opts: Options,
    /// What went wrong reading the configuration (shown to the user once; the server goes on
    /// with the defaults for that part).
    pub problems: Vec<String>,
}

impl Context {
    /// The session cwd: the workspace folder, or the process's.
    pub fn start(&self) -> String {
        self.settings.cwd.as_deref().map_or_else(
            || self.env.process_cwd.clone(),
            |c| crate::engine::platform::resolve(&self.env.process_cwd, c),
        )
    }
}

/// Builds the [`Context`] for a workspace folder (`None`: the editor opened no folder). Called
/// again on every discovery refresh, so edits to the lint configuration file apply.
pub type ContextFactory = Box<dyn Fn(Option<&str>) -> anyhow::Result<Context> + Send + Sync>;

/// Serve the editor on stdin and stdout until it exits; bad input is logged on stderr.
pub fn run_stdio(factory: ContextFactory) -> anyhow::Result<u8> {
    use std::io::Write;
    let (connection, io_threads) =
        transport::connect(std::io::BufReader::with_capacity(64 << 10, std::io::stdin()), std::io::stdout(), |line| {
            let _ = writeln!(std::io::stderr(), "{line}");
        });
    let code = server::serve(connection, factory)?;
    // Everything answered is written before the process exits.
    io_threads.join();
    Ok(code)
}
