//! RFC 3339 §5.6 `date-time`, `full-date`, `full-time` and Appendix A `duration`.

use super::{DIGIT, Grammar, Rng};

pub(super) fn grammars() -> Vec<Grammar> {
    vec![
        Grammar {
            format: "date-time",
            valid: date_time,
            invalid: bad_date_time,
        },
        Grammar {
            format: "date",
            valid: full_date,
            invalid: bad_date,
        },
        Grammar {
            format: "time",
            valid: full_time,
            invalid: bad_time,
        },
        Grammar {
            format: "duration",
            valid: duration,
            invalid: bad_duration,
        },
    ]
}

fn leap(year: usize) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// §5.7: the last day of each month.
fn days_in(year: usize, month: usize) -> usize {
    match month {
        2 if leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn full_date(r: &mut Rng) -> String {
    let year = r.range(0, 9999);
    let month = r.range(1, 12);
    let day = r.range(1, days_in(year, month));
    format!("{year:04}-{month:02}-{day:02}")
}

/// `time-numoffset` as minutes east of UTC, or `None` for `Z`.
fn offset(r: &mut Rng) -> Option<i64> {
    if r.one_in(3) {
        return None;
    }
    let minutes = r.range(0, 23 * 60 + 59) as i64;
    Some(if r.one_in(2) { minutes } else { -minutes })
}

fn offset_text(r: &mut Rng, offset: Option<i64>) -> String {
    match offset {
        None => r.pick(&["Z", "z"]).to_string(),
        Some(m) => {
            // `-00:00` is allowed too (§4.3, unknown local offset).
            let sign = if m < 0 || (m == 0 && r.one_in(2)) {
                '-'
            } else {
                '+'
            };
            format!("{sign}{:02}:{:02}", m.abs() / 60, m.abs() % 60)
        }
    }
}

fn secfrac(r: &mut Rng) -> String {
    if r.one_in(2) {
        String::new()
    } else {
        format!(".{}", r.chars_of(DIGIT, 1, 12))
    }
}

/// `full-time`; one in eight is a leap second, placed at 23:59:60 UTC as §5.7 allows.
fn full_time(r: &mut Rng) -> String {
    let offset = offset(r);
    let (hour, minute, second) = if r.one_in(8) {
        let local = (23 * 60 + 59 + offset.unwrap_or(0)).rem_euclid(24 * 60);
        (local / 60, local % 60, 60)
    } else {
        (
            r.range(0, 23) as i64,
            r.range(0, 59) as i64,
            r.range(0, 59) as i64,
        )
    };
    let frac = secfrac(r);
    let offset = offset_text(r, offset);
    format!("{hour:02}:{minute:02}:{second:02}{frac}{offset}")
}

fn date_time(r: &mut Rng) -> String {
    let date = full_date(r);
    let t = r.pick(&["T", "t"]);
    let time = full_time(r);
    format!("{date}{t}{time}")
}

fn bad_date(r: &mut Rng) -> String {
    let year = r.range(0, 9999);
    match r.below(6) {
        0 => format!("{year:04}-13-01"),
        1 => format!("{year:04}-00-10"),
        2 => format!("{year:04}-04-31"),
        3 => format!("{:04}-02-29", [1900, 2021, 2100, 2023][r.below(4)]),
        4 => format!("{year:04}-1-01"),
        _ => format!("{:04}-01-32", year),
    }
}

fn bad_time(r: &mut Rng) -> String {
    let good = full_time(r);
    match r.below(6) {
        0 => format!("24{}", &good[2..]),
        1 => format!("{}60{}", &good[..3], &good[5..]),
        2 => format!("{}61{}", &good[..6], &good[8..]),
        // The offset is required.
        3 => good[..8].to_string(),
        // A leap second anywhere but 23:59 UTC.
        4 => "12:00:60Z".to_string(),
        _ => format!("{}+24:00", &good[..8]),
    }
}

fn bad_date_time(r: &mut Rng) -> String {
    let date = full_date(r);
    let time = full_time(r);
    match r.below(4) {
        0 => format!("{date} {time}"),
        1 => format!("{}T{time}", bad_date(r)),
        2 => format!("{date}T{}", bad_time(r)),
        _ => format!("{date}{time}"),
    }
}

fn number(r: &mut Rng) -> String {
    r.chars_of(DIGIT, 1, 4)
}

/// A run of the units of `units`, largest first, each only followed by the next one
/// (`dur-year = 1*DIGIT "Y" [dur-month]`, …), starting at any of them.
fn units(r: &mut Rng, units: &[char]) -> String {
    let start = r.below(units.len());
    let end = r.range(start, units.len() - 1);
    units[start..=end]
        .iter()
        .map(|u| format!("{}{u}", number(r)))
        .collect()
}

fn duration(r: &mut Rng) -> String {
    let body = match r.below(3) {
        0 => format!("{}W", number(r)),
        1 => format!("T{}", units(r, &['H', 'M', 'S'])),
        _ => {
            let date = units(r, &['Y', 'M', 'D']);
            let time = if r.one_in(2) {
                format!("T{}", units(r, &['H', 'M', 'S']))
            } else {
                String::new()
            };
            date + &time
        }
    };
    // ABNF literals are case-insensitive (RFC 5234 §2.3).
    let text = format!("P{body}");
    if r.one_in(4) { r.any_case(&text) } else { text }
}

fn bad_duration(r: &mut Rng) -> String {
    let n = number(r);
    match r.below(8) {
        0 => "P".to_string(),
        1 => "PT".to_string(),
        // A unit skipped: `Y` is followed only by `M`, `H` only by `M`.
        2 => format!("P{n}Y{n}D"),
        3 => format!("PT{n}H{n}S"),
        4 => format!("P{n}W{n}D"),
        5 => format!("P{n}.5D"),
        6 => format!("{n}D"),
        _ => format!("PT{n}D"),
    }
}
