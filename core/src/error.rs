//! Errors: one type for every way building a schema or checking arguments can fail.
//!
//! An [`Error`] has a [`class`](Error::class) that tells a host what to do with it:
//! [`ErrorClass::Validation`] (the schema or the arguments are wrong: fix them),
//! [`ErrorClass::UnsupportedCapability`] (the schema is fine but asks for something this
//! library does not do, such as an older draft), and [`ErrorClass::ExecutionFailure`]
//! (a configured limit was reached or a loader failed: the input was never judged).
//!
//! Every error carries [`Failure`]s that say where: for argument errors the locations point
//! into the arguments and the schema; for schema errors the instance location points into the
//! schema document itself.

use std::borrow::Cow;
use std::fmt;

/// What kind of problem an [`Error`] reports.
///
/// ```
/// use toolschema::{ErrorClass, Validator};
/// let err = Validator::new(&serde_json::json!({"type": 5})).unwrap_err();
/// assert_eq!(err.class(), ErrorClass::Validation);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorClass {
    /// The schema is invalid, or the arguments do not satisfy the schema.
    Validation,
    /// The schema asks for a dialect, vocabulary or construct that is not supported.
    UnsupportedCapability,
    /// A limit was reached or a resource could not be loaded; nothing was decided.
    ExecutionFailure,
}

impl ErrorClass {
    /// The class name as used in messages and machine-readable output.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorClass::Validation => "Validation",
            ErrorClass::UnsupportedCapability => "UnsupportedCapability",
            ErrorClass::ExecutionFailure => "ExecutionFailure",
        }
    }
}

impl fmt::Display for ErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether an [`Error`] is about the schema or about the arguments checked against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorSubject {
    /// The schema could not be built.
    Schema,
    /// The arguments (the instance) were checked and found wanting, or checking them failed.
    Instance,
}

/// One thing that is wrong, with where it is.
///
/// ```
/// use toolschema::{Validate, Validator};
/// use serde_json::json;
/// let v = Validator::new(&json!({"properties": {"n": {"type": "integer"}}})).unwrap();
/// let err = v.validate(&json!({"n": "x"})).unwrap_err();
/// let f = &err.failures()[0];
/// assert_eq!(f.instance_location(), "/n");
/// assert_eq!(f.keyword_location(), "/properties/n/type");
/// assert_eq!(f.keyword(), "type");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    instance_location: String,
    keyword_location: String,
    // Validators name keywords and, in generated code, absolute locations with static
    // strings: borrowing them saves two allocations per failure.
    absolute_keyword_location: Option<Cow<'static, str>>,
    keyword: Cow<'static, str>,
    // Messages that depend only on the schema (and the instance's type) are made once and
    // borrowed.
    message: Cow<'static, str>,
}

impl Failure {
    /// Makes a failure. Generated validators and the interpreter call this; hosts rarely need to.
    pub fn new(
        instance_location: impl Into<String>,
        keyword_location: impl Into<String>,
        absolute_keyword_location: Option<String>,
        keyword: impl Into<String>,
        message: impl Into<String>,
    ) -> Failure {
        Failure {
            instance_location: instance_location.into(),
            keyword_location: keyword_location.into(),
            absolute_keyword_location: absolute_keyword_location.map(Cow::Owned),
            keyword: Cow::Owned(keyword.into()),
            message: Cow::Owned(message.into()),
        }
    }

    /// [`Failure::new`] with the keyword, and the absolute location where it is known when
    /// the validator is built, borrowed rather than copied.
    pub(crate) fn borrowing(
        instance_location: String,
        keyword_location: String,
        absolute_keyword_location: Option<Cow<'static, str>>,
        keyword: &'static str,
        message: Cow<'static, str>,
    ) -> Failure {
        Failure {
            instance_location,
            keyword_location,
            absolute_keyword_location,
            keyword: Cow::Borrowed(keyword),
            message,
        }
    }

    /// JSON Pointer to the offending value: in the arguments, or in the schema for schema errors.
    pub fn instance_location(&self) -> &str {
        &self.instance_location
    }

    /// JSON Pointer to the keyword along the evaluation path (through `$ref`s).
    pub fn keyword_location(&self) -> &str {
        &self.keyword_location
    }

    /// The absolute URI of the keyword in its schema resource, when the schema has one.
    pub fn absolute_keyword_location(&self) -> Option<&str> {
        self.absolute_keyword_location.as_deref()
    }

    /// The keyword that failed, such as `required` or `$ref`.
    pub fn keyword(&self) -> &str {
        &self.keyword
    }

