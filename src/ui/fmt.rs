//! Numbers for attributes and labels, written with integer arithmetic only: Rust's float
//! formatting and parsing machinery would add tens of kilobytes to the page.

/// `v` rounded to `decimals` places, trailing zeros (and a trailing point) dropped.
pub fn num(v: f64, decimals: u32) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    let scale = 10i64.pow(decimals.min(6));
    let t = (v * scale as f64).round() as i64;
    let sign = if t < 0 { "-" } else { "" };
    let t = t.unsigned_abs();
    let (whole, frac) = (t / scale as u64, t % scale as u64);
    if frac == 0 {
        return format!("{sign}{whole}");
    }
    let mut f = format!("{frac:0width$}", width = decimals as usize);
    while f.ends_with('0') {
        f.pop();
    }
    format!("{sign}{whole}.{f}")
}

/// `v` limited to `lo..=hi`. `f64::clamp` would link Rust's float formatting (for its panic
/// message, about 12 KB of wasm); this cannot panic.
pub fn clamp(v: f64, lo: f64, hi: f64) -> f64 {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

/// Text from outside (a scenario's names) as it may stand in markup written as a string:
/// never markup itself.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out += "&amp;",
            '<' => out += "&lt;",
            '>' => out += "&gt;",
            '"' => out += "&quot;",
            '\'' => out += "&#39;",
            c => out.push(c),
        }
    }
    out
}

/// One decimal, for SVG coordinates.
pub fn px(v: f64) -> String {
    num(v, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_text_is_never_markup() {
        assert_eq!(
            escape("<img src=x onerror=\"alert('1')\"> & co"),
            "&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; co"
        );
        assert_eq!(escape("Count#1 计数"), "Count#1 计数");
    }

    #[test]
    fn numbers_read_as_expected() {
        assert_eq!(px(12.34), "12.3");
        assert_eq!(px(-0.05), "-0.1");
        assert_eq!(px(3.0), "3");
        assert_eq!(num(0.25, 2), "0.25");
        assert_eq!(num(-1.75, 2), "-1.75");
        assert_eq!(num(99.6, 0), "100");
        assert_eq!(num(f64::NAN, 2), "0");
        assert_eq!(num(0.5, 2), "0.5");
    }
}
