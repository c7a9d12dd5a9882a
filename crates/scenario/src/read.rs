//! Reading a scenario file: a small JSON parser and the scenario's fields read from what it
//! parsed, by hand.
//!
//! Serde's derived readers did this for every type of the format, but their generated code
//! weighed about 28 KB of the page's gzipped wasm; this one weighs a fraction of that, and
//! knows where every value is, so every error — not only a syntax error — has its line and
//! column. The messages are worded as serde's (`unknown field `x`, expected one of …`,
//! `missing field `graph``, `invalid type: string "2", expected u32`). Writing is by hand too
//! (`write.rs`); `tests/scenario.rs` reads every preset back equal.

use abs_engine::debloat::{BufferDebloat, DEFAULT_DEBLOAT_TARGET};
use abs_engine::model::{Edge, JobGraph, Operator, OperatorKind, OperatorKindFile};
use abs_engine::{BarrierMode, Config, Partitioning};

use super::{Failure, Scenario, ScenarioError};

/// Arrays and objects nested deeper than this are refused (a file of a million `[` must not
/// exhaust the stack).
const MAX_DEPTH: u32 = 64;

/// A parsed JSON value and the byte offset where it starts.
pub(super) struct Node {
    pub(super) at: usize,
    pub(super) value: Json,
}

/// A parsed JSON value. The Flink importer (`flink/`) reads its documents from this too, so
/// the page carries one JSON parser.
pub(super) enum Json {
    Null,
    Bool(bool),
    /// The number's text, read when its type is known (no float parsing is ever needed: a
    /// scenario has integers only).
    Num(String),
    Str(String),
    Arr(Vec<Node>),
    /// Fields in file order, each with the offset just past its key; `end` is the closing
    /// brace's.
    Obj {
        fields: Vec<(usize, String, Node)>,
        end: usize,
    },
}

/// An error at a byte offset of the text.
struct At(usize, String);

/// Parses any JSON document (no scenario fields read): the error is the 1-based line and
/// column and the message, which says where too.
pub(super) fn parse(text: &str) -> Result<Node, (u64, u64, String)> {
    Parser { text, pos: 0 }
        .document()
        .map_err(|At(at, message)| {
            let (line, column) = line_column(text, at);
            (line, column, message)
        })
}

