//! `toolschema`: check tool schemas and validate tool-call arguments from the shell.
//!
//! Each subcommand lives in its own module under [`commands`]; the pieces they share
//! (reading JSON, building a schema, printing errors) live beside this file so that a new
//! subcommand needs only a module and a line in [`Command`].

#![forbid(unsafe_code)]

mod commands;
mod exit;
mod input;
mod progress;
mod report;
mod schema;
mod style;

use clap::{Parser, Subcommand};
use exit::Status;
use std::process::ExitCode;

const AFTER_HELP: &str = "\
Exit codes:
  0  everything checked was ok
  1  a schema did not build (check) or an instance was rejected (validate)
  2  usage error, unreadable file, malformed JSON, or nothing could be judged

Run `toolschema <COMMAND> --help` for examples.";

/// Check JSON Schema 2020-12 tool schemas and validate tool-call arguments against them.
#[derive(Parser, Debug)]
#[command(name = "toolschema", version, about, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Check(commands::check::Args),
    Validate(commands::validate::Args),
    Compile(commands::compile::Args),
    Admit(commands::admit::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Check(args) => commands::check::run(&args),
        Command::Validate(args) => commands::validate::run(&args),
        Command::Compile(args) => commands::compile::run(&args),
        Command::Admit(args) => commands::admit::run(&args),
    };
    match status {
        Ok(status) => status.into(),
        Err(err) => {
            // A closed pipe downstream (`| head`) is the reader's choice, not a failure to report.
            if err.kind() != std::io::ErrorKind::BrokenPipe {
                report::fatal(&format!("cannot write output: {err}"));
            }
            Status::Failed.into()
        }
    }
}
