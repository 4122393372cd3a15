//! GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`.

use crate::lint::term;
use crate::lint::{Report, Severity};

/// Escape workflow-command data (the message).
fn data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escape a workflow-command property value.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn render(report: &Report) -> String {
    let mut out = String::new();
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
        out.push_str(&format!("::{command} {}::{}\n", props.join(","), data(&message)));
    }
    out.push_str(&super::human::summary(report));
    out.push('\n');
    out
}