pub fn scenario(text: &str) -> Result<Scenario, ScenarioError> {
    let result = Parser { text, pos: 0 }
        .document()
        .and_then(|n| read_scenario(&n));
    result.map_err(|At(at, message)| {
        let (line, column) = line_column(text, at);
        ScenarioError::Syntax {
            line,
            column,
            message: format!("{message} at line {line} column {column}"),
        }
    })
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, at: usize) -> (u64, u64) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() as u64 + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() as u64 + 1)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn document(mut self) -> Result<Node, At> {
        let node = self.value(0)?;
        self.space();
        if self.pos < self.text.len() {
            return Err(At(self.pos, "trailing characters".into()));
        }
        Ok(node)
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, b: u8, what: &str) -> Result<(), At> {
        self.space();
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(what))
        }
    }

    fn unexpected(&self, what: &str) -> At {
        if self.pos >= self.text.len() {
            At(self.pos, "EOF while parsing a value".into())
        } else {
            At(self.pos, format!("expected {what}"))
        }
    }

    fn value(&mut self, depth: u32) -> Result<Node, At> {
        if depth > MAX_DEPTH {
            return Err(At(self.pos, "recursion limit exceeded".into()));
        }
        self.space();
        let at = self.pos;
        let value = match self.peek() {
            Some(b'{') => {
                self.pos += 1;
                let mut fields = Vec::new();
                self.space();
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                    return Ok(Node {
                        at,
                        value: Json::Obj {
                            fields,
                            end: self.pos - 1,
                        },
                    });
                }
                loop {
                    self.space();
                    if self.peek() != Some(b'"') {
                        // A name without its quotes, or no name at all (a comma before `}`).
                        let bare = self
                            .peek()
                            .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_');
                        return Err(self.unexpected(if bare {
                            "a quoted key"
                        } else {
                            "a string key"
                        }));
                    }
                    let key = self.string()?;
                    // Errors about a key point just past it, as serde's do.
                    let key_at = self.pos;
                    self.expect(b':', "`:`")?;
                    let v = self.value(depth + 1)?;
                    fields.push((key_at, key, v));
                    self.space();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            break Json::Obj {
                                fields,
                                end: self.pos - 1,
                            };
                        }
                        _ => return Err(self.unexpected("`,` or `}`")),
                    }
                }
            }
            Some(b'[') => {
                self.pos += 1;
                let mut items = Vec::new();
                self.space();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                    return Ok(Node {
                        at,
                        value: Json::Arr(items),
                    });
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.space();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            break Json::Arr(items);
                        }
                        _ => return Err(self.unexpected("`,` or `]`")),
                    }
                }
            }
            Some(b'"') => Json::Str(self.string()?),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                self.pos += 1;
                while matches!(
                    self.peek(),
                    Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                ) {
                    self.pos += 1;
                }
                // JSON writes no leading zero (`017`): serde refuses it, so does this reader.
                let digits = self.text[start..self.pos]
                    .trim_start_matches('-')
                    .as_bytes();
                if digits.len() > 1 && digits[0] == b'0' && digits[1].is_ascii_digit() {
                    return Err(At(start, "invalid number: leading zero".into()));
                }
                Json::Num(self.text[start..self.pos].to_string())
            }
            _ => {
                let rest = &self.text[self.pos..];
                let (word, value) = [
                    ("true", Json::Bool(true)),
                    ("false", Json::Bool(false)),
                    ("null", Json::Null),
                ]
                .into_iter()
                .find(|(w, _)| rest.starts_with(w))
                .ok_or_else(|| self.unexpected("value"))?;
                self.pos += word.len();
                value
            }
        };
        Ok(Node { at, value })
    }

    /// A string, the opening quote at `pos`.
    fn string(&mut self) -> Result<String, At> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let rest = &self.text[self.pos..];
            let Some(c) = rest.chars().next() else {
                return Err(At(self.pos, "EOF while parsing a string".into()));
            };
            self.pos += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let esc = self
                        .peek()
                        .ok_or(At(self.pos, "EOF while parsing a string".into()))?;
                    self.pos += 1;
                    out.push(match esc {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode()?,
                        _ => return Err(At(self.pos - 1, "invalid escape".into())),
                    });
                }
                c if (c as u32) < 0x20 => {
                    return Err(At(
                        self.pos - 1,
                        "control character (\\u0000-\\u001F) found while parsing a string".into(),
                    ))
                }
                c => out.push(c),
            }
        }
    }

    /// `\uXXXX` (after the `u`), with a surrogate pair read whole.
    fn unicode(&mut self) -> Result<char, At> {
        let hex = |p: &mut Self| -> Result<u32, At> {
            let digits = p
                .text
                .get(p.pos..p.pos + 4)
                .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()));
            let d = digits.ok_or(At(p.pos, "invalid escape".into()))?;
            p.pos += 4;
            u32::from_str_radix(d, 16).map_err(|_| At(p.pos, "invalid escape".into()))
        };
        let first = hex(self)?;
        let code = if (0xD800..0xDC00).contains(&first) && self.text[self.pos..].starts_with("\\u")
        {
            self.pos += 2;
            let second = hex(self)?;
            0x10000 + ((first - 0xD800) << 10) + (second.wrapping_sub(0xDC00) & 0x3FF)
        } else {
            first
        };
        char::from_u32(code).ok_or(At(self.pos, "invalid unicode code point".into()))
    }
}

// ----- reading the scenario's types from the parsed value -----

/// What a value is, as serde's messages say it.
pub(super) fn what(n: &Node) -> String {
    match &n.value {
        Json::Null => "null".into(),
        Json::Bool(b) => format!("boolean `{b}`"),
        Json::Num(t) if t.contains(['.', 'e', 'E']) => format!("floating point `{t}`"),
        Json::Num(t) => format!("integer `{t}`"),
        Json::Str(s) => format!("string {}", abs_engine::text::Quoted(s)),
        Json::Arr(_) => "sequence".into(),
        Json::Obj { .. } => "map".into(),
    }
}

fn invalid(n: &Node, expected: &str) -> At {
    At(
        n.at,
        format!("invalid type: {}, expected {expected}", what(n)),
    )
}

fn uint(n: &Node, max: u64, name: &str) -> Result<u64, At> {
    match &n.value {
        Json::Num(t) if !t.contains(['.', 'e', 'E']) => match t.parse::<u64>() {
            Ok(v) if v <= max => Ok(v),
            _ => Err(At(
                n.at,
                format!("invalid value: integer `{t}`, expected {name}"),
            )),
        },
        _ => Err(invalid(n, name)),
    }
}

fn u64_of(n: &Node) -> Result<u64, At> {
    uint(n, u64::MAX, "u64")
}

fn u32_of(n: &Node) -> Result<u32, At> {
    uint(n, u64::from(u32::MAX), "u32").map(|v| v as u32)
}

fn bool_of(n: &Node) -> Result<bool, At> {
    match n.value {
        Json::Bool(b) => Ok(b),
        _ => Err(invalid(n, "a boolean")),
    }
}

fn string_of(n: &Node) -> Result<String, At> {
    match &n.value {
        Json::Str(s) => Ok(s.clone()),
        _ => Err(invalid(n, "a string")),
    }
}

