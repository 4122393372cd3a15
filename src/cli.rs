//! The command-line definition (clap). Every clap type lives here so that completions, help
//! snapshots and tests can all call [`Cli::command`].

use clap::{Args, Parser, Subcommand, ValueEnum};

/// The harness release whose behaviour dsh-skills reproduces.
pub use crate::engine::HARNESS_VERSION;
pub const HARNESS_COMMIT: &str = "611615650f";

const VERSION: &str =
    concat!(env!("CARGO_PKG_VERSION"), " (reproduces DeepSeek Harness 0.1.0-rc.8, commit 611615650f)");

const ABOUT: &str = "See exactly which skills the DeepSeek Harness discovers, and what its model is shown";

const LONG_ABOUT: &str = "\
See exactly which skills the DeepSeek Harness discovers for a working directory, and exactly
what its model is shown: the ranked skill roots, the winning copy of each skill, shadowed
duplicates, every file the harness skips and why, the catalog text and each skill's
<skill_content> block, byte for byte.";

const AFTER_HELP: &str = "\
Examples:
  dsh-skills list                      ranked roots, winners, shadowed copies, problems
  dsh-skills catalog --cwd ~/project   the exact catalog the model sees there
  dsh-skills show my-skill --rendered  what the `skill` tool returns for my-skill

Exit status: 0 done; 1 discovery incomplete (the harness would publish no catalog);
2 usage error or internal failure.";

#[derive(Debug, Parser)]
#[command(name = "dsh-skills", version = VERSION, about = ABOUT, long_about = LONG_ABOUT, after_help = AFTER_HELP)]
#[command(propagate_version = true, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every subcommand accepts, before or after its name. They mirror the harness's own
/// configuration keys; each value means exactly what it means to the harness.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// The session working directory to discover for (default: the current directory).
    ///
    /// Resolved lexically, like Node's path.resolve; it need not exist.
    #[arg(long, global = true, value_name = "DIR", help_heading = "Discovery")]
    pub cwd: Option<String>,

    /// Discover as the harness does with no session cwd: no project roots.
    #[arg(long, global = true, conflicts_with = "cwd", help_heading = "Discovery", hide_short_help = true)]
    pub no_cwd: bool,

    /// The harness home (`dshHome`); its `skills/` is the user-dsh root.
    /// Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded.
    #[arg(long, global = true, value_name = "DIR", help_heading = "Discovery", hide_short_help = true)]
    pub dsh_home: Option<String>,

    /// The agents home (`agentsHome`); its `skills/` is the user-agents root.
    /// Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion.
    #[arg(long, global = true, value_name = "DIR", help_heading = "Discovery", hide_short_help = true)]
    pub agents_home: Option<String>,

    /// A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters.
    /// Relative paths resolve against the current directory.
    #[arg(long = "custom-dir", global = true, value_name = "DIR", help_heading = "Discovery", hide_short_help = true)]
    pub custom_dirs: Vec<String>,

    /// Treat DIR as a skills root: scanned as a custom dir (`customSkillDirs`, after those of
    /// --custom-dir), so `list`, `catalog` and `watch` show a collection as if installed, and
    /// `lint` reads it as a root (flat files, nesting, in-root order, shadowing). Repeatable.
    #[arg(long = "root", global = true, value_name = "DIR", help_heading = "Discovery")]
    pub roots: Vec<String>,

    /// The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way.
    /// Default: $DSH_BUNDLED_SKILL_DIR while default roots are on.
    #[arg(long, global = true, value_name = "DIR", help_heading = "Discovery", hide_short_help = true)]
    pub bundled_dir: Option<String>,

    /// Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`).
    #[arg(long, global = true, help_heading = "Discovery", hide_short_help = true)]
    pub no_default_roots: bool,

    /// Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`,
    /// default 500, at least 3).
    #[arg(long, global = true, value_name = "N", value_parser = parse_max_length, help_heading = "Discovery", hide_short_help = true)]
    pub description_max_length: Option<usize>,

    /// Ignore the harness's configuration files; only flags and environment count.
    #[arg(long, global = true, help_heading = "Discovery", hide_short_help = true)]
    pub no_config: bool,

    /// The dsh profile to read: `web` (`dsh web`, default) or `headless`.
    #[arg(long, global = true, value_enum, help_heading = "Configuration", hide_short_help = true)]
    pub profile: Option<Profile>,

    /// The agent preset a web session mounts (default: `agent-presets.default` in
    /// $DSH_HOME/settings.yaml, else `standard`).
    #[arg(long, global = true, value_name = "ID", help_heading = "Configuration", hide_short_help = true)]
    pub preset: Option<String>,

    /// An extra patch layer, applied after the profile and home patch files, as `dsh --patch`.
    /// Repeatable; order matters.
    #[arg(long = "patch", global = true, value_name = "FILE", help_heading = "Configuration", hide_short_help = true)]
    pub patches: Vec<String>,

    /// The directory dsh is launched from; relative paths in configuration files resolve
    /// against it (default: the current directory).
    #[arg(long, global = true, value_name = "DIR", help_heading = "Configuration", hide_short_help = true)]
    pub launch_dir: Option<String>,

    /// Collation locale for in-root entry order, read as a value of LC_ALL would be
    /// (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL,
    /// LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX.
    #[arg(long, global = true, value_name = "LOCALE", help_heading = "Discovery", hide_short_help = true)]
    pub locale: Option<String>,

    /// Output format (`lint` also takes github and sarif).
    #[arg(long, global = true, value_enum, default_value_t = Format::Human, help_heading = "Output")]
    pub format: Format,

    /// When to use colour.
    ///
    /// `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, help_heading = "Output")]
    pub color: ColorChoice,
}

