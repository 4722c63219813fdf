//! How verdicts and errors are written: text for people, the 2020-12 "basic" output shape
//! for programs, and one-line diagnostics on standard error.

use crate::style::Style;
use serde_json::Value;
use std::fmt::Write as _;
use toolschema::{Error, ErrorClass, Evaluation, Failure};

/// A problem that stops a command or an input from being judged.
pub fn fatal(message: &str) {
    let style = Style::for_stderr();
    eprintln!("{} {message}", style.bad(&style.strong("error:")));
}

/// Something worth knowing that changes nothing about the verdict.
pub fn note(message: &str) {
    let style = Style::for_stderr();
    eprintln!("{} {message}", style.warn("note:"));
}

/// The root pointer is the empty string, which reads as nothing at all in text.
fn pointer(p: &str) -> &str {
    if p.is_empty() { "(root)" } else { p }
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// `LABEL: ok`.
pub fn text_ok(style: Style, label: &str, word: &str) -> String {
    format!("{}: {}\n", style.strong(label), style.good(word))
}

/// A schema that did not build: the class, the summary and where in the schema document.
pub fn text_schema_error(style: Style, label: &str, err: &Error) -> String {
    let mut out = format!(
        "{}: {} ({})\n",
        style.strong(label),
        style.bad("schema does not build"),
        err.class()
    );
    let failures = err.failures();
    // The summary usually restates a failure with its location; the located lines below say it.
    let summary_repeated = failures.iter().any(|f| err.message().contains(f.message()));
    if !summary_repeated {
        let _ = writeln!(out, "  {}", err.message());
    }
    for failure in failures {
        let _ = writeln!(
            out,
            "  at {}: {}",
            style.strong(pointer(failure.instance_location())),
            failure.message()
        );
    }
    out
}

/// Instance errors: one entry per failure with the instance location, message, keyword
/// location and, when a `$ref` led elsewhere, the absolute keyword location.
pub fn text_instance_error(style: Style, label: &str, err: &Error) -> String {
    let failures = err.failures();
    let verdict = match err.class() {
        ErrorClass::Validation => format!("invalid ({})", plural(failures.len(), "error")),
        class => format!("not accepted ({class}): {}", err.message()),
    };
    let mut out = format!("{}: {}\n", style.strong(label), style.bad(&verdict));
    for failure in failures {
        let _ = writeln!(
            out,
            "  at {}: {}",
            style.strong(pointer(failure.instance_location())),
            failure.message()
        );
        let _ = writeln!(
            out,
            "     {} {} ({})",
            style.faint("keyword"),
            failure.keyword_location(),
            failure.keyword()
        );
        // Without a `$ref` on the way, the absolute location is the keyword location behind
        // the schema's `$id` and says nothing new; after one, it names where the keyword lives.
        if let Some(absolute) = failure.absolute_keyword_location() {
            let plain = format!("#{}", failure.keyword_location());
            if !absolute.ends_with(&plain) {
                let _ = writeln!(out, "     {} {absolute}", style.faint("defined at"));
            }
        }
    }
    out
}

/// The annotations of a valid instance, one per line below its verdict: where, which keyword,
/// its value, and the keyword's location in the schema.
pub fn text_annotations(style: Style, evaluation: &Evaluation) -> String {
    let mut out = String::new();
    for a in evaluation.annotations() {
        let _ = writeln!(
            out,
            "  {} {}: {}",
            style.strong(pointer(a.instance_location())),
            a.keyword(),
            a.value()
        );
        let _ = writeln!(
            out,
            "     {} {}",
            style.faint("keyword"),
            a.keyword_location()
        );
    }
    out
}

/// One evaluation as a single line of JSON in an output format of 2020-12 (`output`), with
/// the source (and the line, for JSON Lines) in front so verdicts from many inputs can be told
/// apart.
pub fn json_output(source: &str, line: Option<usize>, output: &Value) -> String {
    let mut out = format!("{{\"source\":{}", Value::from(source));
    if let Some(line) = line {
        let _ = write!(out, ",\"line\":{line}");
    }
    // `valid` first, then the rest in serde_json's order.
    if let Some(valid) = output.get("valid") {
        let _ = write!(out, ",\"valid\":{valid}");
    }
    for (key, value) in output.as_object().into_iter().flatten() {
        if key != "valid" {
            let _ = write!(out, ",{}:{value}", Value::from(key.as_str()));
        }
    }
    out.push_str("}\n");
    out
}

/// An evaluation a limit stopped, as a single line of JSON in the shape of the "basic"
/// format, with the source (and the line) in front and the error's class.
pub fn json_error(source: &str, line: Option<usize>, err: &Error) -> String {
    let mut out = format!("{{\"source\":{}", Value::from(source));
    if let Some(line) = line {
        let _ = write!(out, ",\"line\":{line}");
    }
    let _ = write!(
        out,
        ",\"valid\":false,\"class\":{},\"errors\":[",
        Value::from(err.class().as_str())
    );
    for (i, failure) in err.failures().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&json_failure(failure));
    }
    out.push_str("]}\n");
    out
}

fn json_failure(failure: &Failure) -> String {
    let mut out = format!(
        "{{\"valid\":false,\"keywordLocation\":{}",
        Value::from(failure.keyword_location())
    );
    if let Some(absolute) = failure.absolute_keyword_location() {
        let _ = write!(
            out,
            ",\"absoluteKeywordLocation\":{}",
            Value::from(absolute)
        );
    }
    let _ = write!(
        out,
        ",\"instanceLocation\":{},\"error\":{}}}",
        Value::from(failure.instance_location()),
        Value::from(failure.message())
    );
    out
}
