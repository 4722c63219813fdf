//! Punycode (RFC 3492), the Bootstring parameters of §5, working on single
//! labels held in fixed buffers so that no allocation is needed.

const BASE: u32 = 36;
const TMIN: u32 = 1;
const TMAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 0x80;

/// Longest label (in code points) any caller needs: a DNS label is at most
/// 63 octets, and decoding never yields more code points than input bytes.
pub(super) const MAX_CHARS: usize = 63;

/// §6.1.
fn adapt(mut delta: u32, num_points: u32, first_time: bool) -> u32 {
    delta /= if first_time { DAMP } else { 2 };
    delta += delta / num_points;
    let mut k = 0;
    while delta > ((BASE - TMIN) * TMAX) / 2 {
        delta /= BASE - TMIN;
        k += BASE;
    }
    k + (BASE - TMIN + 1) * delta / (delta + SKEW)
}

fn threshold(k: u32, bias: u32) -> u32 {
    if k <= bias {
        TMIN
    } else if k >= bias + TMAX {
        TMAX
    } else {
        k - bias
    }
}

fn digit_value(c: u8) -> Option<u32> {
    match c {
        b'a'..=b'z' => Some(u32::from(c - b'a')),
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 26),
        _ => None,
    }
}

fn digit_char(d: u32) -> u8 {
    // `d < BASE` always holds at the call sites.
    if d < 26 {
        b'a' + d as u8
    } else {
        b'0' + (d - 26) as u8
    }
}

