//! Arbitrary strings through every format checker and the content decoders: no panic; the
//! formats that contain others agree with them (`uri` ⊂ `iri` ⊂ `iri-reference`, `email` ⊂
//! `idn-email`, `date-time` is `date` "T" `time`, …); base64 decodes only canonical text; and
//! the time a checker takes grows linearly with its input.
//!
//! The growth is measured, not asserted, here: [`check`] returns the times of the input
//! pumped to two lengths and the fuzz target asserts [`Growth::assert_linear`] on them. The
//! corpus replay runs the same pumped inputs but asserts nothing about time, which on a shared
//! machine would make an ordinary test flaky.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use std::time::{Duration, Instant};
use toolschema::content::{ContentEncoding, ContentMediaType};
use toolschema::format::Format;

/// Bytes the shorter pumped input has, about; the longer has [`GROWTH`] times as many.
const PUMPED: usize = 2048;
/// How much longer the longer pumped input is.
const GROWTH: usize = 4;
/// Runs of each pumped input; the fastest counts.
const RUNS: usize = 3;
/// Rounds of [`RUNS`] runs, at most: a round is repeated while the times look worse than
/// linear, since on a loaded machine one round can be preempted.
const ROUNDS: usize = 4;

/// The times one checker took on an input pumped to two lengths.
pub struct Growth {
    /// The checker: a format name or `base64` / `application/json` / `media type`.
    pub what: &'static str,
    /// The input before pumping.
    pub input: String,
    /// The fastest run on the shorter pumped input.
    pub short: Duration,
    /// The fastest run on the longer pumped input, [`GROWTH`] times as long.
    pub long: Duration,
}

impl Growth {
    /// Panics when the longer input took much more than [`GROWTH`] times as long as the
    /// shorter: linear growth gives about 4, quadratic about 16. Times below a millisecond are
    /// noise and pass.
    ///
    /// ```
    /// let growth = toolschema_reliability::formats::check(b"\x002020-02-29T12:00:00Z");
    /// growth.unwrap().assert_linear();
    /// ```
    pub fn assert_linear(&self) {
        assert!(
            self.is_linear(),
            "{}: {:?} on {} bytes, {:?} on {} times as many, pumped from {:?}",
            self.what,
            self.short,
            PUMPED,
            self.long,
            GROWTH,
            self.input
        );
    }

    fn is_linear(&self) -> bool {
        self.long <= self.short * 10 + Duration::from_millis(1)
    }
}

/// The first byte chooses the checker whose growth is measured; the rest, as UTF-8, goes
/// through every checker. `None` when the rest is not UTF-8, or is empty (nothing to pump).
///
/// ```
/// assert!(toolschema_reliability::formats::check(b"\x07example.com").is_some());
/// ```
pub fn check(data: &[u8]) -> Option<Growth> {
    let (&choice, rest) = data.split_first()?;
    let s = std::str::from_utf8(rest).ok()?;
    let valid: Vec<bool> = Format::ALL.iter().map(|f| f.is_valid(s)).collect();
    let is = |f: Format| valid[Format::ALL.iter().position(|&g| g == f).unwrap()];
    for (narrow, wide) in [
        (Format::Uri, Format::UriReference),
        (Format::Uri, Format::Iri),
        (Format::Iri, Format::IriReference),
        (Format::UriReference, Format::IriReference),
        (Format::Ipv4, Format::Hostname),
        // RFC 6531 extends RFC 5321: every `email` is an `idn-email`.
        (Format::Email, Format::IdnEmail),
    ] {
        assert!(
            !is(narrow) || is(wide),
            "{s:?} is {} but not {}",
            narrow.name(),
            wide.name()
        );
    }
    // IDNA2008 keeps every RFC 1123 host name but those with a reserved label, `--` in its
    // third and fourth characters (RFC 5891 §4.2.3.1), which only A-labels may have.
    let reserved = |domain: &str| domain.split('.').any(|label| label.get(2..4) == Some("--"));
    assert!(
        !is(Format::Hostname) || reserved(s) || is(Format::IdnHostname),
        "{s:?} is hostname but not idn-hostname"
    );
    if let Some((date, time)) = s.split_once(['T', 't']) {
        assert_eq!(
            is(Format::DateTime),
            Format::Date.is_valid(date) && Format::Time.is_valid(time),
            "{s:?}: date-time against date {date:?} and time {time:?}"
        );
    } else {
        assert!(!is(Format::DateTime), "{s:?} is a date-time without T");
    }
    if let Some(bytes) = ContentEncoding::Base64.decode(s) {
        assert_eq!(
            STANDARD.encode(&bytes),
            s,
            "base64 accepted a non-canonical text"
        );
        ContentMediaType::Json.parse(&bytes);
    }
    ContentMediaType::Json.parse(s.as_bytes());
    ContentMediaType::from_name(s);
    ContentEncoding::from_name(s);
    if s.is_empty() {
        return None;
    }
    let checkers = Format::ALL.len() + 3;
    let pick = usize::from(choice) % checkers;
    Some(growth(pick, s))
}

/// Times checker `pick` (a format's index in [`Format::ALL`], then base64, JSON and the media
/// type names) on `s` repeated to about [`PUMPED`] and [`GROWTH`] × [`PUMPED`] bytes.
fn growth(pick: usize, s: &str) -> Growth {
    let run: Box<dyn Fn(&str)> = match pick.checked_sub(Format::ALL.len()) {
        None => {
            let f = Format::ALL[pick];
            Box::new(move |t| {
                f.is_valid(t);
            })
        }
        Some(0) => Box::new(|t| {
            ContentEncoding::Base64.decode(t);
        }),
        Some(1) => Box::new(|t| {
            ContentMediaType::Json.parse(t.as_bytes());
        }),
        Some(_) => Box::new(|t| {
            ContentMediaType::from_name(t);
        }),
    };
    let what = match pick.checked_sub(Format::ALL.len()) {
        None => Format::ALL[pick].name(),
        Some(0) => "base64",
        Some(1) => "application/json",
        Some(_) => "media type",
    };
    let copies = PUMPED.div_ceil(s.len());
    let short = s.repeat(copies);
    let long = s.repeat(copies * GROWTH);
    let fastest = |t: &str| {
        (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                run(t);
                start.elapsed()
            })
            .min()
            .expect("at least one run")
    };
    let mut growth = Growth {
        what,
        input: s.to_string(),
        short: fastest(&short),
        long: fastest(&long),
    };
    for _ in 1..ROUNDS {
        if growth.is_linear() {
            break;
        }
        growth.short = growth.short.min(fastest(&short));
        growth.long = growth.long.min(fastest(&long));
    }
    growth
}
