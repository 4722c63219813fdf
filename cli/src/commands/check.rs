//! `toolschema check`: does each schema build?

use crate::exit::Status;
use crate::input;
use crate::report;
use crate::schema::{SchemaArgs, build_schema};
use crate::style::Style;
use std::io::Write;
use std::path::PathBuf;

const AFTER_HELP: &str = "\
Prints `ok` for each schema that builds. For one that does not, prints the error class
(Validation: the schema is wrong; UnsupportedCapability: it asks for something not
supported, such as an older draft; ExecutionFailure: a limit was reached), the message,
and the JSON Pointer into the schema document where the problem is.

Exit codes:
  0  every schema builds
  1  at least one schema does not build
  2  usage error, unreadable file or malformed JSON (in a schema or a registry document)

Examples:
  toolschema check examples/data/search_tool.schema.json
  toolschema check tools/*.schema.json
  toolschema check --registry https://example.com/common.json=common.json tool.json
  toolschema check --registry-dir schemas/shared tool.json";

/// Check that each schema file builds as a tool input schema.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Schema files to check (`-` reads one from standard input).
    #[arg(value_name = "SCHEMA", required = true)]
    pub schemas: Vec<PathBuf>,

    #[command(flatten)]
    pub schema: SchemaArgs,
}

pub fn run(args: &Args) -> std::io::Result<Status> {
    let options = match args.schema.options() {
        Ok(options) => options,
        Err(err) => {
            report::fatal(err.message());
            return Ok(Status::Failed);
        }
    };
    let sources = match input::sources(&args.schemas) {
        Ok(sources) => sources,
        Err(err) => {
            report::fatal(err.message());
            return Ok(Status::Failed);
        }
    };
    let style = Style::for_stdout();
    let mut out = std::io::stdout().lock();
    let mut status = Status::Ok;
    for source in &sources {
        let label = source.to_string();
        let document = match source.read_json() {
            Ok(document) => document,
            Err(err) => {
                out.flush()?;
                report::fatal(err.message());
                status = status.max(Status::Failed);
                continue;
            }
        };
        match build_schema(&document, &options) {
            Ok(_) => out.write_all(report::text_ok(style, &label, "ok").as_bytes())?,
            Err(err) => {
                out.write_all(report::text_schema_error(style, &label, &err).as_bytes())?;
                status = status.max(Status::Rejected);
            }
        }
    }
    out.flush()?;
    Ok(status)
}
