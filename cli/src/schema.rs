//! Turning schema files and the shared flags into a validator.
//!
//! [`build_schema`] is the one place that decides how a file becomes a validator: under the
//! tool-schema boundary rules of [`toolschema::InputSchema`], as an MCP host builds a tool's
//! `inputSchema`.

use crate::input::{InputError, Source};
use crate::report;
use clap::Args;
use serde_json::Value;
use std::path::{Path, PathBuf};
use toolschema::{Error, InputSchema, Options};

/// What [`build_schema`] produces. Callers use it only through [`toolschema::Validate`].
pub type Built = InputSchema;

/// Builds one schema the way a tool's input schema is built.
pub fn build_schema(schema: &Value, options: &Options) -> Result<Built, Error> {
    InputSchema::new(schema, options)
}

/// Flags every command that builds a schema accepts.
#[derive(Args, Debug, Clone)]
pub struct SchemaArgs {
    /// Make URI resolve to the JSON document in FILE (repeatable). The split is at the last
    /// `=`, so URIs with query strings work.
    #[arg(long = "registry", value_name = "URI=FILE", value_parser = parse_registry_arg)]
    pub registry: Vec<(String, PathBuf)>,

    /// Register every `*.json` file under DIR (recursively) under its top-level `$id`.
    /// Files without a string `$id` are skipped with a note.
    #[arg(long = "registry-dir", value_name = "DIR")]
    pub registry_dir: Vec<PathBuf>,

    /// Check `format` (by default it is only an annotation).
    #[arg(long)]
    pub format_assertion: bool,

    /// Check `contentEncoding`, `contentMediaType` and `contentSchema` (by default they are
    /// only annotations).
    #[arg(long)]
    pub content_assertion: bool,
}

fn parse_registry_arg(arg: &str) -> Result<(String, PathBuf), String> {
    match arg.rsplit_once('=') {
        Some((uri, file)) if !uri.is_empty() && !file.is_empty() => {
            Ok((uri.to_string(), PathBuf::from(file)))
        }
        _ => Err(format!("expected URI=FILE, got `{arg}`")),
    }
}

impl SchemaArgs {
    /// Reads every registry document and returns the options to build with.
    pub fn options(&self) -> Result<Options, InputError> {
        let mut options = Options::new()
            .format_assertion(self.format_assertion)
            .content_assertion(self.content_assertion);
        for dir in &self.registry_dir {
            for (uri, document) in registry_dir(dir)? {
                options = options.registry_document(uri, document);
            }
        }
        // Explicit entries come last so that they win over a directory's document of the same URI.
        for (uri, file) in &self.registry {
            let document = Source::File(file.clone()).read_json()?;
            options = options.registry_document(uri.clone(), document);
        }
        Ok(options)
    }
}

/// The `(uri, document)` pairs of a registry directory, in path order so runs are repeatable.
fn registry_dir(dir: &Path) -> Result<Vec<(String, Value)>, InputError> {
    let mut files = Vec::new();
    collect_json_files(dir, &mut files)?;
    files.sort();
    let mut seen: Vec<(String, PathBuf)> = Vec::new();
    let mut out = Vec::new();
    for file in files {
        let document = Source::File(file.clone()).read_json()?;
        let Some(id) = document.get("$id").and_then(Value::as_str) else {
            report::note(&format!(
                "{}: no top-level \"$id\"; not registered",
                file.display()
            ));
            continue;
        };
        if let Some((_, first)) = seen.iter().find(|(u, _)| u == id) {
            return Err(InputError::new(format!(
                "{} and {} both have \"$id\": \"{id}\"",
                first.display(),
                file.display()
            )));
        }
        seen.push((id.to_string(), file));
        out.push((id.to_string(), document));
    }
    Ok(out)
}

fn collect_json_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), InputError> {
    let source = Source::File(dir.to_path_buf());
    let entries = std::fs::read_dir(dir).map_err(|e| InputError::io(&source, &e))?;
    for entry in entries {
        let entry = entry.map_err(|e| InputError::io(&source, &e))?;
        // `file_type` does not follow symbolic links, so a link back up the tree cannot loop.
        let kind = entry.file_type().map_err(|e| InputError::io(&source, &e))?;
        let path = entry.path();
        if kind.is_dir() {
            collect_json_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    Ok(())
}
