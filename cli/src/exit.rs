//! The exit status of a run, where the worst outcome of any input wins.

use std::process::ExitCode;

/// Ordered from best to worst so that `max` combines the outcomes of several inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Everything checked was accepted.
    Ok,
    /// Something was judged and rejected: a schema did not build, or an instance was invalid.
    Rejected,
    /// Something could not be judged: bad usage, an unreadable file, malformed JSON.
    Failed,
}

impl Status {
    pub fn code(self) -> u8 {
        match self {
            Status::Ok => 0,
            Status::Rejected => 1,
            Status::Failed => 2,
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status.code())
    }
}
