//! `abs-sim lesson`: checks a lesson — every step's moment reached and its question answered
//! by the engine, as the lesson page does — and with `--scorm` packages it for a course site
//! (`scorm.rs`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use abs_playground::i18n::Lang;
use abs_playground::lesson::{reveal, Ask, Choice, Lesson, Reveal, Step};
use abs_playground::text::Quoted;
use abs_playground::ui::lesson::{in_lang, reach, At};

use super::cli::{help, usage_error};
use super::scorm::{self, Manifest, Site};

pub const USAGE: &str = "\
usage: abs-sim lesson FILE.json [--scorm OUT.zip [--lang LANG] [--site DIR]]

Reads a lesson (docs/lessons.md), reaches each step's moment as the lesson page does and prints
one JSON line per step: {\"step\": n (from 1), \"at\": its moment, \"position\": the step the run
is at, \"ask\": the question's kind or null, and for a question \"choices\" (as the page labels
them), \"answer\" (indices into them), \"reveal\" (the step the page plays to) — or \"error\",
why the moment or the answer cannot be had}.

With --scorm, once every step is checked without an error, writes the lesson as a SCORM 1.2
package, the zip a course site (an LMS) imports: imsmanifest.xml, the built lesson page
(index.html, its abs-lessons build, lms.js and print.css, copied from the built site) and the lesson file
as lessons/NAME.json. The LMS opens the page on the lesson, in LANG, and the page reports the
student's progress to it. What was written, or why nothing was, goes to stderr; nothing
half-written is left behind.

  --scorm OUT.zip  write the package to OUT.zip
  --lang LANG      the language the page opens the lesson in: en (default), zh-Hant (or zh) or
                   zh-Hans (the lesson's texts and title converted to Simplified characters)
  --site DIR       the built site to take the page from (default: dist, which `make serve` and
                   `trunk build --release` make)
  -h, --help       print this text

Exit status 1 if any step has an error (then no package is written) or the package cannot be
written, 2 for a usage error, a file that cannot be read or no built lesson page in DIR.";

/// What the command line asks for.
struct Args {
    file: String,
    /// `--scorm OUT.zip`, `--lang` and `--site`.
    package: Option<(PathBuf, Lang, PathBuf)>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let (mut file, mut scorm, mut lang, mut site) = (None, None, None, None);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--scorm" => scorm = Some(PathBuf::from(value("--scorm")?)),
            "--lang" => lang = Some(lang_arg(value("--lang")?)?),
            "--site" => site = Some(PathBuf::from(value("--site")?)),
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            name if file.is_none() => file = Some(name.to_string()),
            _ => return Err("name one lesson file".into()),
        }
    }
    let file = file.ok_or("name one lesson file")?;
    let package = match scorm {
        Some(out) => Some((
            out,
            lang.unwrap_or(Lang::En),
            site.unwrap_or_else(|| "dist".into()),
        )),
        None if lang.is_some() || site.is_some() => {
            return Err("--lang and --site say how to package: they go with --scorm".into())
        }
        None => None,
    };
    Ok(Args { file, package })
}

/// A `--lang` value: the page's languages by their tags, and `zh` for Traditional.
fn lang_arg(code: &str) -> Result<Lang, String> {
    match code {
        "en" => Ok(Lang::En),
        "zh" | "zh-Hant" => Ok(Lang::Zh),
        "zh-Hans" => Ok(Lang::ZhHans),
        other => Err(format!(
            "--lang {other:?}: the page's languages are en, zh-Hant (or zh) and zh-Hans"
        )),
    }
}

/// `abs-sim lesson FILE [--scorm OUT …]`: every step's moment and the engine's answer, then
/// the package.
pub fn main(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return help(USAGE);
    }
    let Args { file, package } = match parse(args) {
        Ok(a) => a,
        Err(e) => return usage_error("lesson", &e, USAGE),
    };
    let (bytes, lesson) = match read(&file) {
        Ok(read) => read,
        Err(e) => return say(&format!("{file}: {e}"), 2),
    };
    // The site is looked for before the steps are run: a missing one is known at once.
    let site = match package
        .as_ref()
        .map(|(_, _, dir)| Site::find(dir))
        .transpose()
    {
        Ok(site) => site,
        Err(e) => return say(&e, 2),
    };
    let failed = match check(&lesson) {
        Ok(failed) => failed,
        Err(_) => return ExitCode::from(2),
    };
    let (Some((out, lang, _)), Some(site)) = (package, site) else {
        return ExitCode::from(if failed { 1 } else { 0 });
    };
    if failed {
        return say("no package written: fix the steps above", 1);
    }
    write_package(&out, lang, &site, Path::new(&file), &bytes, lesson)
}