/// Decodes (§6.2) into `out`, returning the number of code points, or `None`
/// for malformed input, arithmetic overflow, or output beyond `MAX_CHARS`.
pub(super) fn decode(input: &[u8], out: &mut [char; MAX_CHARS]) -> Option<usize> {
    // A delimiter in the first position is not one (there are no basic
    // code points before it), so it is read as a digit and fails.
    let (basic, encoded) = match input.iter().rposition(|&c| c == b'-') {
        Some(d) if d > 0 => (&input[..d], &input[d + 1..]),
        _ => (&input[..0], input),
    };
    if basic.len() > MAX_CHARS || !basic.is_ascii() {
        return None;
    }
    let mut len = 0;
    for &c in basic {
        out[len] = char::from(c);
        len += 1;
    }
    let (mut n, mut i, mut bias) = (INITIAL_N, 0u32, INITIAL_BIAS);
    let mut pos = 0;
    while pos < encoded.len() {
        let old_i = i;
        let mut w = 1u32;
        let mut k = BASE;
        loop {
            let digit = digit_value(*encoded.get(pos)?)?;
            pos += 1;
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = threshold(k, bias);
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let points = len as u32 + 1;
        bias = adapt(i - old_i, points, old_i == 0);
        n = n.checked_add(i / points)?;
        i %= points;
        // A basic code point must not be encoded (§6.2 "fail if n is basic").
        let c = char::from_u32(n).filter(|c| !c.is_ascii())?;
        if len == MAX_CHARS {
            return None;
        }
        out.copy_within(i as usize..len, i as usize + 1);
        out[i as usize] = c;
        len += 1;
        i += 1;
    }
    Some(len)
}

/// Encodes (§6.3) `input`, handing each output byte to `sink`, which
/// returns `false` to stop early. Returns `false` if stopped or on overflow.
pub(super) fn encode(input: &[char], mut sink: impl FnMut(u8) -> bool) -> bool {
    let mut basic = 0u32;
    for &c in input {
        if c.is_ascii() {
            basic += 1;
            if !sink(c as u8) {
                return false;
            }
        }
    }
    if basic > 0 && !sink(b'-') {
        return false;
    }
    let Ok(total) = u32::try_from(input.len()) else {
        return false;
    };
    let (mut n, mut delta, mut bias, mut h) = (INITIAL_N, 0u32, INITIAL_BIAS, basic);
    while h < total {
        let Some(m) = input.iter().map(|&c| c as u32).filter(|&c| c >= n).min() else {
            return false;
        };
        let Some(d) = (m - n)
            .checked_mul(h + 1)
            .and_then(|x| x.checked_add(delta))
        else {
            return false;
        };
        delta = d;
        n = m;
        for &c in input {
            let c = c as u32;
            if c < n {
                let Some(d) = delta.checked_add(1) else {
                    return false;
                };
                delta = d;
            }
            if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = threshold(k, bias);
                    if q < t {
                        break;
                    }
                    if !sink(digit_char(t + (q - t) % (BASE - t))) {
                        return false;
                    }
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                if !sink(digit_char(q)) {
                    return false;
                }
                bias = adapt(delta, h + 1, h == basic);
                delta = 0;
                h += 1;
            }
        }
        let Some(d) = delta.checked_add(1) else {
            return false;
        };
        delta = d;
        n += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(unicode: &str, punycode: &str) {
        let mut buf = ['\0'; MAX_CHARS];
        let len = decode(punycode.as_bytes(), &mut buf).expect(punycode);
        assert_eq!(buf[..len].iter().collect::<String>(), unicode);
        let chars: Vec<char> = unicode.chars().collect();
        let mut out = Vec::new();
        assert!(encode(&chars, |b| {
            out.push(b);
            true
        }));
        assert_eq!(String::from_utf8(out).unwrap(), punycode);
    }

    /// RFC 3492 §7.1 sample strings (those short enough to be DNS labels,
    /// plus ones exercising mixed case and basic code points).
    #[test]
    fn rfc3492_samples() {
        // (A) Arabic (Egyptian)
        round_trip(
            "\u{644}\u{64a}\u{647}\u{645}\u{627}\u{628}\u{62a}\u{643}\u{644}\u{645}\u{648}\u{634}\u{639}\u{631}\u{628}\u{64a}\u{61f}",
            "egbpdaj6bu4bxfgehfvwxn",
        );
        // (B) Chinese (simplified)
        round_trip(
            "\u{4ed6}\u{4eec}\u{4e3a}\u{4ec0}\u{4e48}\u{4e0d}\u{8bf4}\u{4e2d}\u{6587}",
            "ihqwcrb4cv8a8dqg056pqjye",
        );
        // (L) 3<nen>B<gumi><kinpachi><sensei>
        round_trip(
            "3\u{5e74}B\u{7d44}\u{91d1}\u{516b}\u{5148}\u{751f}",
            "3B-ww4c5e180e575a65lsy2b",
        );
        // (M) <amuro><namie>-with-SUPER-MONKEYS
        round_trip(
            "\u{5b89}\u{5ba4}\u{5948}\u{7f8e}\u{6075}-with-SUPER-MONKEYS",
            "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n",
        );
        // (P) Maji<de>Koi<suru>5<byou><mae>
        round_trip(
            "Maji\u{3067}Koi\u{3059}\u{308b}5\u{79d2}\u{524d}",
            "MajiKoi5-783gue6qz075azm5e",
        );
        // (R) <sono><supiido><de>
        round_trip(
            "\u{305d}\u{306e}\u{30b9}\u{30d4}\u{30fc}\u{30c9}\u{3067}",
            "d9juau41awczczp",
        );
        // (S) -> $1.00 <-
        round_trip("-> $1.00 <-", "-> $1.00 <--");
    }

    #[test]
    fn decode_rejects_malformed() {
        let mut buf = ['\0'; MAX_CHARS];
        for bad in [
            "X",
            "a-",
            "-",
            "99999999999",
            "zzzzzzzzzzzzzz",
            "\u{e9}-a",
            "a_b",
        ] {
            let r = decode(bad.as_bytes(), &mut buf);
            // "a-" decodes to "a"; callers reject it as it has no non-ASCII.
            assert_eq!(r.is_some(), bad == "a-", "{bad}");
        }
        assert_eq!(decode(b"", &mut buf), Some(0));
    }
}