fn list_of<T>(n: &Node, item: impl Fn(&Node) -> Result<T, At>) -> Result<Vec<T>, At> {
    match &n.value {
        Json::Arr(items) => items.iter().map(item).collect(),
        _ => Err(invalid(n, "a sequence")),
    }
}

/// `null` is `None`.
fn option_of<T>(n: &Node, item: impl Fn(&Node) -> Result<T, At>) -> Result<Option<T>, At> {
    match n.value {
        Json::Null => Ok(None),
        _ => item(n).map(Some),
    }
}

fn variant<T: Copy>(n: &Node, names: &[(&str, T)]) -> Result<T, At> {
    let Json::Str(s) = &n.value else {
        return Err(invalid(n, "a string"));
    };
    names
        .iter()
        .find(|(k, _)| k == s)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let all: Vec<&str> = names.iter().map(|(k, _)| *k).collect();
            At(
                n.at,
                format!(
                    "unknown variant `{s}`, expected one of `{}`",
                    all.join("`, `")
                ),
            )
        })
}

/// An object's fields, each looked up by name once; unknown and repeated names are refused
/// where they are.
struct Fields<'a> {
    fields: &'a [(usize, String, Node)],
    end: usize,
}

impl<'a> Fields<'a> {
    fn of(n: &'a Node, what: &str, known: &[&str]) -> Result<Fields<'a>, At> {
        let Json::Obj { fields, end } = &n.value else {
            return Err(invalid(n, what));
        };
        for (i, (at, name, _)) in fields.iter().enumerate() {
            if !known.contains(&name.as_str()) {
                return Err(At(
                    *at,
                    format!(
                        "unknown field `{name}`, expected one of `{}`",
                        known.join("`, `")
                    ),
                ));
            }
            if fields[..i].iter().any(|(_, other, _)| other == name) {
                return Err(At(*at, format!("duplicate field `{name}`")));
            }
        }
        Ok(Fields { fields, end: *end })
    }

    fn get(&self, name: &str) -> Option<&'a Node> {
        self.fields
            .iter()
            .find(|(_, k, _)| k == name)
            .map(|(_, _, v)| v)
    }

    fn need(&self, name: &str) -> Result<&'a Node, At> {
        self.get(name)
            .ok_or_else(|| At(self.end, format!("missing field `{name}`")))
    }

    /// The field read by `read`, or `default` when it is absent.
    fn or<T>(
        &self,
        name: &str,
        default: T,
        read: impl Fn(&Node) -> Result<T, At>,
    ) -> Result<T, At> {
        self.get(name).map_or(Ok(default), read)
    }
}

fn read_scenario(n: &Node) -> Result<Scenario, At> {
    let f = Fields::of(
        n,
        "struct Scenario",
        &[
            "name", "title", "lesson", "graph", "config", "seed", "failures",
        ],
    )?;
    Ok(Scenario {
        name: string_of(f.need("name")?)?,
        title: string_of(f.need("title")?)?,
        lesson: f.or("lesson", String::new(), string_of)?,
        graph: read_graph(f.need("graph")?)?,
        config: f.or("config", Config::default(), read_config)?,
        seed: f.or("seed", 0, u64_of)?,
        failures: f.or("failures", Vec::new(), |n| list_of(n, read_failure))?,
    })
}

fn read_failure(n: &Node) -> Result<Failure, At> {
    let f = Fields::of(n, "struct Failure", &["task", "at"])?;
    Ok(Failure {
        task: string_of(f.need("task")?)?,
        at: u64_of(f.need("at")?)?,
    })
}

fn read_graph(n: &Node) -> Result<JobGraph, At> {
    let f = Fields::of(n, "struct JobGraph", &["operators", "edges"])?;
    Ok(JobGraph {
        operators: list_of(f.need("operators")?, read_operator)?,
        edges: list_of(f.need("edges")?, read_edge)?,
    })
}

fn read_operator(n: &Node) -> Result<Operator, At> {
    let f = Fields::of(
        n,
        "struct Operator",
        &["name", "kind", "parallelism", "processing_time"],
    )?;
    Ok(Operator {
        name: string_of(f.need("name")?)?,
        kind: read_kind(f.need("kind")?)?,
        parallelism: u32_of(f.need("parallelism")?)?,
        processing_time: f.or("processing_time", 1, u64_of)?,
    })
}

