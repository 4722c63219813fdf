//! `toolschema validate`: check instances (tool-call arguments) against one schema.

use crate::exit::Status;
use crate::input::{self, InputError, Source};
use crate::progress::Progress;
use crate::report;
use crate::schema::{Built, SchemaArgs, build_schema};
use crate::style::Style;
use clap::ValueEnum;
use serde_json::Value;
use std::io::{BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use toolschema::{Evaluation, Validate};

const AFTER_HELP: &str = "\
Each instance gets one verdict on standard output: `valid`, or `invalid` followed by every
error with its instance location (a JSON Pointer into the instance), its message, and the
keyword location (a JSON Pointer into the schema, along the path taken through `$ref`).
With `--output flag|basic|detailed|verbose`, each verdict is one line of JSON in that
output format of JSON Schema 2020-12 (core, section 12), with `source` (and `line` with
--jsonl) in front; `json` is `basic`:
  {\"source\":\"call.json\",\"valid\":false,\"keywordLocation\":\"\",\"instanceLocation\":\"\",
   \"errors\":[{\"valid\":false,\"keywordLocation\":\"/required\",\"instanceLocation\":\"\",...}]}
`basic` lists the errors of an invalid instance and the annotations (title, description,
default, ...) of a valid one; `detailed` nests them by subschema, `oneOf` and `anyOf`
branches included; `verbose` shows every subschema applied. With `--annotations`, text
output also lists the annotations of each valid instance.
Problems that stop an input from being judged (unreadable file, malformed JSON) go to
standard error, naming the file, line and column; the other inputs are still validated.

Exit codes:
  0  every instance is valid
  1  at least one instance is invalid, or was stopped by a limit (class ExecutionFailure;
     such an instance is not accepted)
  2  usage error, unreadable file, malformed JSON in any input, or a schema that does not
     build (nothing was validated against it; `toolschema check` explains why)

Examples:
  toolschema validate --schema examples/data/search_tool.schema.json examples/data/search_call.invalid.json
  echo '{\"query\": \"rust\"}' | toolschema validate --schema tool.json
  toolschema validate --schema tool.json --jsonl examples/data/calls.jsonl
  toolschema validate --schema tool.json --output basic call.json | jq .errors
  toolschema validate --schema tool.json --output detailed call.json
  toolschema validate --schema tool.json --annotations call.json
  toolschema validate --schema tool.json --registry https://example.com/common.json=common.json call.json";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Output {
    /// For people: one verdict per instance, errors indented below it.
    Text,
    /// The 2020-12 "flag" format: the verdict alone.
    Flag,
    /// The 2020-12 "basic" format: a flat list of errors, or of annotations when valid.
    #[value(alias = "json")]
    Basic,
    /// The 2020-12 "detailed" format: errors or annotations nested by subschema.
    Detailed,
    /// The 2020-12 "verbose" format: every subschema applied, with its result.
    Verbose,
}

/// Validate instances (tool-call arguments) against a schema.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The schema to validate against.
    #[arg(long, short = 's', value_name = "SCHEMA")]
    pub schema: PathBuf,

    /// Instance files; standard input when none is given, and `-` also means standard input.
    #[arg(value_name = "INSTANCE")]
    pub instances: Vec<PathBuf>,

    /// Read each input as JSON Lines: one instance per line, one verdict per line. Blank
    /// lines are skipped. A progress bar is shown on standard error when it is a terminal.
    #[arg(long)]
    pub jsonl: bool,

    /// How verdicts are written.
    #[arg(long, value_enum, default_value_t = Output::Text)]
    pub output: Output,

    /// In text output, also list the annotations of each valid instance (title, description,
    /// default, ...) with their locations. The JSON formats carry them already.
    #[arg(long)]
    pub annotations: bool,

    #[command(flatten)]
    pub schema_args: SchemaArgs,
}

pub fn run(args: &Args) -> std::io::Result<Status> {
    let sources = match input::sources(&args.instances) {
        Ok(sources) if sources.is_empty() => vec![Source::Stdin],
        Ok(sources) => sources,
        Err(err) => {
            report::fatal(err.message());
            return Ok(Status::Failed);
        }
    };
    let validator = match prepare(args) {
        Ok(validator) => validator,
        Err(status) => return Ok(status),
    };
    if sources.contains(&Source::Stdin) && std::io::stdin().is_terminal() {
        report::note("reading instances from standard input; end with Ctrl-D");
    }
    let mut sink = Sink::new(args.output, args.annotations);
    let mut status = Status::Ok;
    for source in &sources {
        let outcome = if args.jsonl {
            validate_lines(&validator, source, &mut sink)?
        } else {
            validate_document(&validator, source, &mut sink)?
        };
        status = status.max(outcome);
    }
    sink.out.flush()?;
    Ok(status)
}

