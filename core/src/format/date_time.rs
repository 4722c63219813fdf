//! RFC 3339: `date-time`, `full-date`, `full-time` (§5.6) and `duration`
//! (Appendix A).

/// `n` ASCII digits at `b[at..]` as a number.
fn digits(b: &[u8], at: usize, n: usize) -> Option<u32> {
    let part = b.get(at..at + n)?;
    part.iter().try_fold(0u32, |acc, &c| {
        c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
    })
}

fn is_leap_year(y: u32) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

/// `full-date = date-fullyear "-" date-month "-" date-mday`, exactly 10 bytes.
fn full_date(b: &[u8]) -> bool {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (digits(b, 0, 4), digits(b, 5, 2), digits(b, 8, 2))
    else {
        return false;
    };
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days_in_month).contains(&day)
}

/// `full-time = partial-time time-offset`.
fn full_time(b: &[u8]) -> bool {
    // partial-time = time-hour ":" time-minute ":" time-second [time-secfrac]
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) =
        (digits(b, 0, 2), digits(b, 3, 2), digits(b, 6, 2))
    else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut rest = &b[8..];
    if let [b'.', frac @ ..] = rest {
        let n = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    // time-offset = "Z" / time-numoffset; offset minutes east of UTC.
    let offset: i32 = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let (Some(oh), Some(om)) = (digits(rest, 1, 2), digits(rest, 4, 2)) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let m = (oh * 60 + om) as i32;
            if *sign == b'-' { -m } else { m }
        }
        _ => return false,
    };
    // A leap second exists only as the last second of a UTC day (§5.7 and
    // Appendix D), so local time minus the offset must read 23:59 UTC.
    if second == 60 {
        let utc = ((hour * 60 + minute) as i32 - offset).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// RFC 3339 `date-time = full-date "T" full-time`; `T` and `Z` in any case.
pub(super) fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() > 11 && matches!(b[10], b'T' | b't') && full_date(&b[..10]) && full_time(&b[11..])
}

/// RFC 3339 `full-date`.
pub(super) fn is_date(s: &str) -> bool {
    full_date(s.as_bytes())
}

/// RFC 3339 `full-time`: an offset is required.
pub(super) fn is_time(s: &str) -> bool {
    full_time(s.as_bytes())
}

/// RFC 3339 Appendix A:
///
/// ```text
/// dur-date = (dur-day / dur-month / dur-year) [dur-time]
/// dur-time = "T" (dur-hour / dur-minute / dur-second)
/// duration = "P" (dur-date / dur-time / dur-week)
/// ```
///
/// where each unit may only be followed by the next smaller one (`Y` by `M`
/// by `D`; `H` by `M` by `S`). ABNF literals are case-insensitive (RFC 5234
/// §2.3), so lower-case designators are accepted too.
pub(super) fn is_duration(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(rest) = b.strip_prefix(b"P").or_else(|| b.strip_prefix(b"p")) else {
        return false;
    };
    let (date, time) = match rest.iter().position(|c| matches!(c, b'T' | b't')) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    if time.is_none() && units(date, b"W") {
        return true;
    }
    let date_ok = date.is_empty() || units(date, b"YMD");
    let time_ok = match time {
        None => !date.is_empty(),
        Some(t) => units(t, b"HMS"),
    };
    date_ok && time_ok
}

/// Whether `b` is one or more `1*DIGIT unit` elements whose units are
/// consecutive entries of `order` (so `P1Y2D`, which skips `M`, fails).
fn units(mut b: &[u8], order: &[u8]) -> bool {
    let mut next: Option<usize> = None;
    if b.is_empty() {
        return false;
    }
    while !b.is_empty() {
        let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let Some(&unit) = b.get(n) else {
            return false;
        };
        let Some(at) = order.iter().position(|u| *u == unit.to_ascii_uppercase()) else {
            return false;
        };
        if n == 0 || next.is_some_and(|want| want != at) {
            return false;
        }
        next = Some(at + 1);
        b = &b[n + 1..];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_section_5_8_examples() {
        assert!(is_date_time("1985-04-12T23:20:50.52Z"));
        assert!(is_date_time("1996-12-19T16:39:57-08:00"));
        assert!(is_date_time("1990-12-31T23:59:60Z"));
        assert!(is_date_time("1990-12-31T15:59:60-08:00"));
        assert!(is_date_time("1937-01-01T12:00:27.87+00:20"));
    }

    #[test]
    fn date_boundaries() {
        assert!(is_date("2000-02-29"));
        assert!(!is_date("1900-02-29"));
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(is_date("9999-12-31"));
        assert!(is_date("0000-01-01"));
        assert!(!is_date("2024-13-01"));
        assert!(!is_date("2024-00-01"));
        assert!(!is_date("2024-01-00"));
        assert!(!is_date("2024-04-31"));
        assert!(!is_date("2024-1-01"));
        assert!(!is_date("2024/01/01"));
        assert!(!is_date("2024-01-01T"));
        assert!(!is_date("٢٠٢٤-01-01"));
    }

    #[test]
    fn time_boundaries() {
        assert!(is_time("00:00:00Z"));
        assert!(is_time("23:59:59.999999999z"));
        assert!(is_time("23:59:59+23:59"));
        assert!(!is_time("23:59:59+24:00"));
        assert!(!is_time("23:59:59"));
        assert!(!is_time("23:59:59.Z"));
        assert!(!is_time("23:59:59,5Z"));
        assert!(!is_time("23:59:59+0100"));
        assert!(!is_time("23:59:59+01"));
        assert!(!is_time("24:00:00Z"));
        assert!(!is_time("12:00:61Z"));
        assert!(!is_time("12:00:00ZZ"));
    }

    #[test]
    fn leap_second_only_at_end_of_utc_day() {
        assert!(is_time("23:59:60Z"));
        assert!(is_time("23:59:60.5Z"));
        assert!(is_time("00:59:60+01:00"));
        assert!(is_time("18:59:60-05:00"));
        assert!(is_time("23:59:60-00:00"));
        assert!(!is_time("00:00:60Z"));
        assert!(!is_time("23:59:60+01:00"));
        assert!(!is_date_time("1998-12-31T23:59:60+00:01"));
    }

    #[test]
    fn date_time_separators() {
        assert!(is_date_time("2024-01-01t00:00:00z"));
        assert!(!is_date_time("2024-01-01 00:00:00Z"));
        assert!(!is_date_time("2024-01-01T"));
        assert!(!is_date_time("2024-01-01"));
        assert!(!is_date_time("2024-01-01Tx"));
    }

    #[test]
    fn duration_grammar() {
        for ok in [
            "P1Y", "P1M", "P1D", "P1W", "PT1H", "PT1M", "PT1S", "P1Y2M", "P1M2D", "P1Y2M3D",
            "P1DT1H", "P1YT1S", "PT1H2M3S", "PT1M2S", "P0D", "PT0S", "P10W", "p1d", "P1dt2h",
            "P0000Y",
        ] {
            assert!(is_duration(ok), "{ok}");
        }
        for bad in [
            "", "P", "PT", "P1YT", "T1H", "1D", "P1", "PT1", "P1Y2D", "PT1H2S", "P1D1Y", "P1M1Y",
            "P1W2D", "P1Y1W", "PT1W", "P1H", "PT1D", "P1.5D", "PT0.5S", "P-1D", "P+1D", "P1D ",
            " P1D", "P1DT", "PT1H1H", "P1Y1Y", "P1YT1H1D", "PT1S2M",
        ] {
            assert!(!is_duration(bad), "{bad}");
        }
    }
}