fn read_kind(n: &Node) -> Result<OperatorKind, At> {
    let f = Fields::of(
        n,
        "an operator kind",
        &[
            "type",
            "lines",
            "interval",
            "bounded",
            "min_len",
            "transactional",
            "has_token",
            "hold",
            "rounds",
            "balance",
            "max_transfer",
        ],
    )?;
    let u64s = |name| f.get(name).map(u64_of).transpose();
    let u32s = |name| f.get(name).map(u32_of).transpose();
    let bools = |name| f.get(name).map(bool_of).transpose();
    let file = OperatorKindFile {
        kind: string_of(f.need("type")?)?,
        lines: f.get("lines").map(|l| list_of(l, string_of)).transpose()?,
        interval: u64s("interval")?,
        bounded: bools("bounded")?,
        min_len: u32s("min_len")?,
        transactional: bools("transactional")?,
        has_token: bools("has_token")?,
        hold: u64s("hold")?,
        rounds: u32s("rounds")?,
        balance: u64s("balance")?,
        max_transfer: u64s("max_transfer")?,
    };
    OperatorKind::try_from(file).map_err(|message| At(f.end, message))
}

fn read_edge(n: &Node) -> Result<Edge, At> {
    let f = Fields::of(
        n,
        "struct Edge",
        &["from", "to", "partitioning", "latency", "capacity", "fifo"],
    )?;
    let defaults = Edge::new("", "", Partitioning::Forward);
    Ok(Edge {
        from: string_of(f.need("from")?)?,
        to: string_of(f.need("to")?)?,
        partitioning: variant(
            f.need("partitioning")?,
            &[
                ("forward", Partitioning::Forward),
                ("rebalance", Partitioning::Rebalance),
                ("hash", Partitioning::Hash),
                ("broadcast", Partitioning::Broadcast),
                ("rescale", Partitioning::Rescale),
            ],
        )?,
        latency: f.or("latency", defaults.latency, u64_of)?,
        capacity: f.or("capacity", defaults.capacity, u32_of)?,
        fifo: f.or("fifo", defaults.fifo, bool_of)?,
    })
}

fn read_config(n: &Node) -> Result<Config, At> {
    let f = Fields::of(
        n,
        "struct Config",
        &[
            "mode",
            "checkpoint_interval",
            "first_trigger",
            "max_concurrent_checkpoints",
            "min_pause",
            "timeout",
            "finished_channels_align",
            "retained_checkpoints",
            "tolerable_failed_checkpoints",
            "initiators",
            "aligned_checkpoint_timeout",
            "restart_delay",
            "buffer_debloat",
            "chaining",
        ],
    )?;
    let d = Config::default();
    let modes: Vec<(&str, BarrierMode)> =
        BarrierMode::ALL.iter().map(|m| (m.as_str(), *m)).collect();
    Ok(Config {
        mode: f.or("mode", d.mode, |n| variant(n, &modes))?,
        checkpoint_interval: f.or("checkpoint_interval", d.checkpoint_interval, |n| {
            option_of(n, u64_of)
        })?,
        first_trigger: f.or("first_trigger", d.first_trigger, u64_of)?,
        max_concurrent_checkpoints: f.or(
            "max_concurrent_checkpoints",
            d.max_concurrent_checkpoints,
            u32_of,
        )?,
        min_pause: f.or("min_pause", d.min_pause, u64_of)?,
        timeout: f.or("timeout", d.timeout, u64_of)?,
        finished_channels_align: f.or(
            "finished_channels_align",
            d.finished_channels_align,
            bool_of,
        )?,
        retained_checkpoints: f.or("retained_checkpoints", d.retained_checkpoints, u32_of)?,
        tolerable_failed_checkpoints: f.or(
            "tolerable_failed_checkpoints",
            d.tolerable_failed_checkpoints,
            |n| option_of(n, u32_of),
        )?,
        initiators: f.or("initiators", d.initiators, |n| list_of(n, string_of))?,
        aligned_checkpoint_timeout: f.or(
            "aligned_checkpoint_timeout",
            d.aligned_checkpoint_timeout,
            |n| option_of(n, u64_of),
        )?,
        restart_delay: f.or("restart_delay", d.restart_delay, u64_of)?,
        buffer_debloat: f.or("buffer_debloat", d.buffer_debloat, |n| {
            option_of(n, read_debloat).map(Option::flatten)
        })?,
        chaining: f.or("chaining", d.chaining, bool_of)?,
    })
}

/// `true` (Flink's default target, scaled), `false` (off) or `{"target": T}`.
fn read_debloat(n: &Node) -> Result<Option<BufferDebloat>, At> {
    if let Json::Bool(on) = n.value {
        return Ok(on.then_some(BufferDebloat {
            target: DEFAULT_DEBLOAT_TARGET,
        }));
    }
    let f = Fields::of(n, "struct BufferDebloat", &["target"])?;
    Ok(Some(BufferDebloat {
        target: u64_of(f.need("target")?)?,
    }))
}

pub mod lesson;

#[cfg(test)]
mod tests;