fn parse_max_length(value: &str) -> Result<usize, String> {
    let n: i128 = value
        .trim()
        .parse()
        .map_err(|_| format!("`{value}` is not an integer; the harness requires an integer of at least 3"))?;
    if n < 3 {
        return Err(format!(
            "{n} is below 3; the harness rejects it (tool-skill: catalogDescriptionMaxLength must be an integer greater than or equal to 3)"
        ));
    }
    usize::try_from(n).map_err(|_| format!("{n} is too large"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
    Github,
    Sarif,
    /// Markdown (`diff`: a pull-request comment).
    Markdown,
}

/// A shipped `dsh` profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Profile {
    Web,
    Headless,
}

impl Profile {
    pub fn name(self) -> &'static str {
        crate::engine::config::Profile::from(self).name()
    }
}

impl From<Profile> for crate::engine::config::Profile {
    fn from(p: Profile) -> Self {
        match p {
            Profile::Web => crate::engine::config::Profile::Web,
            Profile::Headless => crate::engine::config::Profile::Headless,
        }
    }
}

impl GlobalArgs {
    /// The flags the engine's configuration reader takes.
    pub fn flags(&self) -> crate::engine::config::Flags {
        crate::engine::config::Flags {
            cwd: self.cwd.clone(),
            no_cwd: self.no_cwd,
            dsh_home: self.dsh_home.clone(),
            agents_home: self.agents_home.clone(),
            custom_dirs: self.custom_dirs.clone(),
            roots: self.roots.clone(),
            bundled_dir: self.bundled_dir.clone(),
            no_default_roots: self.no_default_roots,
            description_max_length: self.description_max_length,
            no_config: self.no_config,
            profile: self.profile.map(Into::into),
            preset: self.preset.clone(),
            patches: self.patches.clone(),
            launch_dir: self.launch_dir.clone(),
            locale: self.locale.clone(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The ranked root scan, the winning skills, shadowed duplicates and every warning.
    #[command(after_help = SHORT_AFTER_HELP, after_long_help = LIST_EXAMPLES)]
    List(ListArgs),

    /// One skill, and the exact <skill_content> block the model receives for it.
    #[command(after_help = SHORT_AFTER_HELP, after_long_help = SHOW_EXAMPLES)]
    Show(ShowArgs),

    /// The exact catalog text the model sees for the working directory.
    #[command(after_help = SHORT_AFTER_HELP, after_long_help = CATALOG_EXAMPLES)]
    Catalog(CatalogArgs),

    /// Why this copy of a skill wins, why others are shadowed or skipped, and where it ends up.
    #[command(after_help = SHORT_AFTER_HELP, after_long_help = EXPLAIN_EXAMPLES)]
    Explain(ExplainArgs),

    /// Follow a running session: what the model would be shown after each edit, live.
    #[command(after_help = SHORT_AFTER_HELP, after_long_help = WATCH_EXAMPLES)]
    Watch(WatchArgs),

    /// Lint skill files: every problem, with what the harness will do about it.
    #[command(after_help = SHORT_AFTER_HELP, after_long_help = LINT_AFTER_HELP)]
    Lint(LintArgs),

    /// What the model is shown at two states of a git repository, compared: catalog, content,
    /// cut, hidden, shadowed, unscanned and unloadable skills, size, lint findings.
    #[command(after_help = SHORT_AFTER_HELP, after_long_help = DIFF_AFTER_HELP)]
    Diff(DiffArgs),

    /// Write a new skill that loads (the project's .agents/skills by default).
    #[command(after_help = SHORT_AFTER_HELP, after_long_help = NEW_EXAMPLES)]
    New(NewArgs),

    /// Run the language server (LSP over stdin/stdout) for skill files open in an editor.
    #[command(after_long_help = LSP_AFTER_HELP)]
    Lsp(LspArgs),

    /// Print a shell completion script (subcommands, options, skill names, rule ids).
    #[command(after_long_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),

    /// Print the JSON Schema of a command's `--format json` output.
    #[command(after_long_help = SCHEMA_EXAMPLES)]
    Schema(SchemaArgs),
}

const DIFF_AFTER_HELP: &str = "\
Both states are read from git objects (a commit's tree, or the index with --staged) without a
checkout and without writing anything; homes, configuration and the working directory are the
same for both. The working tree is read from disk.

Examples:
  dsh-skills diff                              merge base with the default branch → working tree
  dsh-skills diff main                         main → working tree
  dsh-skills diff v1.0 HEAD                    two revisions
  dsh-skills diff --staged                     HEAD → the index (what the next commit holds)
  dsh-skills diff origin/main HEAD --format markdown > comment.md
  dsh-skills diff --fail-on cut,hidden,unloadable,new-errors

Exit status: 0 done; 1 a --fail-on kind of change was found; 2 usage error (not a repository,
an unknown revision) or internal failure.";

const SHORT_AFTER_HELP: &str = "More options (discovery, configuration) and examples: --help";

const LIST_EXAMPLES: &str = "\
Examples:
  dsh-skills list                                   roots, winners, shadowed copies, problems
  dsh-skills list --verbose                         with the harness's log line behind each problem
  dsh-skills list --format json | jq -r '.skills[].name'

Exit status: 0 done; 1 discovery incomplete (a provider failed; the harness would publish no
catalog); 2 usage error or internal failure.";

const SHOW_EXAMPLES: &str = "\
Examples:
  dsh-skills show pdf-tools                    the winning copy, its body and where it comes from
  dsh-skills show pdf-tools --rendered         exactly what the `skill` tool returns to the model
  dsh-skills show pdf-tools --format json      the skill definition, for scripts

Exit status: 0 done; 2 no skill of that name (the message lists close names), usage error or
internal failure.";

const CATALOG_EXAMPLES: &str = "\
Examples:
  dsh-skills catalog                           the catalog the model sees here
  dsh-skills catalog --cwd ~/project --format json
  dsh-skills catalog --digest                  the harness's catalog digest
  dsh-skills catalog --update                  the replacement a running session receives

Exit status: 0 done; 1 discovery incomplete (the harness would publish no catalog); 2 usage
error or internal failure.";

const WATCH_EXAMPLES: &str = "\
Watches the skill roots the harness scans (and the configuration files `catalog` reads) and
prints the session's first catalog, then one event for each change that settles: what a
running session would inject at its next step and why (a replacement with the entries that
changed, the empty replacement, nothing, or `incomplete` when discovery failed and the model
keeps the previous catalog). Ctrl-C stops it.

Examples:
  dsh-skills watch                             one line per event
  dsh-skills watch --text                      with each injected message in full
  dsh-skills watch --skill pdf-tools --text    also the new <skill_content> after a body edit
  dsh-skills watch --format json | jq -c .     one JSON object per event (schema: `dsh-skills schema watch`)

Exit status: 0 stopped (Ctrl-C, or stdout closed); 2 usage error or internal failure.";

const EXPLAIN_EXAMPLES: &str = "\
Examples:
  dsh-skills explain pdf-tools                 why this copy wins and where it ends up
  dsh-skills explain pdf-tools --format json

Exit status: 0 when a skill of that name is available, 1 when none is, 2 usage error.";

const COMPLETIONS_EXAMPLES: &str = "\
The scripts call dsh-skills back to complete skill names (for the discovery options on the
command line) and lint rule ids, so `dsh-skills` must be on PATH.

Examples:
  source <(dsh-skills completions bash)        in ~/.bashrc
  dsh-skills completions zsh > ~/.zfunc/_dsh-skills
  dsh-skills completions fish > ~/.config/fish/completions/dsh-skills.fish";

const NEW_EXAMPLES: &str = "\
Writes NAME/SKILL.md (or NAME.md with --flat) into a root the harness scans, from a template
whose description puts the trigger first. The name is checked against the harness's rule;
nothing is overwritten; what the new skill would shadow, or be shadowed by, is said before
anything is written. Only the file (and the folders it needs) is written, atomically.

Examples:
  dsh-skills new pdf-tools                     .agents/skills/pdf-tools/SKILL.md in the project
  dsh-skills new pdf-tools --user              ~/.agents/skills/pdf-tools/SKILL.md
  dsh-skills new pdf-tools --flat              .agents/skills/pdf-tools.md
  dsh-skills --root skills new pdf-tools --dir skills   skills/pdf-tools/SKILL.md in a collection

Exit status: 0 written; 2 invalid name, the destination exists or is not scanned, usage error.";

const SCHEMA_EXAMPLES: &str = "\
Every JSON document carries `schemaVersion` and `tool`; the schemas (JSON Schema 2020-12) are
also committed in the repository's schemas/ folder.

Examples:
  dsh-skills schema list > list.schema.json
  dsh-skills schema lint | jq '.properties.findings'";

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The skill name to explain (need not exist).
    pub name: String,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to generate completions for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The JSON document: a command's `--format json` output (`rule` is `lint --explain <RULE>`).
    #[arg(value_enum)]
    pub document: crate::render::schema::Document,
}

const LINT_AFTER_HELP: &str = "\
Examples:
  dsh-skills lint                          every skill the harness scans for this directory
  dsh-skills lint .agents/skills .dsh/skills   the project's skill roots, read as roots
  dsh-skills lint --format github --deny warnings
  dsh-skills lint --min-severity warning   errors and warnings only
  dsh-skills lint --explain yaml-syntax
  dsh-skills lint --write-baseline .dsh-skills-baseline.json   adopt: record today's findings
  dsh-skills lint --baseline .dsh-skills-baseline.json         then fail on new ones only

Configuration: .dsh-skills-lint.yaml, found by walking up from the cwd.
Rules: `dsh-skills lint --explain all` lists them; suppress one in the frontmatter with
`# dsh-skills-lint: disable <rule>`.
Exit status: 0 no finding at or above the failing level; 1 findings at or above it;
2 usage error, invalid configuration or internal failure.";

/// `dsh-skills lint`.
#[derive(Debug, Args)]
pub struct LintArgs {
    /// Skill folders, SKILL.md or flat .md files, or directories of skills (read as a root).
    /// Default: every root the harness scans for the cwd.
    pub paths: Vec<String>,

