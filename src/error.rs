//! The one error type every layer may raise: a failure that ends the run with exit status 2
//! and a message (a bad flag value, an unreadable configuration file).

/// A failure that ends the run with exit status 2 and a message.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}
