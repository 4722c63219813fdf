//! One module per subcommand. Each exposes `Args` (its clap arguments) and
//! `run(&Args) -> io::Result<Status>`; the `Err` case is reserved for failing to write
//! standard output, everything else is reported and folded into the status.

pub mod admit;
pub mod check;
pub mod compile;
pub mod validate;
