//! How human output looks on this terminal: colour on or off, the width to fit, and terminal
//! safety (control characters and escape sequences from skill files are shown escaped, never
//! sent raw). `main` decides once; everything human goes through a [`Term`].

use owo_colors::{OwoColorize, Style};
use std::borrow::Cow;

/// Display decisions for human output.
#[derive(Clone, Copy, Debug)]
pub struct Term {
    pub color: bool,
    /// Columns to fit; `None` when piped (no truncation, plain lines).
    pub width: Option<usize>,
}

impl Default for Term {
    /// Plain: no colour, no width limit (what a pipe gets).
    fn default() -> Self {
        Term { color: false, width: None }
    }
}

/// The `--color` choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorMode {
    Auto,
    Always,
    Never,
}

impl Term {
    /// Decide from the flag, the environment (`NO_COLOR`, `CLICOLOR_FORCE`, `CLICOLOR`,
    /// `TERM`, `COLUMNS`) and whether stdout is a terminal.
    pub fn detect(
        mode: ColorMode,
        var: &dyn Fn(&str) -> Option<String>,
        stdout_is_tty: bool,
        tty_width: Option<usize>,
    ) -> Term {
        let set = |k: &str| var(k).filter(|v| !v.is_empty());
        let color = match mode {
            ColorMode::Always => true,
            ColorMode::Never => false,
            ColorMode::Auto => {
                if set("NO_COLOR").is_some() {
                    false
                } else if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
                    true
                } else if set("CLICOLOR").is_some_and(|v| v == "0") {
                    false
                } else {
                    stdout_is_tty && var("TERM").is_none_or(|t| t != "dumb")
                }
            }
        };
        let columns = set("COLUMNS").and_then(|c| c.trim().parse::<usize>().ok()).filter(|&c| c >= 20);
        let width = columns.or(if stdout_is_tty { Some(tty_width.unwrap_or(100)) } else { None });
        Term { color, width }
    }

    /// `text` in `style` when colour is on.
    pub fn paint(&self, text: &str, style: Style) -> String {
        if self.color { text.style(style).to_string() } else { text.to_string() }
    }

    pub fn bold(&self, text: &str) -> String {
        self.paint(text, Style::new().bold())
    }

    pub fn dim(&self, text: &str) -> String {
        self.paint(text, Style::new().dimmed())
    }

    pub fn red(&self, text: &str) -> String {
        self.paint(text, Style::new().red().bold())
    }

    pub fn yellow(&self, text: &str) -> String {
        self.paint(text, Style::new().yellow())
    }

    pub fn green(&self, text: &str) -> String {
        self.paint(text, Style::new().green())
    }

    pub fn cyan(&self, text: &str) -> String {
        self.paint(text, Style::new().cyan())
    }
}

pub use crate::textsafe::{ESCAPED_NOTE, is_unsafe, json_for_terminal, safe, safe_multiline, safe_text};

/// A multi-line message (a harness log line with a YAML error's excerpt and caret) for a
/// terminal: each line escaped, the lines after the first indented by `indent` columns (an
/// empty line stays empty); no final line feed.
pub fn safe_lines(text: &str, indent: usize) -> String {
    let text = text.strip_suffix('\n').unwrap_or(text);
    let mut out = String::with_capacity(text.len() + 16);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&" ".repeat(indent));
            }
        }
        out.push_str(&safe(line));
    }
    out
}

/// Cut `s` to at most `width` display columns (one per char here), ending with `…` when cut.
pub fn fit(s: &str, width: usize) -> Cow<'_, str> {
    let n = s.chars().count();
    if n <= width {
        return Cow::Borrowed(s);
    }
    if width == 0 {
        return Cow::Borrowed("");
    }
    let mut out: String = s.chars().take(width - 1).collect();
    out.push('…');
    Cow::Owned(out)
}

/// Columns `s` takes on screen, not counting SGR colour sequences (`\x1b[…m`).
pub fn visible_width(s: &str) -> usize {
    let mut n = 0;
    let mut in_esc = false;
    for c in s.chars() {
        match (in_esc, c) {
            (false, '\u{1b}') => in_esc = true,
            (true, 'm') => in_esc = false,
            (true, _) => {}
            (false, _) => n += 1,
        }
    }
    n
}

/// The terminal's width in columns, when stdout is one.
pub fn tty_columns() -> Option<usize> {
    #[cfg(unix)]
    {
        // SAFETY: TIOCGWINSZ fills a plain struct; a failing call leaves it zeroed.
        let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
        let rc = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut ws) };
        if rc == 0 && ws.ws_col > 0 {
            return Some(ws.ws_col as usize);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_a_terminal_would_obey() {
        assert_eq!(safe("plain é 😀"), "plain é 😀");
        assert_eq!(safe("a\u{1b}[31mred"), "a\\x1b[31mred");
        assert_eq!(safe("x\ny\tz"), "x\\ny\\tz");
        assert_eq!(safe("\u{9b}31m"), "\\x9b31m");
        assert_eq!(safe("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(safe("\u{7f}"), "\\x7f");
    }

    #[test]
    fn exact_texts_on_a_terminal() {
        assert_eq!(safe_text("a\n\tb"), "a\n\tb");
        assert_eq!(safe_text("x\u{1b}]0;t\u{7}\r\n\u{9b}1m \u{202e}y"), "x\\x1b]0;t\\x07\\r\n\\x9b1m \\u{202e}y");
        assert_eq!(json_for_terminal("{\"a\": \"\u{9b}\u{202e}\\u001b\"}\n"), "{\"a\": \"\\u009b\\u202e\\u001b\"}\n");
        let v: serde_json::Value = serde_json::from_str(&json_for_terminal("\"\u{85}\u{2066}\"")).unwrap();
        assert_eq!(v, "\u{85}\u{2066}");
    }

    #[test]
    fn colour_decisions() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        assert!(!Term::detect(ColorMode::Auto, &env(&[]), false, None).color);
        assert!(Term::detect(ColorMode::Auto, &env(&[]), true, None).color);
        assert!(!Term::detect(ColorMode::Auto, &env(&[("NO_COLOR", "1")]), true, None).color);
        assert!(Term::detect(ColorMode::Auto, &env(&[("CLICOLOR_FORCE", "1")]), false, None).color);
        assert!(!Term::detect(ColorMode::Auto, &env(&[("CLICOLOR", "0")]), true, None).color);
        assert!(!Term::detect(ColorMode::Auto, &env(&[("TERM", "dumb")]), true, None).color);
        assert!(Term::detect(ColorMode::Always, &env(&[("NO_COLOR", "1")]), false, None).color);
        assert!(!Term::detect(ColorMode::Never, &env(&[]), true, None).color);
        assert_eq!(Term::detect(ColorMode::Never, &env(&[("COLUMNS", "80")]), false, None).width, Some(80));
        assert_eq!(Term::detect(ColorMode::Never, &env(&[]), false, None).width, None);
        assert_eq!(Term::detect(ColorMode::Never, &env(&[]), true, Some(120)).width, Some(120));
    }

    #[test]
    fn fitting() {
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("abc", 4), "abc");
    }
}
