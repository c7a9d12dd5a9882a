//! A scenario in a link: its compact JSON, compressed (LZ77) and written in URL-safe base64,
//! so that an edited scenario travels in `?scenario=…` without a server.
//!
//! The format, after base64url (no padding): a version byte, then blocks of
//! `literal count, literals, match length, match distance` (counts as LEB128 varints), ending
//! with a block whose match length is 0. Decoding checks every count against what is there
//! and stops at [`MAX_SCENARIO_BYTES`], so a truncated or hand-edited link is an error, never
//! a panic or a runaway allocation.

use std::fmt;

use super::{Scenario, ScenarioError, MAX_SCENARIO_BYTES};
use abs_engine::ActionError;

const VERSION: u8 = 1;
const MIN_MATCH: usize = 5;
const MAX_MATCH: usize = 1 << 12;
const WINDOW: usize = 1 << 15;
const HASH_BITS: u32 = 12;
/// How many earlier positions with the same hash are tried for the longest match.
const CHAIN: usize = 32;

/// The scenario as a link's `scenario` value.
pub fn encode(scenario: &Scenario) -> String {
    let json = scenario.to_compact_json();
    base64url(&compress(json.as_bytes()))
}

/// `text` (a scenario's JSON as given) as a link's `scenario` value, uncompressed: one block
/// of literals, which [`decode`] reads as it reads [`encode`]'s. For the student's builds,
/// which do not carry the compressor: they pass on the code a link brought, and word only a
/// scenario the host page sent this way (its link about 4/3 of the text's length).
pub fn stored(text: &str) -> String {
    let mut out = vec![VERSION];
    varint(&mut out, text.len());
    out.extend_from_slice(text.as_bytes());
    varint(&mut out, 0);
    base64url(&out)
}

/// Why a link to a moment could not be followed: its scenario code (`scenario=`) or its
/// choices (`choices=`). Typed, so that the page says it in its own language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    NotBase64,
    NotUtf8,
    /// The code ends before the scenario does.
    CutShort,
    UnknownVersion(u8),
    MalformedCount,
    TrailingBytes,
    /// A back-reference to before the scenario's start, or past its size limit.
    BadReference,
    /// The code reads, but the scenario does not validate.
    Scenario(ScenarioError),
    /// A `choices` entry that is no choice, or out of step order (as the link spells it).
    Choice(String),
    /// A choice the engine refuses at its step (a link from another version, or edited).
    ChoiceRefused {
        step: u64,
        error: ActionError,
    },
    /// A choice for a step the replay had already passed.
    ChoicePassed(u64),
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::NotBase64 => write!(f, "not URL-safe base64"),
            LinkError::NotUtf8 => write!(f, "not UTF-8 text"),
            LinkError::CutShort => write!(f, "the scenario in the link is cut short"),
            LinkError::UnknownVersion(v) => write!(f, "unknown scenario code version {v}"),
            LinkError::MalformedCount => write!(f, "a malformed count"),
            LinkError::TrailingBytes => write!(f, "bytes after the end of the scenario"),
            LinkError::BadReference => write!(f, "a reference outside the scenario"),
            LinkError::Scenario(e) => e.fmt(f),
            LinkError::Choice(entry) => write!(f, "choice {}", abs_engine::text::Quoted(entry)),
            LinkError::ChoiceRefused { step, error } => {
                write!(f, "choice at step {step}: {error}")
            }
            LinkError::ChoicePassed(step) => write!(f, "choice at step {step}"),
        }
    }
}

impl std::error::Error for LinkError {}

/// The scenario a link's `scenario` value holds, validated as a pasted file would be.
pub fn decode(text: &str) -> Result<Scenario, LinkError> {
    Scenario::from_json(&decode_json(text)?).map_err(LinkError::Scenario)
}

/// [`decode`] for the page: a job larger than it runs is refused before it is built.
#[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
pub fn decode_for_page(text: &str) -> Result<Scenario, LinkError> {
    Scenario::from_json_for_page(&decode_json(text)?).map_err(LinkError::Scenario)
}

fn decode_json(text: &str) -> Result<String, LinkError> {
    let bytes = unbase64url(text).ok_or(LinkError::NotBase64)?;
    let json = decompress(&bytes)?;
    String::from_utf8(json).map_err(|_| LinkError::NotUtf8)
}

fn hash(b: &[u8]) -> usize {
    let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    (v.wrapping_mul(2_654_435_761) >> (32 - HASH_BITS)) as usize
}

