//! `abs-sim lesson --scorm`: the SCORM 1.2 package of a lesson, read back with an independent
//! zip reader (Python's `zipfile`, which checks every entry's CRC) and checked against what an
//! LMS needs: the six files and nothing else, byte for byte, and a manifest whose parts point
//! at each other and at files the package holds. And every way of not writing one: a missing
//! site, a step with an error, a language the page does not have.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BUILD_JS: &str = "abs-lessons-0123abcd.js";
const BUILD_WASM: &str = "abs-lessons-0123abcd_bg.wasm";
const RUN_FIRST: &str =
    "run `make serve` or `trunk build --release` first, or name the built site with --site DIR";

/// A fresh, empty folder of this test's own.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("abs-scorm-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A built site as `trunk build` leaves it, as far as the package goes: index.html naming the
/// lesson build, the build's two files and lms.js (a few bytes each, the wasm not text).
fn fake_site(dir: &Path) {
    fs::write(
        dir.join("index.html"),
        format!("<!doctype html><script type=module>const l=\"./{BUILD_JS}\",w=\"./{BUILD_WASM}\";</script>"),
    )
    .unwrap();
    fs::write(dir.join(BUILD_JS), "export default function init(){}\n").unwrap();
    let wasm: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 251) as u8).collect();
    fs::write(
        dir.join(BUILD_WASM),
        [b"\0asm\x01\0\0\0".as_slice(), &wasm].concat(),
    )
    .unwrap();
    fs::write(dir.join("lms.js"), "window.absLms = {};\n").unwrap();
    fs::write(dir.join("print.css"), ".controls{display:none}\n").unwrap();
    // What the package must not take: the rest of the site.
    fs::write(dir.join("abs-playground-ffff.js"), "other").unwrap();
}

fn abs_sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_abs-sim"))
        .arg("lesson")
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The zip's files, name → bytes, as Python's `zipfile` reads them: it fails on a bad CRC, an
/// entry that is not deflated, a directory entry, or a manifest that is not well-formed XML.
fn unzip(zip: &Path, into: &Path) -> BTreeMap<String, Vec<u8>> {
    let script = r#"
import sys, zipfile, xml.etree.ElementTree as ET
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None, "a bad CRC"
for i in z.infolist():
    assert i.compress_type == zipfile.ZIP_DEFLATED, i.filename + " is not deflated"
    assert not i.is_dir(), i.filename + " is a directory"
    print(i.filename)
ET.fromstring(z.read("imsmanifest.xml"))
z.extractall(sys.argv[2])
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(zip)
        .arg(into)
        .output()
        .expect("python3 reads the zip back");
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|name| (name.to_string(), fs::read(into.join(name)).unwrap()))
        .collect()
}

/// The values of `attr` on every `<element …>` of `xml`, in order.
fn attrs(xml: &str, element: &str, attr: &str) -> Vec<String> {
    xml.match_indices(&format!("<{element} "))
        .map(|(at, _)| {
            let tag = &xml[at..at + xml[at..].find('>').unwrap()];
            let start = tag
                .find(&format!(" {attr}=\""))
                .unwrap_or_else(|| panic!("<{element}> has no {attr}: {tag}"))
                + attr.len()
                + 3;
            tag[start..start + tag[start..].find('"').unwrap()].to_string()
        })
        .collect()
}

/// The texts of every `<element>…</element>` of `xml`.
fn texts(xml: &str, element: &str) -> Vec<String> {
    let (open, close) = (format!("<{element}>"), format!("</{element}>"));
    xml.match_indices(&open)
        .map(|(at, _)| {
            let rest = &xml[at + open.len()..];
            rest[..rest.find(&close).unwrap()].to_string()
        })
        .collect()
}

/// The one value of `attr` on `<element>`.
fn attr(xml: &str, element: &str, name: &str) -> String {
    let values = attrs(xml, element, name);
    assert_eq!(values.len(), 1, "<{element} {name}>: {values:?}");
    values[0].clone()
}

/// Packages `lesson` with the fake site; the package's files and the manifest.
fn package(name: &str, lesson: &str, lang: &[&str]) -> (BTreeMap<String, Vec<u8>>, String) {
    let dir = folder(name);
    let site = dir.join("site");
    fs::create_dir(&site).unwrap();
    fake_site(&site);
    let zip = dir.join("out").join("lesson.zip");
    fs::create_dir(dir.join("out")).unwrap();
    let (zip_s, site_s) = (zip.to_str().unwrap(), site.to_str().unwrap());
    let out = abs_sim(&[&[lesson, "--scorm", zip_s, "--site", site_s], lang].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Stdout is the steps' JSON lines only; stderr says what was written, and nothing else is
    // left in the package's folder.
    for line in text(&out.stdout).lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    let size = fs::metadata(&zip).unwrap().len();
    assert_eq!(
        text(&out.stderr),
        format!("abs-sim lesson: wrote {zip_s} (7 files, {size} bytes)\n")
    );
    let left: Vec<_> = fs::read_dir(dir.join("out")).unwrap().collect();
    assert_eq!(left.len(), 1, "only the package is left: {left:?}");
    let files = unzip(&zip, &dir.join("unzipped"));
    for name in ["index.html", BUILD_JS, BUILD_WASM, "lms.js", "print.css"] {
        assert_eq!(files[name], fs::read(site.join(name)).unwrap(), "{name}");
    }
    let manifest = text(&files["imsmanifest.xml"]);
    fs::remove_dir_all(&dir).unwrap();
    (files, manifest)
}

fn title_of(lesson: &str) -> String {
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(lesson).unwrap()).unwrap();
    json["title"].as_str().unwrap().to_string()
}

