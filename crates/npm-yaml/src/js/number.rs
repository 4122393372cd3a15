//! JavaScript number semantics: `String(number)`, `parseInt`, `parseFloat`.

/// JS `String(x)` / `Number.prototype.toString()` for a double.
///
/// Shortest round-trip digits (ECMA-262 Number::toString), exponent form for
/// values `>= 1e21` or `< 1e-6`, `-0` renders as `"0"`.
pub fn js_number_to_string(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    let neg = x < 0.0;
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddddde[-]x".
    let e = format!("{:e}", x.abs());
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut digits: String = mant.chars().filter(|c| *c != '.').collect();
    if digits.len() >= 15 {
        digits = tie_to_even(x.abs(), digits, exp);
    }
    let k = digits.len() as i32;
    let n = exp + 1; // position of the decimal point
    let mut out = String::with_capacity(k as usize + 8);
    if neg {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(&digits);
        for _ in 0..(n - k) {
            out.push('0');
        }
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        for _ in 0..(-n) {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        let e = n - 1;
        if e >= 0 {
            out.push('+');
        }
        out.push_str(&e.to_string());
    }
    out
}

/// ECMAScript Number::toString picks, among equally close shortest digit
/// strings, the even one; Rust's shortest formatting may pick the odd one
/// when `x` lies exactly halfway between two candidates.
fn tie_to_even(x: f64, digits: String, exp: i32) -> String {
    let k = digits.len();
    let exact = format!("{:.800e}", x);
    let Some((m, e)) = exact.split_once('e') else {
        return digits;
    };
    if e.parse::<i32>().ok() != Some(exp) {
        return digits;
    }
    let ed: Vec<u8> = m.bytes().filter(|c| *c != b'.').collect();
    if ed.len() <= k + 1 || ed[k] != b'5' || ed[k + 1..].iter().any(|&c| c != b'0') {
        return digits;
    }
    // candidates: truncated and truncated + 1 (in the last place)
    let low: Vec<u8> = ed[..k].to_vec();
    let chosen = if (low[k - 1] - b'0').is_multiple_of(2) {
        low
    } else {
        let mut up = low.clone();
        let mut i = k;
        loop {
            if i == 0 {
                return digits; // carry out of the leading digit: keep Rust's choice
            }
            i -= 1;
            if up[i] == b'9' {
                up[i] = b'0';
            } else {
                up[i] += 1;
                break;
            }
        }
        up
    };
    let cand = String::from_utf8(chosen).unwrap_or_default();
    let check = format!("{}.{}e{}", &cand[..1], &cand[1..], exp);
    if check.parse::<f64>().ok() != Some(x) {
        return digits;
    }
    let trimmed = cand.trim_end_matches('0');
    if trimmed.is_empty() { cand[..1].to_string() } else { trimmed.to_string() }
}

/// `parseInt(s, 10)` for a string already known to match `^[-+]?[0-9]+$`.
pub fn parse_decimal_int(s: &str) -> f64 {
    // Rust's float parser is correctly rounded for arbitrarily long inputs,
    // which is what V8 does for radix 10 (it uses strtod).
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let v: f64 = digits.parse().unwrap_or(f64::NAN);
    if neg { -v } else { v }
}

/// `parseInt(digits, radix)` for radix 2, 8 or 16 with only valid digits,
/// correctly rounded (round half to even) like V8.
pub fn parse_pow2_radix(digits: &str, radix: u32) -> f64 {
    let bits_per_digit = match radix {
        16 => 4,
        8 => 3,
        _ => 1,
    };
    // Skip leading zeros.
    let d: Vec<u32> = digits.chars().filter_map(|c| c.to_digit(radix)).skip_while(|v| *v == 0).collect();
    if d.is_empty() {
        return 0.0;
    }
    // Collect bits MSB first.
    let first = d[0];
    let first_bits = 32 - first.leading_zeros();
    let total_bits = first_bits as u64 + (d.len() as u64 - 1) * bits_per_digit as u64;
    let mut mant: u64 = 0;
    let mut taken: u32 = 0;
    let mut round_bit = false;
    let mut sticky = false;
    let mut push_bit = |b: bool, mant: &mut u64, taken: &mut u32| {
        if *taken < 53 {
            *mant = (*mant << 1) | b as u64;
            *taken += 1;
        } else if *taken == 53 {
            round_bit = b;
            *taken += 1;
        } else if b {
            sticky = true;
        }
    };
    for i in (0..first_bits).rev() {
        push_bit((first >> i) & 1 == 1, &mut mant, &mut taken);
    }
    for v in &d[1..] {
        for i in (0..bits_per_digit).rev() {
            push_bit((v >> i) & 1 == 1, &mut mant, &mut taken);
        }
    }
    if total_bits <= 53 {
        return mant as f64;
    }
    let mut exp = total_bits as i64 - 53;
    if round_bit && (sticky || mant & 1 == 1) {
        mant += 1;
        if mant == 1 << 53 {
            mant >>= 1;
            exp += 1;
        }
    }
    if exp > 1100 {
        return f64::INFINITY;
    }
    let mut v = mant as f64;
    let mut e = exp;
    while e > 0 {
        let step = e.min(1000);
        v *= 2f64.powi(step as i32);
        e -= step;
    }
    v
}

/// `parseFloat(s)` for strings matching the YAML core float regexes.
pub fn parse_float(s: &str) -> f64 {
    let (neg, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    // Normalise forms Rust might not accept: ".5" and "1." and "1.e5".
    let mut norm = String::with_capacity(rest.len() + 2);
    if rest.starts_with('.') {
        norm.push('0');
    }
    let (m, e) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    norm.push_str(m);
    if m.ends_with('.') {
        norm.push('0');
    }
    if let Some(e) = e {
        norm.push('e');
        norm.push_str(e);
    }
    let v: f64 = norm.parse().unwrap_or(f64::NAN);
    if neg { -v } else { v }
}

/// A decimal number string as JS `Number()` reads it (NaN when malformed).
pub fn parse_float_lenient(s: &str) -> f64 {
    let mut norm = String::with_capacity(s.len() + 2);
    if s.starts_with('.') {
        norm.push('0');
    }
    let (m, e) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    if m.is_empty() || m == "." || m.matches('.').count() > 1 {
        return f64::NAN;
    }
    norm.push_str(m);
    if m.ends_with('.') {
        norm.push('0');
    }
    if let Some(e) = e {
        if e.is_empty() {
            return f64::NAN;
        }
        norm.push('e');
        norm.push_str(e);
    }
    norm.parse().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_string_basics() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (0.1, "0.1"),
            (0.30000000000000004, "0.30000000000000004"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (9007199254740993.0, "9007199254740992"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (123e-20, "1.23e-18"),
            (100.0, "100"),
            (12.34, "12.34"),
            (158896330570759.12, "158896330570759.12"),
        ];
        for (x, s) in cases {
            assert_eq!(js_number_to_string(*x), *s, "{x}");
        }
    }

    #[test]
    fn pow2_parse() {
        assert_eq!(parse_pow2_radix("ff", 16), 255.0);
        assert_eq!(parse_pow2_radix("777", 8), 511.0);
        assert_eq!(parse_pow2_radix("0", 8), 0.0);
        assert_eq!(parse_pow2_radix("20000000000001", 16), 9007199254740992.0);
        assert_eq!(parse_pow2_radix("20000000000003", 16), 9007199254740996.0);
        assert_eq!(parse_pow2_radix("FFFFFFFFFFFFFFFF", 16), 18446744073709552000.0);
    }
}