/// `message` on stderr after the command's name, and `status`.
fn say(message: &str, status: u8) -> ExitCode {
    let _ = writeln!(io::stderr(), "abs-sim lesson: {message}");
    ExitCode::from(status)
}

/// The lesson file's bytes (the package holds them as they are) and the lesson they spell.
fn read(file: &str) -> Result<(Vec<u8>, Lesson), String> {
    let bytes = std::fs::read(file).map_err(|e| e.to_string())?;
    let text = std::str::from_utf8(&bytes).map_err(|e| format!("not UTF-8: {e}"))?;
    let lesson = abs_playground::scenario::read_lesson(text)
        .map_err(|(l, c, m)| format!("line {l}, column {c}: {m}"))?;
    Ok((bytes, lesson))
}

/// Prints each step's line; whether any step has an error.
fn check(lesson: &Lesson) -> io::Result<bool> {
    let mut out = io::stdout().lock();
    let mut failed = false;
    for (i, step) in lesson.steps.iter().enumerate() {
        let (line, error) = step_line(i + 1, step);
        failed |= error;
        writeln!(out, "{line}")?;
    }
    Ok(failed)
}

/// Step `n`'s JSON line, and whether it has an error.
fn step_line(n: usize, step: &Step) -> (String, bool) {
    let kind = match &step.ask {
        None => "null",
        Some(Ask::BlockedInput) => "\"blocked-input\"",
        Some(Ask::Buffered) => "\"buffered\"",
        Some(Ask::Consistent) => "\"consistent\"",
        Some(Ask::GlobalState) => "\"global-state\"",
        Some(Ask::CountedTwice) => "\"counted-twice\"",
        Some(Ask::Choice { .. }) => "\"choice\"",
    };
    let head = format!("{{\"step\":{n},\"at\":{},\"ask\":{kind}", Quoted(&step.at));
    let (run, _) = match reach(&At::parse(&step.at)) {
        Ok(reached) => reached,
        Err(e) => {
            return (
                format!("{head},\"error\":{}}}", Quoted(&e.to_string())),
                true,
            )
        }
    };
    let position = run.position();
    let head = format!("{head},\"position\":{position}");
    match step.ask.as_ref().map(|a| reveal(run.sim(), a)) {
        None => (format!("{head}}}"), false),
        Some(Err(e)) => (format!("{head},\"error\":\"{e:?}\"}}"), true),
        Some(Ok(r)) => {
            let answer: Vec<String> = r.answer.iter().map(usize::to_string).collect();
            let line = format!(
                "{head},\"choices\":[{}],\"answer\":[{}],\"reveal\":{}}}",
                choice_labels(run.sim(), &r).join(","),
                answer.join(","),
                r.step
            );
            (line, false)
        }
    }
}

/// The question's choices as the page labels them, each a JSON string.
fn choice_labels(sim: &abs_playground::engine::Simulation, r: &Reveal) -> Vec<String> {
    let phys = sim.physical();
    r.choices
        .iter()
        .map(|c| {
            Quoted(&match *c {
                Choice::Channel(c) => phys.channel_label(c),
                Choice::Record(r, _) => format!("#{}", r.id),
                Choice::Place(p) => p.as_str().into(),
                Choice::Word(w) => phys.words.get(w as usize).cloned().unwrap_or_default(),
                Choice::Yes => "yes".into(),
                Choice::No => "no".into(),
                Choice::Text(i) => format!("{i}"),
            })
            .to_string()
        })
        .collect()
}

/// Writes the package and says so on stderr: status 1 if it cannot be written, 2 if the
/// site's files cannot be read.
fn write_package(
    out: &Path,
    lang: Lang,
    site: &Site,
    file: &Path,
    bytes: &[u8],
    lesson: Lesson,
) -> ExitCode {
    let stem = scorm::stem(file);
    let mastery = lesson.mastery;
    let title = in_lang(lesson, lang).title;
    let manifest = scorm::manifest(
        &Manifest {
            stem: &stem,
            title: &title,
            lang: lang.tag(),
            mastery,
        },
        site,
    );
    let files = match scorm::contents(manifest, site, &stem, bytes) {
        Ok(files) => files,
        Err(e) => return say(&format!("cannot read the built site: {e}"), 2),
    };
    match scorm::write(out, &files) {
        Ok(size) => say(
            &format!(
                "wrote {} ({} files, {size} bytes)",
                out.display(),
                files.len()
            ),
            0,
        ),
        Err(e) => say(&format!("cannot write {}: {e}", out.display()), 1),
    }
}