    /// A sentence saying what is wrong and what was expected.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.instance_location.is_empty() {
            "(root)"
        } else {
            &self.instance_location
        };
        write!(f, "at {at}: {} [{}]", self.message, self.keyword_location)
    }
}

/// The error type of every fallible operation in this crate.
///
/// ```
/// use toolschema::{ErrorClass, Validate, Validator};
/// use serde_json::json;
/// let v = Validator::new(&json!({"required": ["query"]})).unwrap();
/// let err = v.validate(&json!({})).unwrap_err();
/// assert_eq!(err.class(), ErrorClass::Validation);
/// assert_eq!(err.failures().len(), 1);
/// assert!(err.to_string().contains("query"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    inner: Box<Inner>,
}

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    class: ErrorClass,
    subject: ErrorSubject,
    message: Cow<'static, str>,
    failures: Vec<Failure>,
}

impl Error {
    pub(crate) fn new(
        class: ErrorClass,
        subject: ErrorSubject,
        message: impl Into<Cow<'static, str>>,
        failures: Vec<Failure>,
    ) -> Error {
        Error {
            inner: Box::new(Inner {
                class,
                subject,
                message: message.into(),
                failures,
            }),
        }
    }

    /// A schema error with one failure located at `pointer` inside the schema document.
    pub(crate) fn schema(
        class: ErrorClass,
        pointer: &str,
        keyword: &str,
        message: impl Into<String>,
    ) -> Error {
        let message = message.into();
        let failure = Failure::new(pointer, pointer, None, keyword, message.clone());
        Error::new(class, ErrorSubject::Schema, message, vec![failure])
    }

    /// The arguments failed the schema; `failures` holds every reason.
    ///
    /// Generated validators build their errors with this.
    pub fn invalid_instance(failures: Vec<Failure>) -> Error {
        // The summaries of small counts are written once, so most errors format nothing.
        const SUMMARIES: [&str; 9] = [
            "the arguments are invalid: 0 failures",
            "the arguments are invalid: 1 failure",
            "the arguments are invalid: 2 failures",
            "the arguments are invalid: 3 failures",
            "the arguments are invalid: 4 failures",
            "the arguments are invalid: 5 failures",
            "the arguments are invalid: 6 failures",
            "the arguments are invalid: 7 failures",
            "the arguments are invalid: 8 failures",
        ];
        let message: Cow<'static, str> = match SUMMARIES.get(failures.len()) {
            Some(summary) => Cow::Borrowed(summary),
            None => format!("the arguments are invalid: {} failures", failures.len()).into(),
        };
        Error::new(
            ErrorClass::Validation,
            ErrorSubject::Instance,
            message,
            failures,
        )
    }

    /// Checking the arguments was stopped by a limit; `failure` says which and where.
    pub fn instance_execution_failure(failure: Failure) -> Error {
        Error::new(
            ErrorClass::ExecutionFailure,
            ErrorSubject::Instance,
            failure.message().to_string(),
            vec![failure],
        )
    }

    /// What kind of problem this is.
    pub fn class(&self) -> ErrorClass {
        self.inner.class
    }

    /// Whether the schema or the arguments are at fault.
    pub fn subject(&self) -> ErrorSubject {
        self.inner.subject
    }

    /// A one-line summary.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// Every failure, each with its locations.
    pub fn failures(&self) -> &[Failure] {
        &self.inner.failures
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = &self.inner;
        // A schema error with a single failure says it all in one line.
        if let [only] = inner.failures.as_slice() {
            if inner.subject == ErrorSubject::Schema {
                let at = if only.instance_location.is_empty() {
                    "the schema root".to_string()
                } else {
                    format!("schema location {}", only.instance_location)
                };
                return write!(f, "{}: {} (at {at})", inner.class, inner.message);
            }
        }
        write!(f, "{}: {}", inner.class, inner.message)?;
        for failure in &inner.failures {
            write!(f, "\n  {failure}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("class", &self.inner.class)
            .field("subject", &self.inner.subject)
            .field("message", &self.inner.message)
            .field("failures", &self.inner.failures)
            .finish()
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The summary names the count of failures, in words agreeing with it, whatever the count.
    #[test]
    fn summaries_count_the_failures() {
        for n in 0..20 {
            let failures = (0..n)
                .map(|i| Failure::new(format!("/{i}"), "", None, "type", "wrong"))
                .collect();
            let error = Error::invalid_instance(failures);
            let noun = if n == 1 { "failure" } else { "failures" };
            assert_eq!(
                error.message(),
                format!("the arguments are invalid: {n} {noun}")
            );
            assert_eq!(error.failures().len(), n);
        }
    }
}