    /// Explain a rule (its id, default level, why it matters, how to fix it) and exit;
    /// `all` lists every rule.
    #[arg(long, value_name = "RULE")]
    pub explain: Option<String>,

    /// Exit 1 when a finding reaches this level (default: error).
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub fail_on: Option<FailOn>,

    /// Report only findings at this level or above, in every format (default: info, all).
    /// Findings below it are counted as hidden and cannot fail the run.
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub min_severity: Option<FailOn>,

    /// Show every finding in full (by default a rule found more than 8 times is one block: its
    /// first finding, then the other places, one line each).
    #[arg(short, long)]
    pub verbose: bool,

    /// `--deny warnings`: exit 1 on warnings too (same as --fail-on warning).
    #[arg(long, value_enum, value_name = "WHAT")]
    pub deny: Vec<Deny>,

    /// Also check portability with another agent. Repeatable.
    #[arg(long, value_enum, value_name = "AGENT")]
    pub compat: Vec<CompatTarget>,

    /// Apply the safe fixes (legacy key renames, quoting a value that breaks YAML, stripping a
    /// BOM, ...) in place, then report what is left.
    #[arg(long)]
    pub fix: bool,

    /// Show the safe fixes as a unified diff (without --fix nothing is written).
    #[arg(long)]
    pub diff: bool,

