//! `toolschema compile`: the Rust a build script would generate for these schemas.

use crate::exit::Status;
use crate::report;
use crate::schema::SchemaArgs;
use std::io::Write;
use std::path::PathBuf;

const AFTER_HELP: &str = "\
Prints (or writes with --out) exactly what `toolschema_compiler::Builder` writes to OUT_DIR
for the same schemas and flags: one struct per schema implementing `toolschema::Validate`,
named in UpperCamelCase after the file name (`search_tool.schema.json` → `SearchToolSchema`).

Exit codes:
  0  the code was generated
  1  a schema does not build (the error names the file, class, message and JSON Pointer)
  2  usage error, unreadable file or malformed JSON

Examples:
  toolschema compile examples/data/search_tool.schema.json
  toolschema compile --tool-schemas --out src/validators.rs tools/*.json";

/// Generate the Rust validators for schema files.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Schema files to compile.
    #[arg(value_name = "SCHEMA", required = true)]
    pub schemas: Vec<PathBuf>,

    /// Write the code to FILE instead of standard output (rewritten only when it changes).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Hold each schema to the tool-schema rules (object root; arguments always an object),
    /// as `Builder::tool_schemas(true)` does.
    #[arg(long)]
    pub tool_schemas: bool,

    #[command(flatten)]
    pub schema: SchemaArgs,
}

/// The struct name a file gets: its name up to the first `.`, as a Rust identifier.
fn schema_name(path: &std::path::Path) -> String {
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_default();
    let stem = file.trim_end_matches(".json");
    let mut name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert_str(0, "schema_");
    }
    name
}

pub fn run(args: &Args) -> std::io::Result<Status> {
    let options = match args.schema.options() {
        Ok(options) => options,
        Err(err) => {
            report::fatal(err.message());
            return Ok(Status::Failed);
        }
    };
    let mut builder = toolschema_compiler::Builder::new()
        .format_assertion(options.is_format_assertion())
        .content_assertion(options.is_content_assertion())
        .tool_schemas(args.tool_schemas);
    for (uri, document) in options.registry() {
        builder = builder.registry_value(uri, document.clone());
    }
    for path in &args.schemas {
        builder = builder.schema(schema_name(path), path);
    }
    let code = match builder.generate() {
        Ok(code) => code,
        Err(err) => {
            let status = match &err {
                toolschema_compiler::CompileError::Schema { .. } => Status::Rejected,
                _ => Status::Failed,
            };
            report::fatal(&err.to_string());
            return Ok(status);
        }
    };
    match &args.out {
        Some(path) => {
            if let Err(err) = toolschema_compiler::write_if_changed(path, &code) {
                report::fatal(&err.to_string());
                return Ok(Status::Failed);
            }
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(code.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(Status::Ok)
}
