//! Errors and warnings with npm-yaml-style positions.

/// One error or warning, positioned by byte offsets into the text.
#[derive(Debug, Clone)]
pub(crate) struct Diag {
    /// `YAMLParseError`, `YAMLWarning`, `ReferenceError`, `Error`, `RangeError`, `Warning`
    pub name: &'static str,
    pub message: String,
    /// byte offset of the error start; `None` for errors without position
    pub start: Option<usize>,
    /// byte offset of the error range end (for the caret count)
    pub end: Option<usize>,
}

impl Diag {
    pub fn new(name: &'static str, message: String, start: usize, end: Option<usize>) -> Self {
        Diag { name, message, start: Some(start), end }
    }

    pub fn bare(name: &'static str, message: String) -> Self {
        Diag { name, message, start: None, end: None }
    }
}

#[derive(Debug, Default)]
pub(crate) struct Diags {
    pub errors: Vec<Diag>,
    pub warnings: Vec<Diag>,
}

impl Diags {
    pub fn error(&mut self, d: Diag) {
        self.errors.push(d);
    }
    pub fn warn(&mut self, d: Diag) {
        self.warnings.push(d);
    }
    /// An error npm yaml reports in item order, before the errors already collected here from
    /// `from` on (composed after it in npm yaml, before it here).
    pub fn error_before(&mut self, d: Diag, from: usize) {
        let at = self.errors.iter().position(|e| e.start.is_some_and(|s| s >= from));
        self.errors.insert(at.unwrap_or(self.errors.len()), d);
    }
}