/// Reads the registry and the schema and builds it; on failure, reports and gives the status.
fn prepare(args: &Args) -> Result<Built, Status> {
    let fail = |err: InputError| {
        report::fatal(err.message());
        Status::Failed
    };
    let options = args.schema_args.options().map_err(fail)?;
    let source = Source::File(args.schema.clone());
    let document = source.read_json().map_err(fail)?;
    build_schema(&document, &options).map_err(|err| {
        report::fatal(&format!(
            "the schema does not build, so nothing was validated ({})",
            err.class()
        ));
        let details = report::text_schema_error(Style::for_stderr(), &source.to_string(), &err);
        eprint!("{details}");
        Status::Failed
    })
}

fn validate_document(
    validator: &Built,
    source: &Source,
    sink: &mut Sink,
) -> std::io::Result<Status> {
    match source.read_json() {
        Ok(instance) => sink.verdict(validator, &source.to_string(), None, &instance),
        Err(err) => {
            sink.out.flush()?;
            report::fatal(err.message());
            Ok(Status::Failed)
        }
    }
}

fn validate_lines(validator: &Built, source: &Source, sink: &mut Sink) -> std::io::Result<Status> {
    let label = source.to_string();
    let (reader, len) = match source.open() {
        Ok(opened) => opened,
        Err(err) => {
            sink.out.flush()?;
            report::fatal(err.message());
            return Ok(Status::Failed);
        }
    };
    let mut reader = BufReader::new(reader);
    let mut progress = Progress::new(label.clone(), len);
    let mut status = Status::Ok;
    let mut buf = Vec::new();
    let mut number = 0;
    loop {
        buf.clear();
        // Bytes, not `read_line`: a line that is not UTF-8 is one malformed instance, reported
        // with its position by the parser, not an I/O error that ends the whole input.
        let read = match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(read) => read,
            Err(err) => {
                progress.hide();
                sink.out.flush()?;
                report::fatal(InputError::io(source, &err).message());
                return Ok(status.max(Status::Failed));
            }
        };
        number += 1;
        // Without its terminator a line parses as itself, so an unterminated value is reported
        // on its own line rather than at column 0 of the next.
        let line = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !line.iter().all(u8::is_ascii_whitespace) {
            match input::parse(line) {
                Ok(instance) => {
                    if sink.to_terminal {
                        progress.hide();
                    }
                    status =
                        status.max(sink.verdict(validator, &label, Some(number), &instance)?);
                }
                Err(err) => {
                    progress.hide();
                    sink.out.flush()?;
                    report::fatal(InputError::syntax(label.clone(), number - 1, &err).message());
                    status = status.max(Status::Failed);
                }
            }
        }
        let out = &mut sink.out;
        progress.advance(read as u64, || {
            let _ = out.flush();
        });
    }
    Ok(status)
}

/// Standard output, buffered, with the chosen format.
struct Sink {
    out: BufWriter<std::io::StdoutLock<'static>>,
    output: Output,
    annotations: bool,
    style: Style,
    to_terminal: bool,
}

impl Sink {
    fn new(output: Output, annotations: bool) -> Sink {
        let stdout = std::io::stdout();
        Sink {
            to_terminal: stdout.is_terminal(),
            out: BufWriter::new(stdout.lock()),
            output,
            annotations,
            style: Style::for_stdout(),
        }
    }

    /// Judges `instance` and writes the verdict in the chosen format.
    fn verdict(
        &mut self,
        validator: &Built,
        source: &str,
        line: Option<usize>,
        instance: &Value,
    ) -> std::io::Result<Status> {
        let format: fn(&Evaluation) -> Value = match self.output {
            Output::Text => return self.text_verdict(validator, source, line, instance),
            Output::Flag => Evaluation::flag,
            Output::Basic => Evaluation::basic,
            Output::Detailed => Evaluation::detailed,
            Output::Verbose => Evaluation::verbose,
        };
        let evaluation = validator.evaluate(instance);
        let valid = evaluation.as_ref().is_ok_and(Evaluation::is_valid);
        let text = match &evaluation {
            Ok(evaluation) => report::json_output(source, line, &format(evaluation)),
            Err(err) => report::json_error(source, line, err),
        };
        self.write(&text, valid)
    }

    fn text_verdict(
        &mut self,
        validator: &Built,
        source: &str,
        line: Option<usize>,
        instance: &Value,
    ) -> std::io::Result<Status> {
        let label = match line {
            Some(line) => format!("{source}:{line}"),
            None => source.to_string(),
        };
        let result = validator.validate(instance);
        let mut text = match &result {
            Ok(()) => report::text_ok(self.style, &label, "valid"),
            Err(err) => report::text_instance_error(self.style, &label, err),
        };
        if self.annotations && result.is_ok() {
            match validator.evaluate(instance) {
                Ok(evaluation) => {
                    text.push_str(&report::text_annotations(self.style, &evaluation));
                }
                Err(err) => text = report::text_instance_error(self.style, &label, &err),
            }
        }
        let valid = result.is_ok();
        self.write(&text, valid)
    }

    fn write(&mut self, text: &str, valid: bool) -> std::io::Result<Status> {
        self.out.write_all(text.as_bytes())?;
        // Someone watching a terminal (or typing JSON Lines) wants each verdict as it happens.
        if self.to_terminal {
            self.out.flush()?;
        }
        Ok(if valid { Status::Ok } else { Status::Rejected })
    }
}
