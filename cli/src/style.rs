//! Colour for people, plain text for pipes.
//!
//! Colour is used only when the stream is a terminal and `NO_COLOR` is unset or empty
//! (<https://no-color.org>), so captured output and files never contain escape codes.

use std::io::IsTerminal;

#[derive(Clone, Copy, Debug)]
pub struct Style {
    colour: bool,
}

impl Style {
    pub fn for_stdout() -> Style {
        Style::detect(std::io::stdout().is_terminal())
    }

    pub fn for_stderr() -> Style {
        Style::detect(std::io::stderr().is_terminal())
    }

    fn detect(terminal: bool) -> Style {
        let no_colour = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            colour: terminal && !no_colour,
        }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub fn good(self, text: &str) -> String {
        self.paint("32", text)
    }

    pub fn bad(self, text: &str) -> String {
        self.paint("31", text)
    }

    pub fn warn(self, text: &str) -> String {
        self.paint("33", text)
    }

    pub fn strong(self, text: &str) -> String {
        self.paint("1", text)
    }

    pub fn faint(self, text: &str) -> String {
        self.paint("2", text)
    }
}