#[test]
fn a_package_holds_the_page_and_the_lesson_and_a_manifest_that_launches_one_on_the_other() {
    let lesson = "static/lessons/en/alignment.json";
    let (files, manifest) = package("en", lesson, &[]);
    let names: Vec<&str> = files.keys().map(String::as_str).collect();
    let mut seven = vec![
        "imsmanifest.xml",
        "index.html",
        BUILD_JS,
        BUILD_WASM,
        "lms.js",
        "print.css",
        "lessons/alignment.json",
    ];
    seven.sort();
    assert_eq!(names, seven);
    assert_eq!(files["lessons/alignment.json"], fs::read(lesson).unwrap());

    assert_eq!(texts(&manifest, "schema"), ["ADL SCORM"]);
    assert_eq!(texts(&manifest, "schemaversion"), ["1.2"]);
    assert_eq!(
        attr(&manifest, "organizations", "default"),
        attr(&manifest, "organization", "identifier")
    );
    assert_eq!(
        attr(&manifest, "item", "identifierref"),
        attr(&manifest, "resource", "identifier")
    );
    assert_eq!(attr(&manifest, "resource", "adlcp:scormtype"), "sco");
    assert_eq!(attr(&manifest, "resource", "type"), "webcontent");
    assert_eq!(
        attr(&manifest, "resource", "href"),
        "index.html?lesson=lessons/alignment.json&amp;lang=en&amp;package"
    );
    assert_eq!(
        attr(&manifest, "manifest", "identifier"),
        "abs-playground-lesson-alignment"
    );
    // Every file of the package but the manifest is listed, and nothing else.
    let mut listed = attrs(&manifest, "file", "href");
    listed.sort();
    let held: Vec<String> = files
        .keys()
        .filter(|n| *n != "imsmanifest.xml")
        .cloned()
        .collect();
    assert_eq!(listed, held);
    let title = title_of(lesson);
    assert_eq!(texts(&manifest, "title"), [title.clone(), title]);
    assert!(!manifest.contains("masteryscore"), "the lesson sets none");
}

#[test]
fn simplified_chinese_converts_the_title_and_launches_the_page_in_it() {
    let lesson = "static/lessons/zh/alignment.json";
    assert_eq!(title_of(lesson), "一步一步看對齊");
    let (files, manifest) = package("hans", lesson, &["--lang", "zh-Hans"]);
    assert_eq!(
        texts(&manifest, "title"),
        ["一步一步看对齐", "一步一步看对齐"]
    );
    assert_eq!(
        attr(&manifest, "resource", "href"),
        "index.html?lesson=lessons/alignment.json&amp;lang=zh-Hans&amp;package"
    );
    // The lesson itself is as written: the page converts it when it shows it.
    assert_eq!(files["lessons/alignment.json"], fs::read(lesson).unwrap());

    let (_, manifest) = package("hant", lesson, &["--lang", "zh"]);
    assert_eq!(
        texts(&manifest, "title"),
        ["一步一步看對齊", "一步一步看對齊"]
    );
    assert!(attr(&manifest, "resource", "href").contains("&amp;lang=zh-Hant&amp;"));
}

