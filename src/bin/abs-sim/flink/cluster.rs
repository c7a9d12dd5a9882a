//! `abs-sim flink run … --cluster URL`: the job on a running Flink cluster instead of a local
//! one (`.ci/flink-cluster.sh` starts one on loopback). It is compiled as a local run compiles
//! it, packed into a jar (the JDK's `jar`), uploaded (`POST /jars/upload`), run (`POST
//! /jars/:jarid/run`), followed through the REST API and written as one bundle as a local run
//! is (`run::Polled`, `run::gather`), and its jar deleted (`DELETE /jars/:jarid`).
//!
//! The Count subtasks write their final counts into the scratch folder's `results/`, given to
//! the job as an absolute path: the cluster's TaskManagers must share this machine's files.

use std::io::{self, Write};
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use super::export::Job;
use super::run::{self, Polled};
use super::{files, http, Args};

/// The states in which a job has ended for good (a session cluster keeps showing it).
const ENDED: [&str; 3] = ["FINISHED", "FAILED", "CANCELED"];

/// How long the cluster may give no state of the job before the run gives up.
const SILENCE: Duration = Duration::from_secs(30);

pub fn run(job: &Job, args: &Args, url: &str) -> Result<(), String> {
    let addr = address(url)?;
    let lib = run::flink_lib()?;
    run::check_java()?;
    let overview = http::get_json(addr, "/overview")
        .map_err(|e| format!("the Flink cluster at {url} cannot be reached: {e}"))?;
    let slots = overview["slots-total"].as_u64().ok_or_else(|| {
        format!("{url} does not answer as a Flink cluster's REST API (its /overview has no slots)")
    })?;
    // Every operator shares one slot-sharing group: the largest parallelism is what it takes.
    let needs = job
        .scenario
        .graph
        .operators
        .iter()
        .map(|o| u64::from(o.parallelism))
        .max()
        .unwrap_or(1);
    if slots < needs {
        return Err(format!(
            "the job needs {needs} slots (its largest parallelism) and the cluster at {url} has \
             {slots}: it would wait for slots and fail"
        ));
    }
    let config = http::get_json(addr, "/jobmanager/config")
        .map_err(|e| format!("the cluster at {url} did not give its configuration: {e}"))?;
    let job = with_overrides(job, restarts(job, &config));
    let dir = run::scratch_dir();
    files::write(&job, &dir)?;
    let result = run::compile(&dir, &lib)
        .and_then(|()| pack(&dir))
        .and_then(|jar| upload_and_run(&job, args, url, addr, &dir, &jar));
    if result.is_ok() {
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        let _ = writeln!(
            io::stderr(),
            "abs-sim flink: the job's folder is kept: {}",
            dir.display()
        );
    }
    result
}

/// The socket address of `http://HOST:PORT` (a trailing `/` allowed).
fn address(url: &str) -> Result<SocketAddr, String> {
    let bad =
        || format!("--cluster needs the REST API's URL, like http://127.0.0.1:8081, not {url:?}");
    let rest = url.strip_prefix("http://").ok_or_else(bad)?;
    let hostport = rest.strip_suffix('/').unwrap_or(rest);
    if hostport.is_empty() || hostport.contains('/') || !hostport.contains(':') {
        return Err(bad());
    }
    hostport
        .to_socket_addrs()
        .map_err(|e| format!("the Flink cluster at {url} cannot be reached: {e}"))?
        .next()
        .ok_or_else(bad)
}

/// The restart settings the job runs with on the cluster. A cluster can lose a TaskManager,
/// which no planned failure foresees, so the job restarts as the cluster's restart strategy
/// says (its `restart-strategy.*`, from `/jobmanager/config`; Flink's default when it sets
/// none: exponential-delay with checkpoints, none without) rather than as the scenario's
/// (none when it plans no failure: a lost TaskManager would end the job). Flink lets a job's
/// own setting win over the cluster's, so the cluster's become the job's. `--flink-option`
/// naming a restart setting keeps the job's own.
fn restarts(job: &Job, config: &Value) -> Vec<(String, String)> {
    let restart = |k: &str| k == "restart-strategy" || k.starts_with("restart-strategy.");
    if job.overrides.iter().any(|(k, _)| restart(k)) {
        return Vec::new();
    }
    let mut settings: Vec<(String, String)> = config
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| Some((e["key"].as_str()?, e["value"].as_str()?)))
        .filter(|(k, _)| restart(k))
        // `restart-strategy` is the older name of `restart-strategy.type`.
        .map(|(k, v)| match k {
            "restart-strategy" => ("restart-strategy.type".to_string(), v.to_string()),
            k => (k.to_string(), v.to_string()),
        })
        .collect();
    if !settings.iter().any(|(k, _)| k == "restart-strategy.type") {
        let flinks = if job.scenario.config.checkpoint_interval.is_some() {
            "exponential-delay"
        } else {
            "none"
        };
        settings.push(("restart-strategy.type".into(), flinks.into()));
    }
    settings
}