fn varint(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

pub fn compress(input: &[u8]) -> Vec<u8> {
    let mut out = vec![VERSION];
    // `head[h]`: the latest position whose next bytes hash to h; `prev[i]`: the one before i.
    let mut head = vec![usize::MAX; 1 << HASH_BITS];
    let mut prev = vec![usize::MAX; input.len()];
    let insert = |i: usize, head: &mut [usize], prev: &mut [usize]| {
        if i + MIN_MATCH <= input.len() {
            let h = hash(&input[i..]);
            prev[i] = head[h];
            head[h] = i;
        }
    };
    let (mut i, mut literal_start) = (0, 0);
    while i + MIN_MATCH <= input.len() {
        let (mut best, mut best_len) = (0, 0);
        let mut candidate = head[hash(&input[i..])];
        for _ in 0..CHAIN {
            if candidate == usize::MAX || i - candidate > WINDOW {
                break;
            }
            let len = input[candidate..]
                .iter()
                .zip(&input[i..])
                .take(MAX_MATCH)
                .take_while(|(a, b)| a == b)
                .count();
            if len > best_len {
                (best, best_len) = (candidate, len);
            }
            candidate = prev[candidate];
        }
        if best_len < MIN_MATCH {
            insert(i, &mut head, &mut prev);
            i += 1;
            continue;
        }
        varint(&mut out, i - literal_start);
        out.extend_from_slice(&input[literal_start..i]);
        varint(&mut out, best_len);
        varint(&mut out, i - best);
        for k in i..i + best_len {
            insert(k, &mut head, &mut prev);
        }
        i += best_len;
        literal_start = i;
    }
    varint(&mut out, input.len() - literal_start);
    out.extend_from_slice(&input[literal_start..]);
    varint(&mut out, 0);
    out
}

pub fn decompress(input: &[u8]) -> Result<Vec<u8>, LinkError> {
    let truncated = || LinkError::CutShort;
    let (&version, mut rest) = input.split_first().ok_or_else(truncated)?;
    if version != VERSION {
        return Err(LinkError::UnknownVersion(version));
    }
    let read = |rest: &mut &[u8]| -> Result<usize, LinkError> {
        let mut n = 0usize;
        for shift in (0..35).step_by(7) {
            let (&b, tail) = rest.split_first().ok_or_else(truncated)?;
            *rest = tail;
            n |= usize::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(n);
            }
        }
        Err(LinkError::MalformedCount)
    };
    let mut out: Vec<u8> = Vec::new();
    loop {
        let literals = read(&mut rest)?;
        if literals > rest.len() || out.len() + literals > MAX_SCENARIO_BYTES {
            return Err(truncated());
        }
        out.extend_from_slice(&rest[..literals]);
        rest = &rest[literals..];
        let len = read(&mut rest)?;
        if len == 0 {
            return if rest.is_empty() {
                Ok(out)
            } else {
                Err(LinkError::TrailingBytes)
            };
        }
        let distance = read(&mut rest)?;
        if distance == 0 || distance > out.len() || out.len() + len > MAX_SCENARIO_BYTES {
            return Err(LinkError::BadReference);
        }
        let start = out.len() - distance;
        for k in 0..len {
            out.push(out[start + k]);
        }
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 3);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn unbase64url(text: &str) -> Option<Vec<u8>> {
    let digits: Vec<u32> = text
        .trim_end_matches('=')
        .bytes()
        .map(|c| ALPHABET.iter().position(|&a| a == c).map(|p| p as u32))
        .collect::<Option<_>>()?;
    if digits.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | d << (18 - 6 * i));
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    #[test]
    fn every_preset_round_trips_and_shrinks() {
        for s in presets::all() {
            let code = encode(&s);
            assert_eq!(decode(&code).as_ref(), Ok(&s), "{}", s.name);
            let json = serde_json::to_string(&s).unwrap();
            assert!(code.bytes().all(|b| ALPHABET.contains(&b)), "{}", s.name);
            println!(
                "{}: {} bytes of JSON, {} in the link",
                s.name,
                json.len(),
                code.len()
            );
            assert!(
                code.len() < json.len(),
                "{}: {} chars for {} bytes of JSON",
                s.name,
                code.len(),
                json.len()
            );
        }
    }

    #[test]
    fn a_stored_code_reads_as_the_compressed_one() {
        for s in presets::all() {
            // The text as a host page may send it: pretty, with a title to escape.
            let json = s.to_json();
            let code = stored(&json);
            assert!(code.bytes().all(|b| ALPHABET.contains(&b)), "{}", s.name);
            assert_eq!(decode(&code), decode(&encode(&s)), "{}", s.name);
            // One block of literals: about 4/3 of the text.
            assert!(code.len() <= (json.len() + 12) * 4 / 3 + 4, "{}", s.name);
        }
        // What is not a scenario is refused as any code's content is.
        assert!(matches!(decode(&stored("{}")), Err(LinkError::Scenario(_))));
    }

    #[test]
    fn compression_round_trips_awkward_inputs() {
        let long_run = vec![b'a'; 10_000];
        let spread: Vec<u8> = (0..20_000u32).map(|i| (i * 7 % 251) as u8).collect();
        for input in [&b""[..], b"abc", b"abcdabcdabcdabcd", &long_run, &spread] {
            assert_eq!(decompress(&compress(input)).unwrap(), input);
        }
        for bytes in [&[][..], &[1, 2, 3][..], &[0xff; 7][..]] {
            let text = base64url(bytes);
            assert_eq!(unbase64url(&text).unwrap(), bytes);
        }
    }

    #[test]
    fn a_damaged_code_is_an_error_never_a_panic() {
        let code = encode(&presets::wordcount());
        for cut in [1, 2, 5, code.len() / 2, code.len() - 1] {
            assert!(decode(&code[..cut]).is_err(), "cut at {cut}");
        }
        assert!(decode("!!!").is_err());
        assert!(decode("").is_err());
        // Every single-character change decodes to an error or to some valid scenario.
        let alphabet = std::str::from_utf8(ALPHABET).unwrap();
        for at in (0..code.len()).step_by(7) {
            for c in alphabet.chars().step_by(9) {
                let mut changed = code.clone();
                changed.replace_range(at..at + 1, &c.to_string());
                let _ = decode(&changed);
            }
        }
        // A reference pointing before the start, and a count claiming more than there is.
        assert!(decompress(&[VERSION, 0, 5, 9]).is_err());
        assert!(decompress(&[VERSION, 200, 1]).is_err());
        assert!(decompress(&[2, 0, 0]).is_err());
    }

    #[test]
    fn a_huge_expansion_is_refused() {
        // One literal, then a match that would copy it past the scenario size limit.
        let mut bomb = vec![VERSION, 1, b'a'];
        varint(&mut bomb, MAX_SCENARIO_BYTES + 10);
        varint(&mut bomb, 1);
        varint(&mut bomb, 0);
        assert!(decompress(&bomb).is_err());
    }
}
