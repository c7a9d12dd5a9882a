//! `abs-sim lesson --scorm`: a lesson as a SCORM 1.2 package, the zip a course site (an LMS)
//! takes in: the built lesson page (`index.html`, the `abs-lessons` build, `lms.js`, `print.css`, copied from
//! the built site) with the lesson file beside it, and `imsmanifest.xml`, which tells the LMS
//! to open the page on that lesson.
//!
//! The zip is written here, by hand (only deflating is a crate's): seven files need no more, and
//! a fixed date in every entry makes the same inputs give the same bytes.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Why there is no lesson page to package, after "no built lesson page in DIR (…)".
const RUN_FIRST: &str = "run `make serve` or `trunk build --release` first, or name the built \
                         site with --site DIR";

/// The built site's files the package copies.
pub struct Site {
    dir: PathBuf,
    /// `abs-lessons-HEX.js` and `abs-lessons-HEX_bg.wasm`, as index.html names them.
    js: String,
    wasm: String,
}

impl Site {
    /// The built lesson page in `dir`: index.html, the `abs-lessons` build it names, lms.js and
    /// print.css (the page on paper, which index.html links).
    /// The error is the whole sentence for stderr, saying which of them is missing and what
    /// to run.
    pub fn find(dir: &Path) -> Result<Site, String> {
        let missing = |why: String| {
            format!(
                "no built lesson page in {} ({why}): {RUN_FIRST}",
                dir.display()
            )
        };
        let index = fs::read_to_string(dir.join("index.html")).map_err(|e| {
            missing(match e.kind() {
                io::ErrorKind::NotFound => "it has no index.html".into(),
                _ => format!("cannot read its index.html: {e}"),
            })
        })?;
        let hex = build_hex(&index)
            .ok_or_else(|| missing("index.html names no abs-lessons build".into()))?;
        let js = format!("abs-lessons-{hex}.js");
        let wasm = format!("abs-lessons-{hex}_bg.wasm");
        if !index.contains(&wasm) {
            return Err(missing(format!("index.html names {js} but not {wasm}")));
        }
        for name in [&js, &wasm] {
            if !dir.join(name).is_file() {
                return Err(missing(format!("it has no {name}, which index.html names")));
            }
        }
        for name in ["lms.js", "print.css"] {
            if !dir.join(name).is_file() {
                return Err(missing(format!("it has no {name}")));
            }
        }
        Ok(Site {
            dir: dir.to_path_buf(),
            js,
            wasm,
        })
    }

    /// The names of the site's files the package holds, as they are in the site.
    fn files(&self) -> [&str; 5] {
        ["index.html", &self.js, &self.wasm, "lms.js", "print.css"]
    }
}

/// The HEX of the first `abs-lessons-HEX.js` in index.html's text.
fn build_hex(index: &str) -> Option<&str> {
    index.match_indices("abs-lessons-").find_map(|(at, name)| {
        let rest = &index[at + name.len()..];
        let hex = &rest[..rest
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(rest.len())];
        (!hex.is_empty() && rest[hex.len()..].starts_with(".js")).then_some(hex)
    })
}

/// The lesson's name in the package (`lessons/STEM.json`, the manifest's identifier): the
/// file's name without `.json`, in lower case, anything but `a`–`z`, `0`–`9` and `-` made a
/// `-` (an LMS and a URL take it as it is).
pub fn stem(file: &Path) -> String {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let stem: String = name
        .strip_suffix(".json")
        .unwrap_or(&name)
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9' | '-') => c,
            _ => '-',
        })
        .collect();
    if stem.is_empty() {
        "lesson".into()
    } else {
        stem
    }
}

/// What the manifest says of the lesson.
pub struct Manifest<'a> {
    pub stem: &'a str,
    pub title: &'a str,
    /// The page's `?lang=`: `en`, `zh-Hant` or `zh-Hans`.
    pub lang: &'a str,
    /// The percentage that passes, when the lesson sets one.
    pub mastery: Option<u8>,
}

/// `imsmanifest.xml`: one organization with one item, the lesson, whose resource is the page
/// opened on it (`?lesson=…&lang=…&package`: `package` tells the page it runs in an LMS).
pub fn manifest(m: &Manifest, site: &Site) -> String {
    let title = escape(m.title);
    let stem = m.stem;
    let mastery = m.mastery.map_or(String::new(), |score| {
        format!("        <adlcp:masteryscore>{score}</adlcp:masteryscore>\n")
    });
    let launch = format!(
        "index.html?lesson=lessons/{stem}.json&amp;lang={}&amp;package",
        m.lang
    );
    let lesson = format!("lessons/{stem}.json");
    let files: String = site
        .files()
        .into_iter()
        .chain([lesson.as_str()])
        .map(|href| format!("      <file href=\"{}\"/>\n", escape(href)))
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="abs-playground-lesson-{stem}" version="1.0"
    xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="abs-org">
    <organization identifier="abs-org">
      <title>{title}</title>
      <item identifier="abs-item" identifierref="abs-sco" isvisible="true">
        <title>{title}</title>
{mastery}      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="abs-sco" type="webcontent" adlcp:scormtype="sco" href="{launch}">
{files}    </resource>
  </resources>
</manifest>
"#
    )
}

