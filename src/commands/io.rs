//! Where commands write, and how: the streams `main` hands over, exact texts and JSON made safe
//! for a terminal, the exit statuses of the contract.

use crate::cli::{Format, GlobalArgs};
use crate::error::UsageError;
use crate::render::term::Term;
use std::io::{self, Write};

/// Where a command writes. `main` passes the process's stdout and stderr.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    /// Colour and width for human output on stdout.
    pub term: Term,
    /// Colour for human output on stderr.
    pub err_term: Term,
    /// stdout is a terminal: exact texts and JSON are written escaped ([`write_exact`],
    /// [`write_json`]), so nothing from a skill file can drive the terminal.
    pub out_is_terminal: bool,
}

/// Write an exact text (the catalog, a `<skill_content>` block) and a line feed. Piped or
/// redirected, the bytes are exact; on a terminal, control characters, escape sequences and
/// bidirectional controls are shown escaped, and stderr says so once.
pub fn write_exact(io: &mut Io, text: &str) -> io::Result<()> {
    if io.out_is_terminal {
        let shown = crate::render::term::safe_text(text);
        writeln!(io.out, "{shown}")?;
        if matches!(shown, std::borrow::Cow::Owned(_)) {
            io.out.flush()?;
            writeln!(io.err, "{}", crate::render::term::ESCAPED_NOTE)?;
        }
        Ok(())
    } else {
        writeln!(io.out, "{text}")
    }
}

/// What a command built, left for the process's exit to reclaim instead of freed one allocation
/// at a time: a command runs once per process (`main` is the only caller of
/// [`super::run`]), and freeing the two discoveries and sides of a diff took 5-10 ms after its
/// output was written.
pub fn leave_to_exit<T>(value: T) {
    std::mem::forget(value);
}

/// Exit statuses of the contract.
pub const EXIT_OK: u8 = 0;
pub const EXIT_INCOMPLETE: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

pub fn human_or_json(g: &GlobalArgs, command: &str) -> anyhow::Result<bool> {
    match g.format {
        Format::Human => Ok(false),
        Format::Json => Ok(true),
        other => Err(UsageError(format!(
            "`{command}` prints human or json output; --format {} is for `lint`",
            format!("{other:?}").to_lowercase()
        ))
        .into()),
    }
}

pub fn write_json(io: &mut Io, value: &impl serde::Serialize) -> io::Result<()> {
    if io.out_is_terminal {
        // The same JSON, with the characters a terminal would obey written as `\uXXXX`.
        let text = serde_json::to_string_pretty(value)?;
        return writeln!(io.out, "{}", crate::render::term::json_for_terminal(&text));
    }
    serde_json::to_writer_pretty(&mut *io.out, value)?;
    writeln!(io.out)
}
