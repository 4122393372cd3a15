//! Hostile input through the editor: the server answers, never panics, never blocks.