    /// Read this lint configuration file instead of looking for .dsh-skills-lint.yaml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<String>,

    /// Leave out the findings this baseline file knows (same rule, path and offending text):
    /// only new findings are shown and fail; fixed and stale entries are named.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<String>,

    /// Record every finding of this run in a baseline file (replacing it), then report as
    /// --baseline FILE would: nothing left to show, exit 0.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<String>,
}

#[derive(Debug, Args)]
pub struct LspArgs {
    /// Also check portability with another agent (diagnostics and completion). Repeatable.
    #[arg(long, value_enum, value_name = "AGENT")]
    pub compat: Vec<CompatTarget>,

    /// Read this lint configuration file instead of looking for .dsh-skills-lint.yaml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<String>,

    /// Talk over stdin and stdout (the only transport; accepted because editors pass it).
    #[arg(long)]
    pub stdio: bool,
}

const LSP_AFTER_HELP: &str = "\
The server reads LSP messages on stdin and writes them on stdout; editors start it. The
workspace folder the editor opens is the session working directory (--cwd overrides it).
Diagnostics are `dsh-skills lint`'s, on the unsaved buffer, with the same configuration file
and suppressions; hover shows the exact catalog line and which copy of the skill wins.

Examples:
  dsh-skills lsp                              what an editor runs (see the README for setups)
  dsh-skills lsp --compat agentskills         also the Agent Skills portability rules

Exit status: 0 after the editor's shutdown and exit; 1 when the editor exits without a
shutdown; 2 usage error or internal failure.";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    Warnings,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompatTarget {
    /// The Agent Skills specification and its validators.
    Agentskills,
    /// Claude Code and claude.ai uploads.
    ClaudeCode,
    /// OpenAI Codex.
    Codex,
}