/// The job with `extra` Flink settings after its own `--flink-option`s.
fn with_overrides(job: &Job, extra: Vec<(String, String)>) -> Job {
    let mut job = job.clone();
    job.overrides.extend(extra);
    job
}

/// Packs the compiled classes into `job.jar`: `jar cf job.jar -C classes .`.
fn pack(dir: &Path) -> Result<PathBuf, String> {
    let out = Command::new("jar")
        .current_dir(dir)
        .args(["cf", "job.jar", "-C", "classes", "."])
        .output()
        .map_err(|e| {
            if e.kind() == io::ErrorKind::NotFound {
                "Java's jar tool was not found on PATH (it comes with a JDK: .ci/flink-setup.sh \
                 installs openjdk-17-jdk-headless)"
                    .to_string()
            } else {
                format!("cannot run jar: {e}")
            }
        })?;
    if !out.status.success() {
        let text = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "jar could not pack the job's classes: {}",
            text.lines().next().unwrap_or("").trim()
        ));
    }
    Ok(dir.join("job.jar"))
}

/// What Flink said in an error answer (`{"errors": [...]}`, stack traces included): the
/// message of the deepest cause, or the first line; the error as it is when it is no such
/// answer.
fn flink_says(error: &str) -> String {
    let Some(errors) = error
        .find('{')
        .and_then(|i| serde_json::from_str::<Value>(&error[i..]).ok())
        .and_then(|v| v["errors"].as_array().cloned())
    else {
        return error.to_string();
    };
    let text: Vec<String> = errors
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    let lines: Vec<&str> = text
        .iter()
        .flat_map(|t| t.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("at ") && !l.starts_with("..."))
        .collect();
    let line = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("Caused by: "))
        .or_else(|| lines.iter().find(|l| l.contains("Exception: ")))
        .or_else(|| lines.first())
        .copied()
        .unwrap_or("no reason given");
    // "…Exception: message" → "message".
    let cut = ["Exception: ", "Error: "]
        .iter()
        .filter_map(|m| line.rfind(m).map(|i| i + m.len()))
        .max()
        .unwrap_or(0);
    line[cut..]
        .trim_start_matches("Caused by: ")
        .trim()
        .to_string()
}

/// A job id of our own (32 hex digits), given to Flink with the run request: the job can be
/// found under it even when the request's answer does not arrive.
fn job_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{:032x}", nanos ^ (u128::from(std::process::id()) << 96))
}

fn upload_and_run(
    job: &Job,
    args: &Args,
    url: &str,
    addr: SocketAddr,
    dir: &Path,
    jar: &Path,
) -> Result<(), String> {
    let bytes = std::fs::read(jar).map_err(|e| format!("cannot read {}: {e}", jar.display()))?;
    let answer =
        http::post_file(addr, "/jars/upload", "jarfile", "abs-job.jar", &bytes).map_err(|e| {
            format!(
                "the cluster at {url} refused the job's jar: {}",
                flink_says(&e)
            )
        })?;
    let jar_id = answer["filename"]
        .as_str()
        .and_then(|f| f.rsplit('/').next())
        .filter(|f| !f.is_empty())
        .ok_or_else(|| {
            format!("the cluster at {url} took the jar but gave no file name: {answer}")
        })?
        .to_string();
    let result = run_jar(job, args, url, addr, dir, &jar_id);
    if let Err(e) = http::delete(addr, &format!("/jars/{jar_id}")) {
        let _ = writeln!(
            io::stderr(),
            "abs-sim flink: the uploaded jar {jar_id} could not be deleted: {}",
            flink_says(&e)
        );
    }
    result
}

