//! Where in a scenario file an error is: the field's path (`graph.operators[1].parallelism`)
//! at a line and column, so the editor can name the field even when the parser's message
//! does not ("invalid type: string \"2\", expected u32").

/// The path of the value being read at `line`:`column` (1-based, as the parser counts them)
/// of `text`; empty at the top level.
pub fn field_at(text: &str, line: u64, column: u64) -> String {
    /// Where an object is between its fields: its key is part of the path from the moment
    /// it is read until its value is complete.
    #[derive(PartialEq)]
    enum At {
        Key,
        Field,
        Done,
    }
    enum Frame {
        Object(Option<String>, At),
        Array(u32),
    }
    // A value (of whatever kind) was completed in the innermost frame.
    fn done(stack: &mut [Frame]) {
        if let Some(Frame::Object(_, at)) = stack.last_mut() {
            if *at == At::Field {
                *at = At::Done;
            }
        }
    }
    let end = offset(text, line, column);
    let mut stack: Vec<Frame> = Vec::new();
    let mut chars = text[..end].chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => stack.push(Frame::Object(None, At::Key)),
            '[' => stack.push(Frame::Array(0)),
            '}' | ']' => {
                stack.pop();
                done(&mut stack);
            }
            ',' => match stack.last_mut() {
                Some(Frame::Array(i)) => *i += 1,
                Some(Frame::Object(key, at)) => (*key, *at) = (None, At::Key),
                None => {}
            },
            '"' => {
                let mut s = String::new();
                let (mut escaped, mut closed) = (false, false);
                for c in chars.by_ref() {
                    match c {
                        _ if escaped => {
                            escaped = false;
                            s.push(c);
                        }
                        '\\' => escaped = true,
                        '"' => {
                            closed = true;
                            break;
                        }
                        _ => s.push(c),
                    }
                }
                // A string the position cuts short is the value being read: not done.
                match stack.last_mut() {
                    Some(Frame::Object(key, At::Key)) => *key = Some(s),
                    _ if closed => done(&mut stack),
                    _ => {}
                }
            }
            ':' => {
                if let Some(Frame::Object(Some(_), at)) = stack.last_mut() {
                    *at = At::Field;
                }
            }
            c if c.is_whitespace() => {}
            // The end of a number, `true`, `false` or `null`.
            _ => done(&mut stack),
        }
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object(Some(k), At::Key | At::Field) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path += k;
            }
            Frame::Object(..) => {}
            Frame::Array(i) => path += &format!("[{i}]"),
        }
    }
    path
}

/// The byte offset of a 1-based line and column (the character the error is at, itself not
/// read), clamped to the text.
fn offset(text: &str, line: u64, column: u64) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let rest = &text[start..];
    let line_len = rest.find('\n').unwrap_or(rest.len());
    let col = rest[..line_len]
        .char_indices()
        .nth(column.saturating_sub(1) as usize)
        .map_or(line_len, |(i, _)| i);
    start + col
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{presets, Scenario, ScenarioError};

    fn error_path(text: &str) -> (String, String) {
        match Scenario::from_json(text) {
            Err(ScenarioError::Syntax {
                line,
                column,
                message,
            }) => (field_at(text, line, column), message),
            other => panic!("expected a syntax error, got {other:?}"),
        }
    }

    #[test]
    fn names_the_field_of_a_type_error_deep_in_the_graph() {
        let text = presets::wordcount().to_json().replacen(
            "\"parallelism\": 2",
            "\"parallelism\": \"two\"",
            2,
        );
        let (path, message) = error_path(&text);
        assert_eq!(path, "graph.operators[0].parallelism", "{message}");
        assert!(message.contains("invalid type"), "{message}");
    }

    #[test]
    fn names_an_unknown_field_and_the_object_missing_one() {
        let text = presets::alignment().to_json().replacen(
            "\"checkpoint_interval\"",
            "\"checkpoint_intervall\"",
            1,
        );
        let (path, message) = error_path(&text);
        assert_eq!(path, "config.checkpoint_intervall", "{message}");
        assert!(message.contains("unknown field"), "{message}");

        let (path, message) = error_path("{\"name\": \"x\", \"title\": \"y\"}");
        assert_eq!(path, "");
        assert!(message.contains("missing field `graph`"), "{message}");

        // A value missing after a key: the error is at the closing brace, in that field.
        let (path, message) = error_path("{\"name\": }");
        assert_eq!(path, "name", "{message}");
    }

    #[test]
    fn keys_inside_strings_and_escapes_do_not_confuse_it() {
        let text = "{\"a\": \"{[,:\\\"\", \"b\": [1, {\"c\": 2}]}";
        assert_eq!(field_at(text, 1, text.len() as u64 - 3), "b[1].c");
        assert_eq!(field_at(text, 1, 8), "a");
        assert_eq!(field_at(text, 99, 99), "");
    }
}
