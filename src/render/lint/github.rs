//! GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`.

use crate::lint::term;
use crate::lint::{Report, Severity};
use std::io::{self, Write};

/// Escape workflow-command data (the message).
fn data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escape a workflow-command property value.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn render(report: &Report) -> String {
    let mut out = Vec::new();
    write(report, &mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the renderer writes UTF-8")
}

/// [`render`], written to `out` one finding at a time.
pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for f in &report.findings {
        let command = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut props = vec![format!("file={}", property(&term::escape(&report.display_path(&f.path))))];
        if let Some((start, end)) = super::positions(report, f) {
            props.push(format!("line={}", start.line));
            props.push(format!("col={}", start.column));
            props.push(format!("endLine={}", end.line));
            if end.line == start.line {
                props.push(format!("endColumn={}", end.column));
            }
        }
        props.push(format!("title={}", property(&format!("dsh-skills lint: {}", f.rule))));
        let mut message = format!("{} — {}", term::escape(&f.message), term::escape(&f.harness));
        for h in &f.help {
            message.push_str(&format!("\nhelp: {}", term::escape(h)));
        }
        writeln!(out, "::{command} {}::{}", props.join(","), data(&message))?;
    }
    super::human::baseline_lines(report, out)?;
    writeln!(out, "{}", super::human::summary(report))
}
