//! Just enough HTTP/1.1 for Flink's REST API on 127.0.0.1: a GET, a POST (JSON, or one file as
//! multipart/form-data) and a DELETE; the status, and the answer's JSON.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// GETs `path` from `addr`; the body parsed as JSON when the status is 200.
pub fn get_json(addr: SocketAddr, path: &str) -> Result<serde_json::Value, String> {
    request(addr, "GET", path, None)
}

/// POSTs `body` as JSON to `path`; the answer's body parsed as JSON when the status is 2xx.
pub fn post_json(
    addr: SocketAddr,
    path: &str,
    body: &serde_json::Value,
) -> Result<serde_json::Value, String> {
    let text = body.to_string();
    request(
        addr,
        "POST",
        path,
        Some(("application/json", text.as_bytes())),
    )
}

/// POSTs one file as a multipart/form-data body (what `curl -F field=@file` sends: Flink's
/// `/jars/upload` takes the jar so, under the field `jarfile`); the answer parsed as JSON.
pub fn post_file(
    addr: SocketAddr,
    path: &str,
    field: &str,
    filename: &str,
    bytes: &[u8],
) -> Result<serde_json::Value, String> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let boundary = format!("----abs-sim-{}-{nanos:x}", std::process::id());
    let body = multipart(field, filename, bytes, &boundary);
    let kind = format!("multipart/form-data; boundary={boundary}");
    request(addr, "POST", path, Some((&kind, &body)))
}

/// A multipart/form-data body of one file part.
fn multipart(field: &str, filename: &str, bytes: &[u8], boundary: &str) -> Vec<u8> {
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; \
         filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    body
}

/// DELETEs `path` (Flink answers `{}`).
pub fn delete(addr: SocketAddr, path: &str) -> Result<(), String> {
    request(addr, "DELETE", path, None).map(|_| ())
}

/// Sends one request (`body`: its content type and bytes); the answer's body parsed as JSON
/// when the status is 2xx, else an error naming the status and what Flink said.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<(&str, &[u8])>,
) -> Result<serde_json::Value, String> {
    let timeout = Duration::from_secs(5);
    let mut stream = TcpStream::connect_timeout(&addr, timeout).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(|e| e.to_string())?;
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: application/json\r\nConnection: \
         close\r\n"
    )
    .into_bytes();
    if let Some((kind, bytes)) = body {
        request.extend_from_slice(
            format!(
                "Content-Type: {kind}\r\nContent-Length: {}\r\n",
                bytes.len()
            )
            .as_bytes(),
        );
        request.extend_from_slice(b"\r\n");
        request.extend_from_slice(bytes);
    } else {
        request.extend_from_slice(b"\r\n");
    }
    stream.write_all(&request).map_err(|e| e.to_string())?;
    // Flink keeps the connection open whatever the request says: read by Content-Length.
    let mut raw = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    let (split, length) = loop {
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("the connection closed before the answer's header".into());
        }
        raw.extend_from_slice(&buf[..n]);
        if let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
            let length = head.lines().find_map(|l| {
                l.strip_prefix("content-length:")
                    .and_then(|v| v.trim().parse::<usize>().ok())
            });
            break (split, length);
        }
    };
    loop {
        let have = raw.len() - (split + 4);
        let complete = match length {
            Some(len) => have >= len,
            // Chunked: complete at the last, empty chunk.
            None => raw.ends_with(b"0\r\n\r\n"),
        };
        if complete {
            break;
        }
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split + 4..].to_vec();
    if let Some(len) = length {
        body.truncate(len);
    }
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or("no HTTP status in the answer")?;
    if head.lines().any(|l| {
        l.to_ascii_lowercase()
            .starts_with("transfer-encoding: chunked")
    }) {
        body = dechunk(&body)?;
    }
    if !(200..300).contains(&status) {
        let text = String::from_utf8_lossy(&body);
        return Err(format!(
            "HTTP {status} for {method} {path}: {}",
            text.trim()
        ));
    }
    serde_json::from_slice(&body).map_err(|e| format!("{path} is not JSON: {e}"))
}

/// The body of a chunked answer.
fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let line_end = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("a chunk without its size")?;
        let size_text = String::from_utf8_lossy(&data[..line_end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| format!("a bad chunk size {size_text:?}"))?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        if data.len() < size {
            return Err("a chunk cut short".into());
        }
        out.extend_from_slice(&data[..size]);
        data = data.get(size + 2..).unwrap_or(&[]);
    }
}

#[cfg(test)]
mod tests {
    use super::dechunk;

    #[test]
    fn chunks_are_joined() {
        assert_eq!(
            dechunk(b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n").unwrap(),
            b"abcde"
        );
        assert!(dechunk(b"9\r\nabc").is_err());
    }

    #[test]
    fn a_file_is_one_multipart_part() {
        assert_eq!(
            super::multipart("jarfile", "job.jar", b"PK\x03", "b0"),
            b"--b0\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\"job.jar\"\r\n\
              Content-Type: application/octet-stream\r\n\r\nPK\x03\r\n--b0--\r\n"
        );
    }
}
