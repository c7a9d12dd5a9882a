//! Names for job vertices, from Flink's descriptions.
//!
//! A plan's description of a vertex is HTML-escaped text (`-&gt;`, `<br/>`, `&#92;`), the
//! operators of its chain joined by ` -> ` or, since 1.15, written as a tree (`+- `, `:- `)
//! with table plans' argument lists and `[3]:` ids. The page needs short names that read as
//! Flink's web UI's and are unique.

/// The operators a description names, in chain order, cleaned for names: HTML entities and
/// `<br/>` undone, split at ` -> ` (a chain) and at lines (the tree Flink writes since 1.15,
/// `+- ` and `:- ` under the first), each shortened before its argument list
/// (`Window(TumblingEventTimeWindows(5000), …)` is `Window`) and stripped of `[3]:` ids.
pub fn chain_parts(description: &str) -> Vec<String> {
    let text = unescape_html(description);
    let mut parts = Vec::new();
    for line in text.split(['\n', '\r']) {
        for piece in line.split(" -> ") {
            let mut p = piece
                .trim_start_matches([' ', '\t', '|', '+', ':', '-'])
                .trim();
            // `[3]:TableSourceScan(…)`: the operator's number in the tree.
            if p.starts_with('[') {
                if let Some(end) = p.find("]:") {
                    p = &p[end + 2..];
                }
            }
            let short = match p.find('(') {
                Some(at) if at > 0 => &p[..at],
                _ => p,
            };
            let cleaned: String = short
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace('#', "");
            let cleaned = cleaned.trim().to_string();
            if !cleaned.is_empty() {
                parts.push(truncate(&cleaned, 40));
            }
        }
    }
    parts
}

/// A vertex's name: its chain's parts joined by arrows, at most about 60 characters; the
/// start of its id when the description names nothing.
pub(super) fn name_of(parts: &[String], id: &str) -> String {
    if parts.is_empty() {
        let short: String = id.chars().take(8).collect();
        return format!("Vertex {short}");
    }
    let mut name = String::new();
    for (i, p) in parts.iter().enumerate() {
        let sep = if i == 0 { "" } else { " → " };
        if i > 0 && name.chars().count() + sep.chars().count() + p.chars().count() > 60 {
            name.push_str(" → …");
            break;
        }
        name.push_str(sep);
        name.push_str(p);
    }
    name
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max - 1).collect();
        t.push('…');
        t
    }
}

/// Undoes the HTML escaping Flink applies to descriptions (`&gt;`, `&#92;` …) and turns
/// `<br/>` into a line break.
fn unescape_html(s: &str) -> String {
    let s = s
        .replace("<br/>", "\n")
        .replace("<br />", "\n")
        .replace("<br>", "\n");
    let mut out = String::with_capacity(s.len());
    let mut rest = s.as_str();
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let entity = rest
            .find(';')
            .filter(|&end| end <= 10)
            .map(|end| &rest[..=end]);
        let decoded = entity.and_then(|e| match e {
            "&lt;" => Some('<'),
            "&gt;" => Some('>'),
            "&amp;" => Some('&'),
            "&quot;" => Some('"'),
            "&apos;" => Some('\''),
            "&nbsp;" => Some(' '),
            _ => {
                let num = e.strip_prefix("&#")?.strip_suffix(';')?;
                let code = match num.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                    None => num.parse::<u32>().ok()?,
                };
                char::from_u32(code)
            }
        });
        match (entity, decoded) {
            (Some(e), Some(c)) => {
                out.push(c);
                rest = &rest[e.len()..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_become_chain_parts() {
        // Flink escapes its descriptions as HTML: the chain's arrow comes as `-&gt;`.
        assert_eq!(
            chain_parts("Source: Socket Stream -&gt; Flat Map"),
            ["Source: Socket Stream", "Flat Map"]
        );
        assert_eq!(
            chain_parts("Source: Socket Stream -> Flat Map"),
            ["Source: Socket Stream", "Flat Map"]
        );
        assert_eq!(
            chain_parts("Keyed Aggregation<br/>+- Sink: Print to Std. Out<br/>"),
            ["Keyed Aggregation", "Sink: Print to Std. Out"]
        );
        assert_eq!(
            chain_parts("[2]:Calc(select=[a, b])<br/>:- [3]:Window(Tumbling(5000), x)<br/>   +- [4]:Sink: T"),
            ["Calc", "Window", "Sink: T"]
        );
        assert_eq!(
            chain_parts("a &#92; b &amp;&bogus; c#1"),
            ["a \\ b &&bogus; c1"]
        );
        assert_eq!(chain_parts("  <br/> "), Vec::<String>::new());
    }

    #[test]
    fn names_are_capped_at_part_boundaries() {
        let parts: Vec<String> = (0..10).map(|i| format!("Operator number {i}")).collect();
        let name = name_of(&parts, "x");
        assert!(
            name.ends_with(" → …") && name.chars().count() < 70,
            "{name}"
        );
        assert_eq!(name_of(&[], "0123456789abcdef"), "Vertex 01234567");
    }
}
