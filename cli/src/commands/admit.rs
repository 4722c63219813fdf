//! `toolschema admit`: what an MCP host's admission would make of a `tools/list` capture.

use crate::exit::Status;
use crate::input::Source;
use crate::report;
use crate::schema::SchemaArgs;
use crate::style::Style;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use toolschema::catalog::{
    AdmissionError, AdmissionMode, AdmitOptions, Authority, ToolDescriptor, ToolDiagnostic,
    admit_batch,
};

const AFTER_HELP: &str = "\
Reads a `tools/list` capture (a {\"tools\": [...]} response or a bare array of
{name, description, inputSchema}) and admits it as an MCP host would. A capture carries no
revision or backend, so each tool's revision is a content hash of its entry
(`fnv1a64:<hex>` of its compact JSON) and its backend names the capture file.

Strict mode (the default) refuses the whole batch at any tool error. Quarantine mode omits
only tools whose schema asks for something unsupported (UnsupportedCapability, such as a
draft-07 `$schema`); every other error still refuses the batch. To show every tool, a tool
that refuses the batch is reported as fatal and the rest is admitted without it.

Exit codes:
  0  the catalog is admitted (in quarantine mode, possibly without some tools)
  1  the catalog as given is refused
  2  usage error, unreadable file or malformed JSON

Examples:
  toolschema admit examples/admit-catalog/catalog.json --mode quarantine
  toolschema admit capture.json --mode quarantine --output json";

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Strict,
    Quarantine,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// A table of accepted and rejected tools.
    Text,
    /// The provider tools a model would be shown (`tools/list` JSON).
    Json,
}

/// Admit a captured tool catalog and show what a model would be shown.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The capture: `{"tools": [...]}` or a bare array.
    #[arg(value_name = "CATALOG")]
    pub catalog: PathBuf,

    /// Admission mode.
    #[arg(long, value_enum, default_value_t = Mode::Strict)]
    pub mode: Mode,

    /// What to print.
    #[arg(long, value_enum, default_value_t = Output::Text)]
    pub output: Output,

    #[command(flatten)]
    pub schema: SchemaArgs,
}

/// FNV-1a, 64 bits: stable across platforms and releases, which a revision must be.
fn content_hash(entry: &Value) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in entry.to_string().bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("fnv1a64:{hash:016x}")
}

fn descriptors(document: &Value, backend: &str) -> Result<Vec<ToolDescriptor>, String> {
    let entries = match document {
        Value::Array(entries) => entries,
        Value::Object(map) => match map.get("tools") {
            Some(Value::Array(entries)) => entries,
            _ => return Err("expected {\"tools\": [...]} or an array of tools".into()),
        },
        _ => return Err("expected {\"tools\": [...]} or an array of tools".into()),
    };
    entries
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let name = entry
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("tool #{i} has no string `name`"))?;
            let schema = entry
                .get("inputSchema")
                .cloned()
                .ok_or_else(|| format!("tool {name:?} has no `inputSchema`"))?;
            let mut tool = ToolDescriptor::new(name, content_hash(entry), schema).backend(backend);
            if let Some(description) = entry.get("description").and_then(Value::as_str) {
                tool = tool.description(description);
            }
            Ok(tool)
        })
        .collect()
}

pub fn run(args: &Args) -> std::io::Result<Status> {
    let source = Source::from_arg(&args.catalog);
    let document = match source.read_json() {
        Ok(document) => document,
        Err(err) => {
            report::fatal(err.message());
            return Ok(Status::Failed);
        }
    };
    let backend = format!("capture:{source}");
    let tools = match descriptors(&document, &backend) {
        Ok(tools) => tools,
        Err(message) => {
            report::fatal(&format!("{source}: {message}"));
            return Ok(Status::Failed);
        }
    };
    let mode = match args.mode {
        Mode::Strict => AdmissionMode::Strict,
        Mode::Quarantine => AdmissionMode::Quarantine,
    };
    let schema_options = match args.schema.options() {
        Ok(options) => options,
        Err(err) => {
            report::fatal(err.message());
            return Ok(Status::Failed);
        }
    };
    let options = AdmitOptions::new()
        .mode(mode)
        .schema_options(schema_options);
    let total = tools.len();
    let mut remaining = tools;
    let mut fatal: Vec<ToolDiagnostic> = Vec::new();
    let bundle = loop {
        match admit_batch(
            remaining.clone(),
            Authority::new("toolschema-cli", "admit"),
            &options,
        ) {
            Ok(bundle) => break bundle,
            Err(AdmissionError::Tool(diagnostic)) => {
                remaining.remove(diagnostic.index());
                fatal.push(diagnostic);
            }
            Err(AdmissionError::Authority(error)) => {
                report::fatal(&format!("authority refused: {error}"));
                return Ok(Status::Failed);
            }
            Err(error) => {
                report::fatal(&error.to_string());
                return Ok(Status::Failed);
            }
        }
    };
    let mut out = std::io::stdout().lock();
    if args.output == Output::Json {
        if fatal.is_empty() {
            writeln!(out, "{}", bundle.provider_tools().to_json())?;
        } else {
            out.flush()?;
            report::fatal("the catalog as given is refused; run without --output json to see why");
        }
        return Ok(if fatal.is_empty() {
            Status::Ok
        } else {
            Status::Rejected
        });
    }
    let style = Style::for_stdout();
    writeln!(out, "{source}: {total} tools")?;
    writeln!(out, "accepted ({}):", bundle.accepted().len())?;
    for name in bundle.accepted() {
        writeln!(out, "  {}  {name}", style.good("ok"))?;
    }
    if !bundle.rejected().is_empty() {
        writeln!(out, "quarantined ({}):", bundle.rejected().len())?;
        for diagnostic in bundle.rejected() {
            writeln!(
                out,
                "  {}  {}: {}",
                style.warn("omitted"),
                diagnostic.name(),
                diagnostic.problem()
            )?;
        }
    }
    if !fatal.is_empty() {
        writeln!(out, "refusing the batch ({}):", fatal.len())?;
        for diagnostic in &fatal {
            writeln!(
                out,
                "  {}  {}: {}",
                style.bad("fatal"),
                diagnostic.name(),
                diagnostic.problem()
            )?;
        }
        writeln!(out, "the catalog as given is refused")?;
        return Ok(Status::Rejected);
    }
    writeln!(out, "the catalog is admitted")?;
    Ok(Status::Ok)
}
