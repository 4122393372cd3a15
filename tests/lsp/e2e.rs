//! Real clients: pytest-lsp and Neovim headless.