/// Text safe inside an XML element or a quoted attribute.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Every file of the package, name and bytes, in the zip's order: the manifest first.
pub fn contents(
    manifest: String,
    site: &Site,
    stem: &str,
    lesson: &[u8],
) -> io::Result<Vec<(String, Vec<u8>)>> {
    let mut files = vec![("imsmanifest.xml".to_string(), manifest.into_bytes())];
    for name in site.files() {
        let path = site.dir.join(name);
        let bytes = fs::read(&path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        files.push((name.to_string(), bytes));
    }
    files.push((format!("lessons/{stem}.json"), lesson.to_vec()));
    Ok(files)
}

/// Writes the zip of `files` to `out` whole or not at all: to a temporary name in `out`'s
/// folder, renamed once complete (a half-written package would be uploaded as if good).
/// Returns its size in bytes.
pub fn write(out: &Path, files: &[(String, Vec<u8>)]) -> io::Result<u64> {
    let bytes = zip(files)?;
    let folder = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let temporary = folder.join(format!(".{name}.{}.part", std::process::id()));
    let written = fs::File::create(&temporary)
        .and_then(|mut f| f.write_all(&bytes).and_then(|()| f.sync_all()))
        .and_then(|()| fs::rename(&temporary, out));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written.map(|()| bytes.len() as u64)
}

/// The DOS date of every entry, 1980-01-01 (the format's first day), and its time, midnight:
/// the package's bytes depend on its files only.
const DOS_DATE: u16 = (1 << 5) | 1;
const DOS_TIME: u16 = 0;

/// A zip archive of `files`, each deflated (method 8), without the Zip64 extension: an entry
/// or the whole over 4 GiB is an error.
fn zip(files: &[(String, Vec<u8>)]) -> io::Result<Vec<u8>> {
    let too_big = || io::Error::other("the package would be over 4 GiB, too large for a zip");
    let mut out = Vec::new();
    let mut directory = Vec::new();
    for (name, data) in files {
        let packed = miniz_oxide::deflate::compress_to_vec(data, 9);
        let offset = u32::try_from(out.len()).map_err(|_| too_big())?;
        let sizes = [packed.len(), data.len()].map(u32::try_from);
        let [Ok(packed_size), Ok(size)] = sizes else {
            return Err(too_big());
        };
        let common = Entry {
            name,
            crc: crc32(data),
            packed_size,
            size,
        };
        out.extend(common.local_header());
        out.extend(&packed);
        directory.extend(common.central_header(offset));
    }
    let start = u32::try_from(out.len()).map_err(|_| too_big())?;
    let length = u32::try_from(directory.len()).map_err(|_| too_big())?;
    let count = u16::try_from(files.len()).map_err(|_| too_big())?;
    out.extend(directory);
    // The end of the central directory: where it starts, how long, how many entries.
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]); // this disk, the directory's disk
    out.extend(count.to_le_bytes());
    out.extend(count.to_le_bytes());
    out.extend(length.to_le_bytes());
    out.extend(start.to_le_bytes());
    out.extend([0u8; 2]); // no comment
    Ok(out)
}

/// What the local header and the central directory both say of an entry.
struct Entry<'a> {
    name: &'a str,
    crc: u32,
    packed_size: u32,
    size: u32,
}

impl Entry<'_> {
    /// From "version needed" to the name's length: the fields both headers share.
    fn shared(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(26);
        out.extend(20u16.to_le_bytes()); // version needed: 2.0, deflate
        out.extend(0u16.to_le_bytes()); // flags: none
        out.extend(8u16.to_le_bytes()); // method: deflate
        out.extend(DOS_TIME.to_le_bytes());
        out.extend(DOS_DATE.to_le_bytes());
        out.extend(self.crc.to_le_bytes());
        out.extend(self.packed_size.to_le_bytes());
        out.extend(self.size.to_le_bytes());
        out.extend((self.name.len() as u16).to_le_bytes());
        out
    }

    fn local_header(&self) -> Vec<u8> {
        let mut out = 0x0403_4b50u32.to_le_bytes().to_vec();
        out.extend(self.shared());
        out.extend(0u16.to_le_bytes()); // no extra field
        out.extend(self.name.as_bytes());
        out
    }

    fn central_header(&self, offset: u32) -> Vec<u8> {
        let mut out = 0x0201_4b50u32.to_le_bytes().to_vec();
        out.extend(20u16.to_le_bytes()); // made by: 2.0, MS-DOS attributes
        out.extend(self.shared());
        out.extend([0u8; 12]); // extra, comment, disk, internal and external attributes
        out.extend(offset.to_le_bytes());
        out.extend(self.name.as_bytes());
        out
    }
}

/// The CRC-32 a zip entry carries (the reflected polynomial 0xEDB88320, as gzip and PNG).
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_is_the_zip_checksum() {
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn a_stem_is_lower_case_letters_digits_and_dashes() {
        assert_eq!(
            stem(Path::new("static/lessons/en/alignment.json")),
            "alignment"
        );
        assert_eq!(stem(Path::new("My Lesson_2.JSON")), "my-lesson-2-json");
        assert_eq!(stem(Path::new("Über.json")), "-ber");
        assert_eq!(stem(Path::new(".json")), "lesson");
    }

    #[test]
    fn the_build_is_the_first_abs_lessons_js_name() {
        let index = r#"<a href="abs-lessons-x.js"></a>import("./abs-lessons-0a1b.js")"#;
        assert_eq!(build_hex(index), Some("0a1b"));
        assert_eq!(build_hex("abs-lessons.js abs-lessons-0a1b_bg.wasm"), None);
    }

    #[test]
    fn xml_special_characters_are_escaped() {
        assert_eq!(escape(r#"a<b>&"c'"#), "a&lt;b&gt;&amp;&quot;c&apos;");
    }
}