impl From<CompatTarget> for crate::lint::Compat {
    fn from(c: CompatTarget) -> Self {
        match c {
            CompatTarget::Agentskills => crate::lint::Compat::Agentskills,
            CompatTarget::ClaudeCode => crate::lint::Compat::ClaudeCode,
            CompatTarget::Codex => crate::lint::Compat::Codex,
        }
    }
}

/// `dsh-skills new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The skill name: lowercase letters and digits in words joined by single hyphens.
    pub name: String,

    /// Write into DIR, a skills root the harness scans (with --root DIR, any folder).
    #[arg(long, value_name = "DIR", conflicts_with = "user")]
    pub dir: Option<String>,

    /// Write into the user-agents root (`$DSH_AGENTS_HOME/skills`, else ~/.agents/skills).
    #[arg(long)]
    pub user: bool,

    /// Write a flat skill, NAME.md in the root, instead of NAME/SKILL.md.
    #[arg(long)]
    pub flat: bool,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Also print the harness's exact log line behind every problem.
    #[arg(short, long)]
    pub verbose: bool,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The skill name (the frontmatter `name`, not the folder name).
    pub name: String,

    /// Print exactly what the `skill` tool returns to the model, and nothing else.
    #[arg(long)]
    pub rendered: bool,
}

/// `dsh-skills watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Print each injected message in full, byte for byte (the texts `catalog` and
    /// `catalog --update` print), after its event line.
    #[arg(long)]
    pub text: bool,

    /// Also report when the `skill` tool's result for NAME changes (a body edit never changes
    /// the catalog); with --text, the new <skill_content> block.
    #[arg(long, value_name = "NAME")]
    pub skill: Option<String>,

    /// How long a changed file must stay unchanged before it counts (`watchStabilityThresholdMs`).
    #[arg(long, value_name = "MS", default_value_t = 200, value_parser = parse_positive_ms)]
    pub stability_threshold: u64,

    /// Poll the file system instead of using its change notifications (`watchUsePolling`):
    /// for network and container file systems that send none.
    #[arg(long)]
    pub poll: bool,

    /// How often to poll: with --poll, and for roots that do not exist yet, which are observed
    /// from their nearest existing folder (`watchPollIntervalMs`).
    #[arg(long, value_name = "MS", default_value_t = 100, value_parser = parse_positive_ms)]
    pub poll_interval: u64,
}

