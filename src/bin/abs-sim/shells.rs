//! `abs-sim shells DIR`: the first pictures index.html shows while the page's WebAssembly is on
//! its way (`ui::shell`), one file per preset, mode and language: `DIR/boot/PRESET.LANG.html`
//! for the preset in its own mode and `DIR/boot/PRESET.MODE.LANG.html` for each mode a link
//! can name (index.html asks for them as `ui::routes::loader` says). The build runs it (tools/post_build.py).

use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::path::Path;
use std::process::ExitCode;

use abs_playground::i18n::Lang;
use abs_playground::ui::routes;
use abs_playground::ui::shell::first_picture;

pub const USAGE: &str = "\
usage: abs-sim shells DIR

Writes the page's first pictures into DIR/boot/: the app as it draws each preset at step 0,
in each mode a link can name and each language (PRESET.LANG.html in the preset's own mode,
PRESET.MODE.LANG.html otherwise; LANG is en, zh-Hant or zh-Hans). index.html shows the one its
address asks for until the WebAssembly is in. Prints how many files and bytes it wrote.";

pub fn main(args: &[String]) -> ExitCode {
    let (out, status) = match write_all(args) {
        Ok(said) => (io::stdout().write_all(said.as_bytes()), 0),
        Err((status, why)) => (writeln!(io::stderr(), "{why}"), status),
    };
    match out {
        Ok(()) => ExitCode::from(status),
        Err(_) => ExitCode::from(1),
    }
}

fn write_all(args: &[String]) -> Result<String, (u8, String)> {
    let dir = match args {
        [one] if !one.starts_with('-') => Path::new(one).join("boot"),
        [flag] if flag == "--help" || flag == "-h" => return Ok(format!("{USAGE}\n")),
        _ => {
            return Err((
                2,
                format!("abs-sim shells: one folder, the built site\n\n{USAGE}"),
            ))
        }
    };
    std::fs::create_dir_all(&dir).map_err(|e| {
        (
            1,
            format!("abs-sim shells: cannot make {}: {e}", dir.display()),
        )
    })?;
    // Every address index.html asks a picture for (`ui::routes`): a mode a preset does not run
    // is drawn as the page shows it, in the preset's own mode with a notice that says so.
    let modes: Vec<Option<&str>> = std::iter::once(None)
        .chain(routes::mode_names().into_iter().map(Some))
        .collect();
    let mut jobs = Vec::new();
    for name in routes::pictured_presets() {
        for &mode in &modes {
            for lang in [Lang::En, Lang::Zh, Lang::ZhHans] {
                jobs.push((name, mode, lang));
            }
        }
    }
    // `huge` takes over a second a picture: the machine's processors share the work.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let written: Vec<Result<usize, String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let (jobs, dir) = (&jobs, &dir);
                scope.spawn(move || {
                    jobs.iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|&(name, mode, lang)| write_one(dir, name, mode, lang))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| {
                w.join()
                    .unwrap_or_else(|_| vec![Err("a worker stopped".into())])
            })
            .collect()
    });
    let (mut files, mut bytes) = (0, 0);
    for one in written {
        bytes += one.map_err(|why| (1, format!("abs-sim shells: {why}")))?;
        files += 1;
    }
    Ok(format!(
        "{files} first pictures, {bytes} bytes, in {}\n",
        dir.display()
    ))
}

/// Draws one address's picture into `dir`: its size in bytes, or why not.
fn write_one(dir: &Path, name: &str, mode: Option<&str>, lang: Lang) -> Result<usize, String> {
    let html = first_picture(name, mode, lang)
        .ok_or_else(|| format!("{name} {mode:?} {} did not render", lang.code()))?;
    let mut file = name.to_string();
    if let Some(mode) = mode {
        let _ = write!(file, ".{mode}");
    }
    let _ = write!(file, ".{}.html", lang.code());
    let path = dir.join(&file);
    std::fs::write(&path, &html).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(html.len())
}