#[test]
fn the_title_is_escaped_the_file_name_made_a_plain_stem_and_the_mastery_score_given() {
    let dir = folder("stem");
    let lesson = dir.join("My Lesson_2.json");
    fs::write(
        &lesson,
        r#"{"title": "Barriers & <records> \"quoted\"", "mastery": 80, "steps": [
            {"at": "preset=alignment&mode=aligned&step=3", "text": "x"}]}"#,
    )
    .unwrap();
    let (files, manifest) = package("stem-package", lesson.to_str().unwrap(), &[]);
    assert_eq!(
        files["lessons/my-lesson-2.json"],
        fs::read(&lesson).unwrap()
    );
    assert_eq!(
        texts(&manifest, "title")[0],
        "Barriers &amp; &lt;records&gt; &quot;quoted&quot;"
    );
    assert_eq!(
        attr(&manifest, "manifest", "identifier"),
        "abs-playground-lesson-my-lesson-2"
    );
    // The item's own score, inside it: the LMS passes the student from 80%.
    let item = &manifest[manifest.find("<item ").unwrap()..manifest.find("</item>").unwrap()];
    assert!(
        item.contains("\n        <adlcp:masteryscore>80</adlcp:masteryscore>\n"),
        "{manifest}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// Runs `lesson --scorm OUT --site SITE …`, expecting no package: the status, stderr, and
/// what is left in OUT's folder (nothing).
fn refused(name: &str, lesson: &str, site: impl Fn(&Path), more: &[&str]) -> (i32, String) {
    let dir = folder(name);
    let (site_dir, out_dir) = (dir.join("site"), dir.join("out"));
    fs::create_dir(&site_dir).unwrap();
    fs::create_dir(&out_dir).unwrap();
    site(&site_dir);
    let zip = out_dir.join("lesson.zip");
    let out = abs_sim(
        &[
            &[
                lesson,
                "--scorm",
                zip.to_str().unwrap(),
                "--site",
                site_dir.to_str().unwrap(),
            ],
            more,
        ]
        .concat(),
    );
    let left: Vec<_> = fs::read_dir(&out_dir).unwrap().collect();
    assert!(left.is_empty(), "{name}: left behind: {left:?}");
    fs::remove_dir_all(&dir).unwrap();
    (out.status.code().unwrap(), text(&out.stderr))
}

#[test]
fn no_built_lesson_page_is_status_2_with_what_is_missing_and_what_to_run() {
    let lesson = "static/lessons/en/alignment.json";
    // What is wrong with the site (a file taken away, or index.html rewritten), and how the
    // message says it.
    let cases = [
        ("index.html", None, "it has no index.html".to_string()),
        (
            "",
            Some("<script src=./abs-lessons.js></script>"),
            "index.html names no abs-lessons build".into(),
        ),
        (
            "",
            Some("<script src=./abs-lessons-0123abcd.js></script>"),
            format!("index.html names {BUILD_JS} but not {BUILD_WASM}"),
        ),
        (
            BUILD_JS,
            None,
            format!("it has no {BUILD_JS}, which index.html names"),
        ),
        (
            BUILD_WASM,
            None,
            format!("it has no {BUILD_WASM}, which index.html names"),
        ),
        ("lms.js", None, "it has no lms.js".into()),
        ("print.css", None, "it has no print.css".into()),
    ];
    for (i, (gone, index, why)) in cases.into_iter().enumerate() {
        let site = |dir: &Path| {
            fake_site(dir);
            match index {
                Some(text) => fs::write(dir.join("index.html"), text).unwrap(),
                None => fs::remove_file(dir.join(gone)).unwrap(),
            }
        };
        let name = format!("site-{i}");
        let (code, err) = refused(&name, lesson, site, &[]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.starts_with("abs-sim lesson: no built lesson page in ")
                && err.contains(&format!("/site ({why}): {RUN_FIRST}")),
            "{name}: {err}"
        );
    }
}

#[test]
fn a_step_with_an_error_writes_no_package() {
    let dir = folder("unreachable");
    let lesson = dir.join("unreachable.json");
    fs::write(
        &lesson,
        r#"{"title": "t", "steps": [{"at": "preset=alignment&step=999999", "text": "x"}]}"#,
    )
    .unwrap();
    let (code, err) = refused("unreachable-out", lesson.to_str().unwrap(), fake_site, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        err,
        "abs-sim lesson: no package written: fix the steps above\n"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_language_the_page_does_not_have_is_a_usage_error() {
    let lesson = "static/lessons/en/alignment.json";
    let (code, err) = refused("lang", lesson, fake_site, &["--lang", "xx"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--lang \"xx\"") && err.contains("usage: abs-sim lesson"),
        "{err}"
    );
    // Without --scorm there is nothing for --lang or --site to say.
    let out = abs_sim(&[lesson, "--lang", "zh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("they go with --scorm"));
}

#[test]
fn a_package_that_cannot_be_written_leaves_nothing_behind() {
    // OUT is a folder with something in it: the package is made, but cannot take its name.
    let dir = folder("unwritable");
    let (site, out) = (dir.join("site"), dir.join("out"));
    fs::create_dir_all(out.join("lesson.zip")).unwrap();
    fs::write(out.join("lesson.zip").join("keep"), "").unwrap();
    fs::create_dir(&site).unwrap();
    fake_site(&site);
    let zip = out.join("lesson.zip");
    let lesson = "static/lessons/en/alignment.json";
    let run = abs_sim(&[
        lesson,
        "--scorm",
        zip.to_str().unwrap(),
        "--site",
        site.to_str().unwrap(),
    ]);
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with(&format!("abs-sim lesson: cannot write {}: ", zip.display())),
        "{err}"
    );
    let left: Vec<_> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["lesson.zip"], "no temporary file is left");
    fs::remove_dir_all(&dir).unwrap();
}
