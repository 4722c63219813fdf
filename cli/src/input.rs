//! Reading JSON documents from files and standard input, with errors that name the source
//! and the line and column where parsing stopped.

use serde_json::Value;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Where an instance comes from. `-` on the command line means standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    pub fn from_arg(arg: &Path) -> Source {
        if arg.as_os_str() == "-" {
            Source::Stdin
        } else {
            Source::File(arg.to_path_buf())
        }
    }

    /// Opens the source for streaming (JSON Lines), with its length when it has one.
    pub fn open(&self) -> Result<(Box<dyn Read>, Option<u64>), InputError> {
        match self {
            Source::Stdin => Ok((Box::new(std::io::stdin().lock()), None)),
            Source::File(path) => {
                let file = std::fs::File::open(path).map_err(|e| InputError::io(self, &e))?;
                let len = file.metadata().ok().map(|m| m.len());
                Ok((Box::new(file), len))
            }
        }
    }

    pub fn read_bytes(&self) -> Result<Vec<u8>, InputError> {
        match self {
            Source::Stdin => {
                let mut bytes = Vec::new();
                std::io::stdin()
                    .lock()
                    .read_to_end(&mut bytes)
                    .map_err(|e| InputError::io(self, &e))?;
                Ok(bytes)
            }
            Source::File(path) => std::fs::read(path).map_err(|e| InputError::io(self, &e)),
        }
    }

    /// Reads and parses one JSON document.
    pub fn read_json(&self) -> Result<Value, InputError> {
        let bytes = self.read_bytes()?;
        parse(&bytes).map_err(|e| InputError::syntax(self.to_string(), 0, &e))
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Stdin => f.write_str("<stdin>"),
            Source::File(path) => write!(f, "{}", path.display()),
        }
    }
}

pub fn parse(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    serde_json::from_slice(bytes)
}

/// A document that could not be read or parsed; the message is complete and names the source.
#[derive(Debug)]
pub struct InputError {
    message: String,
}

impl InputError {
    pub fn new(message: String) -> InputError {
        InputError { message }
    }

    pub fn io(source: &Source, err: &std::io::Error) -> InputError {
        InputError {
            message: format!("cannot read {source}: {}", describe_io(err)),
        }
    }

    /// `line_offset` shifts serde_json's line numbers for a document that starts further down
    /// a file (a line of JSON Lines), so the reported position is the one in the file.
    pub fn syntax(label: String, line_offset: usize, err: &serde_json::Error) -> InputError {
        let line = err.line() + line_offset;
        let column = err.column();
        let text = err.to_string();
        // serde_json appends the position to its message; it is reported in front instead.
        let suffix = format!(" at line {} column {}", err.line(), column);
        let what = text.strip_suffix(&suffix).unwrap_or(&text);
        // The parser's nesting limit is not a syntax error, and calling it one would send the
        // reader looking for a typo.
        let message = if what == "recursion limit exceeded" {
            format!("{label}:{line}:{column}: JSON nested too deeply to read (over 128 levels)")
        } else {
            format!("{label}:{line}:{column}: malformed JSON: {what}")
        };
        InputError { message }
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The OS error text without the `(os error N)` tail, which means nothing to most readers.
fn describe_io(err: &std::io::Error) -> String {
    let text = err.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The sources named on the command line. Standard input can be read only once, so naming
/// `-` twice is a usage error rather than a silently empty second document.
pub fn sources(args: &[PathBuf]) -> Result<Vec<Source>, InputError> {
    let sources: Vec<Source> = args.iter().map(|a| Source::from_arg(a)).collect();
    if sources.iter().filter(|s| **s == Source::Stdin).count() > 1 {
        return Err(InputError::new(
            "`-` (standard input) may be given only once".to_string(),
        ));
    }
    Ok(sources)
}