fn run_jar(
    job: &Job,
    args: &Args,
    url: &str,
    addr: SocketAddr,
    dir: &Path,
    jar_id: &str,
) -> Result<(), String> {
    let started = Instant::now();
    let results = dir.join("results");
    let results = std::fs::create_dir_all(&results)
        .and_then(|()| results.canonicalize())
        .map_err(|e| format!("cannot make {}: {e}", results.display()))?;
    let mut id = job_id();
    let body = json!({
        "entryClass": "AbsJob",
        "programArgsList": ["--results", results.to_string_lossy()],
        "jobId": id,
    });
    match http::post_json(addr, &format!("/jars/{jar_id}/run"), &body) {
        Ok(answer) => {
            if let Some(given) = answer["jobid"].as_str() {
                id = given.to_string();
            }
        }
        Err(e) if e.starts_with("HTTP ") => {
            return Err(format!(
                "the cluster at {url} refused to run the job: {}",
                flink_says(&e)
            ))
        }
        // No answer in time: the job may be running anyway, under the id it was given.
        Err(e) => {
            let _ = writeln!(
                io::stderr(),
                "abs-sim flink: no answer to the run request ({e}); looking for job {id}"
            );
        }
    }
    let _ = writeln!(io::stderr(), "abs-sim flink: job {id} on {url}");
    let deadline = started + Duration::from_secs(args.timeout);
    let mut polled = Polled::default();
    let mut status = String::from("SUBMITTED");
    let mut heard = Instant::now();
    let mut savepoints = run::Savepoints::new(&args.savepoints, job.tick_us);
    let mut last_history = Instant::now() - Duration::from_secs(1);
    loop {
        if Instant::now() > deadline {
            let cancelled = http::request(addr, "PATCH", &format!("/jobs/{id}?mode=cancel"), None);
            return Err(format!(
                "the job ran past the time limit of {} s (--timeout); {}",
                args.timeout,
                match cancelled {
                    Ok(_) => "it was cancelled on the cluster".to_string(),
                    Err(e) => format!("cancelling it failed: {}", flink_says(&e)),
                }
            ));
        }
        match http::get_json(addr, &format!("/jobs/{id}")) {
            Ok(j) => {
                status = j["state"].as_str().unwrap_or("?").to_string();
                heard = Instant::now();
            }
            Err(e) if heard.elapsed() > SILENCE => {
                return Err(format!(
                    "the cluster at {url} gave no state of job {id} for {} s: {}",
                    SILENCE.as_secs(),
                    flink_says(&e)
                ))
            }
            Err(_) => {}
        }
        if !ENDED.contains(&status.as_str()) {
            savepoints.ask_if_due(&status, addr, &id, dir);
        }
        if last_history.elapsed() >= Duration::from_millis(500) || ENDED.contains(&status.as_str())
        {
            last_history = Instant::now();
            if let Some(history) = polled.poll(addr, &id) {
                run::progress(started, &status, &history);
            }
        }
        if ENDED.contains(&status.as_str()) {
            break;
        }
        std::thread::sleep(savepoints.poll_every());
    }
    let mut bundle = run::gather(job, addr, &id, &mut polled, dir)?;
    bundle["savepoints_asked"] = Value::Array(savepoints.asked);
    let restart: Map<String, Value> = super::java::settings(job)
        .into_iter()
        .filter(|(k, _)| k.starts_with("restart-strategy"))
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    bundle["cluster"] = json!({"url": url, "job_id": id, "restart_strategy": restart});
    run::finish(&bundle, args, &status, started, &format!(" on {url}"))
}

#[cfg(test)]
mod tests {
    use super::{address, flink_says};

    #[test]
    fn a_cluster_url_is_http_host_and_port() {
        assert_eq!(
            address("http://127.0.0.1:8081/").unwrap().to_string(),
            "127.0.0.1:8081"
        );
        for bad in [
            "127.0.0.1:8081",
            "https://127.0.0.1:8081",
            "http://127.0.0.1",
            "http://h:1/x",
        ] {
            assert!(
                address(bad).unwrap_err().contains("--cluster needs"),
                "{bad}"
            );
        }
    }

    #[test]
    fn flink_errors_come_down_to_their_deepest_cause() {
        let refused = r#"HTTP 500 for POST /jars/j/run: {"errors":["org.apache.flink.runtime.rest.handler.RestHandlerException: Could not execute application.\n\tat x.y(Z.java:1)\nCaused by: org.apache.flink.client.program.ProgramInvocationException: The main method caused an error: unknown argument --bogus\n\tat a.b(C.java:2)\nCaused by: java.lang.IllegalArgumentException: unknown argument --bogus\n\tat AbsJob.main(AbsJob.java:439)\n\t... 8 more\n"]}"#;
        assert_eq!(flink_says(refused), "unknown argument --bogus");
        let missing = r#"HTTP 500 for POST /jars/j/run: {"errors":["Internal server error.","<Exception on server side:\njava.util.concurrent.CompletionException: org.apache.flink.client.program.ProgramInvocationException: The program's entry point class 'Nope' was not found in the jar file.\n\tat x.y(Z.java:1)\n\nEnd of exception on server side>"]}"#;
        assert_eq!(
            flink_says(missing),
            "The program's entry point class 'Nope' was not found in the jar file."
        );
        assert_eq!(flink_says("connection refused"), "connection refused");
    }
}
