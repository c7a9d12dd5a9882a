//! Reading Flink's REST JSON by field path, with errors that name the path.
//!
//! Flink's responses are read leniently where the scenario format is strict: a REST response
//! gains fields from release to release, so unknown fields are ignored, and Flink writes `-1`
//! for a figure it does not have yet (a checkpoint nobody acknowledged), read here as "none".
//! What is read must have the right type, and a wrong one is refused with its path
//! (`history[3].status: expected a string, found the number 3`).

use std::fmt;

use super::super::read::{Json, Node};
use super::ImportError;
use abs_engine::text::Quoted;

/// Where a value sits in the document, built on the stack as the reader descends and written
/// out only for an error.
#[derive(Clone, Copy)]
pub(crate) enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    pub(crate) fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    pub(crate) fn index(&'a self, i: usize) -> Path<'a> {
        Path::Index(self, i)
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(Path::Root, k) => f.write_str(k),
            Path::Key(p, k) => write!(f, "{p}.{k}"),
            Path::Index(p, i) => write!(f, "{p}[{i}]"),
        }
    }
}

/// The path as an error names it: the document itself has no path.
pub(crate) fn path_text(path: &Path) -> String {
    match path {
        Path::Root => "the document".into(),
        p => p.to_string(),
    }
}

pub(crate) fn wrong_type(node: &Node, path: &Path, expected: &'static str) -> ImportError {
    ImportError::WrongType {
        path: path_text(path),
        expected,
        found: found(node),
    }
}

/// What a value is, for "expected …, found …": `the number 3`, `the string "3"`, `an
/// object`.
pub(crate) fn found(node: &Node) -> String {
    match &node.value {
        Json::Null => "null".into(),
        Json::Bool(b) => format!("the boolean {b}"),
        Json::Num(t) => format!("the number {t}"),
        Json::Str(s) => format!("the string {}", Quoted(s)),
        Json::Arr(_) => "an array".into(),
        Json::Obj { .. } => "an object".into(),
    }
}

/// An object of the document and its path.
#[derive(Clone, Copy)]
pub(crate) struct Obj<'a> {
    pub(crate) fields: &'a [(usize, String, Node)],
    pub(crate) path: &'a Path<'a>,
}

impl<'a> Obj<'a> {
    pub(crate) fn of(node: &'a Node, path: &'a Path<'a>) -> Result<Obj<'a>, ImportError> {
        match &node.value {
            Json::Obj { fields, .. } => Ok(Obj { fields, path }),
            _ => Err(wrong_type(node, path, "an object")),
        }
    }

    /// The field, unless it is absent or `null` (Flink writes `null` for what it lacks).
    pub(crate) fn get(&self, key: &str) -> Option<&'a Node> {
        self.fields
            .iter()
            .find(|(_, k, _)| k == key)
            .map(|(_, _, v)| v)
            .filter(|v| !matches!(v.value, Json::Null))
    }

    pub(crate) fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = &'a str> {
        self.fields.iter().map(|(_, k, _)| k.as_str())
    }

    fn missing(&self, key: &str) -> ImportError {
        ImportError::Missing {
            path: path_text(self.path),
            field: key.to_string(),
        }
    }

    pub(crate) fn need(&self, key: &str) -> Result<&'a Node, ImportError> {
        self.get(key).ok_or_else(|| self.missing(key))
    }

    /// A string field; `None` when absent.
    pub(crate) fn str(&self, key: &str) -> Result<Option<&'a str>, ImportError> {
        self.get(key)
            .map(|n| string_of(n, &self.path.key(key)))
            .transpose()
    }

    pub(crate) fn need_str(&self, key: &str) -> Result<&'a str, ImportError> {
        self.str(key)?.ok_or_else(|| self.missing(key))
    }

    /// A whole number; `None` when absent or negative (Flink's `-1`: not known).
    pub(crate) fn num(&self, key: &str) -> Result<Option<u64>, ImportError> {
        match self.get(key) {
            Some(n) => number_of(n, &self.path.key(key)),
            None => Ok(None),
        }
    }

    /// A whole number that must be there and be ≥ 0.
    pub(crate) fn need_num(&self, key: &str) -> Result<u64, ImportError> {
        let n = self.need(key)?;
        number_of(n, &self.path.key(key))?.ok_or_else(|| ImportError::WrongType {
            path: path_text(&self.path.key(key)),
            expected: "a whole number ≥ 0",
            found: found(n),
        })
    }

    /// A figure that is 0 when absent or not known.
    pub(crate) fn figure(&self, key: &str) -> Result<u64, ImportError> {
        Ok(self.num(key)?.unwrap_or(0))
    }

    pub(crate) fn bool(&self, key: &str) -> Result<Option<bool>, ImportError> {
        match self.get(key) {
            Some(Node {
                value: Json::Bool(b),
                ..
            }) => Ok(Some(*b)),
            Some(n) => Err(wrong_type(n, &self.path.key(key), "a boolean")),
            None => Ok(None),
        }
    }
}

pub(crate) fn string_of<'a>(node: &'a Node, path: &Path) -> Result<&'a str, ImportError> {
    match &node.value {
        Json::Str(s) => Ok(s),
        _ => Err(wrong_type(node, path, "a string")),
    }
}

/// The items of an array.
pub(crate) fn array_of<'a>(node: &'a Node, path: &Path) -> Result<&'a [Node], ImportError> {
    match &node.value {
        Json::Arr(items) => Ok(items),
        _ => Err(wrong_type(node, path, "an array")),
    }
}

/// A whole number: `Some` when ≥ 0, `None` when negative. Anything else — a fraction, a
/// string, a number beyond 64 bits — is refused.
pub(crate) fn number_of(node: &Node, path: &Path) -> Result<Option<u64>, ImportError> {
    let Json::Num(text) = &node.value else {
        return Err(wrong_type(node, path, "a whole number"));
    };
    if let Some(digits) = text.strip_prefix('-') {
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return Ok(None);
        }
    } else if let Ok(v) = text.parse::<u64>() {
        return Ok(Some(v));
    }
    Err(wrong_type(node, path, "a whole number"))
}