fn parse_positive_ms(value: &str) -> Result<u64, String> {
    match value.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("`{value}` is not a positive integer number of milliseconds (the harness requires one)")),
    }
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The base revision [default: the merge base of HEAD with the default branch; HEAD with
    /// --staged].
    #[arg(value_name = "BASE")]
    pub base: Option<String>,

    /// The head revision [default: the working tree; the index with --staged].
    #[arg(value_name = "HEAD", conflicts_with = "staged")]
    pub head: Option<String>,

    /// Compare with the index (what is staged for the next commit).
    #[arg(long)]
    pub staged: bool,

    /// Exit 1 when one of these kinds of change is found (comma-separated): catalog, cut,
    /// hidden, shadowed, unscanned, unloadable, new-errors, new-warnings.
    #[arg(long, value_name = "KINDS", value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(crate::analysis::diff::FAIL_KINDS))]
    pub fail_on: Vec<String>,
}

#[derive(Debug, Args)]
pub struct CatalogArgs {
    /// Print the replacement wording a session that already had a catalog receives (with no
    /// model-invocable skills: the empty replacement).
    #[arg(long)]
    pub update: bool,

    /// Print only the catalog digest (SHA-256 of the entries, as the harness computes it).
    #[arg(long, conflicts_with = "update")]
    pub digest: bool,

    /// Do not print the statistics (entries, size, cut descriptions) on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The command definition as the binary parses it: [`Cli::command`] plus what derive cannot say
/// per subcommand. clap copies each global option into every subcommand that lacks an option
/// of that id when the command is built; each subcommand here gets its own copy first: one that
/// offers only the `--format` values it accepts, and for `completions` and `schema` hidden
/// copies of the discovery, configuration and output options, which mean nothing to them.
/// Help, completions, man pages and the help snapshots all come from this function.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    let mut cmd = Cli::command();
    let globals: Vec<clap::Arg> = cmd.get_arguments().filter(|a| a.is_global_set()).cloned().collect();
    let format = globals.iter().find(|a| a.get_id() == "format").expect("a global --format").clone();
    let formats = |values: &'static [&'static str]| {
        PossibleValuesParser::new(values.iter().copied())
            .map(|v| <Format as ValueEnum>::from_str(&v, true).expect("a listed format value"))
    };
    for name in ["list", "show", "catalog", "explain", "watch"] {
        let arg = format.clone().value_parser(formats(&["human", "json"])).help("Output format");
        cmd = cmd.mut_subcommand(name, |sub| sub.arg(arg));
    }
    let arg = format.clone().value_parser(formats(&["human"])).help("Output format");
    cmd = cmd.mut_subcommand("new", |sub| sub.arg(arg));
    let arg = format
        .value_parser(formats(&["human", "json", "github", "sarif"]))
        .help("Output format: human (rustc style), json, github (workflow annotations), sarif (2.1.0)");
    cmd = cmd.mut_subcommand("lint", |sub| sub.arg(arg.clone()));
    let arg = arg
        .value_parser(formats(&["human", "json", "markdown", "github"]))
        .help("Output format: human, json, markdown (a pull-request comment), github (workflow annotations)");
    cmd = cmd.mut_subcommand("diff", |sub| sub.arg(arg));
    for name in ["completions", "schema"] {
        cmd = cmd.mut_subcommand(name, |mut sub| {
            for a in &globals {
                sub = sub.arg(a.clone().hide(true));
            }
            sub
        });
    }
    cmd
}
