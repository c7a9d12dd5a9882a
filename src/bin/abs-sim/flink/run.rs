//! `abs-sim flink run`: export the job into a scratch folder, compile it, run it on a local
//! Flink (the job's own MiniCluster), poll the REST API while it runs, and write the bundle.
//!
//! The job's main prints `ABS-REST url`, `ABS-JOB id` and `ABS-END status` on stdout; after
//! the end its Flink stays up until its stdin closes, so the final checkpoint history is read
//! before Flink stops (a MiniCluster otherwise stops with its job).

use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use super::export::{Job, FLINK_VERSION, JVM_FLAGS};
use super::{files, http, Args};

/// What the job's main said so far.
#[derive(Default)]
struct Heard {
    rest: Option<SocketAddr>,
    job: Option<String>,
    end: Option<String>,
}

/// The folder holding Flink's jars: ABS_FLINK_HOME, checked.
pub(super) fn flink_lib() -> Result<PathBuf, String> {
    let missing = || {
        format!(
            "Flink's jars were not found: set ABS_FLINK_HOME to the folder holding \
             flink-dist-{FLINK_VERSION}.jar (.ci/flink-setup.sh installs them and prints it)"
        )
    };
    let dir = PathBuf::from(std::env::var_os("ABS_FLINK_HOME").ok_or_else(missing)?);
    if dir
        .join(format!("flink-dist-{FLINK_VERSION}.jar"))
        .is_file()
    {
        Ok(dir)
    } else {
        Err(missing())
    }
}

/// Runs `javac -version`: Java is there or the one sentence why not.
pub(super) fn check_java() -> Result<(), String> {
    for tool in ["javac", "java"] {
        match Command::new(tool)
            .arg("-version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
        {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(format!(
                    "Java is missing: {tool} was not found on PATH (.ci/flink-setup.sh installs \
                     openjdk-17-jdk-headless)"
                ))
            }
            Err(e) => return Err(format!("cannot run {tool}: {e}")),
        }
    }
    Ok(())
}

pub(super) fn scratch_dir() -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    std::env::temp_dir().join(format!("abs-sim-flink-{}-{nanos}", std::process::id()))
}

pub(super) fn compile(dir: &Path, lib: &Path) -> Result<(), String> {
    let classpath = format!("{}/*", lib.display());
    let out = Command::new("javac")
        .current_dir(dir)
        .args(["-encoding", "UTF-8", "-nowarn", "-d", "classes", "-cp"])
        .arg(&classpath)
        .arg("AbsJob.java")
        .output()
        .map_err(|e| format!("cannot run javac: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let text = String::from_utf8_lossy(&out.stderr);
    let first = text.lines().find(|l| l.contains("error")).unwrap_or("");
    Err(format!(
        "the exported job did not compile with Flink {FLINK_VERSION}'s jars: {}",
        first.trim()
    ))
}

fn start(dir: &Path, lib: &Path, port: u16) -> Result<(Child, Receiver<String>), String> {
    let log = std::fs::File::create(dir.join("java.err")).map_err(|e| e.to_string())?;
    let mut child = Command::new("java")
        .current_dir(dir)
        .args(JVM_FLAGS)
        .arg("-Dlog4j2.configurationFile=log4j2.properties")
        .arg("-cp")
        .arg(format!("{}/*:classes", lib.display()))
        .args(["AbsJob", "--local", "--results", "results", "--port"])
        .arg(port.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .map_err(|e| format!("cannot start java: {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout from java")?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    Ok((child, rx))
}

/// The last lines of the JVM's stderr that say something (for a sentence about a crash).
fn last_error(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("java.err")).unwrap_or_default();
    text.lines()
        .rfind(|l| !l.trim().is_empty() && !l.trim_start().starts_with("at "))
        .unwrap_or("")
        .trim()
        .to_string()
}

/// The REST answers gathered while the job runs, the completed checkpoints' details included.
#[derive(Default)]
pub(super) struct Polled {
    checkpoints: Option<Value>,
    details: Map<String, Value>,
}

impl Polled {
    /// Reads the checkpoint history, and the details and per-subtask figures of each
    /// completed checkpoint not read yet. Errors (the REST API not up yet) are left for the
    /// next poll.
    pub(super) fn poll(&mut self, addr: SocketAddr, job: &str) -> Option<Value> {
        let history = http::get_json(addr, &format!("/jobs/{job}/checkpoints")).ok()?;
        for c in history["history"].as_array().into_iter().flatten() {
            let (Some(id), Some("COMPLETED")) = (c["id"].as_u64(), c["status"].as_str()) else {
                continue;
            };
            if self.details.contains_key(&id.to_string()) {
                continue;
            }
            let path = format!("/jobs/{job}/checkpoints/details/{id}");
            let Ok(mut details) = http::get_json(addr, &path) else {
                continue;
            };
            let vertices: Vec<String> = details["tasks"]
                .as_object()
                .map(|t| t.keys().cloned().collect())
                .unwrap_or_default();
            let mut subtasks = Map::new();
            for v in vertices {
                if let Ok(s) = http::get_json(addr, &format!("{path}/subtasks/{v}")) {
                    subtasks.insert(v, s);
                }
            }
            details["subtasks"] = Value::Object(subtasks);
            self.details.insert(id.to_string(), details);
        }
        self.checkpoints = Some(history.clone());
        Some(history)
    }
}

pub(super) fn progress(started: Instant, status: &str, history: &Value) {
    let counts = &history["counts"];
    let _ = writeln!(
        io::stderr(),
        "flink: {:5.1} s  {status:<9}  checkpoints: {} completed, {} failed, {} in progress",
        started.elapsed().as_secs_f64(),
        counts["completed"].as_u64().unwrap_or(0),
        counts["failed"].as_u64().unwrap_or(0),
        counts["in_progress"].as_u64().unwrap_or(0),
    );
}

/// Final counts: the Count subtasks' files, summed per word.
fn final_counts(dir: &Path) -> Value {
    let mut counts: std::collections::BTreeMap<String, u64> = Default::default();
    let entries = std::fs::read_dir(dir.join("results")).into_iter().flatten();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if !(name.starts_with("counts-") && name.ends_with(".json")) {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        if let Ok(Value::Object(m)) = serde_json::from_str::<Value>(&text) {
            for (w, n) in m {
                *counts.entry(w).or_default() += n.as_u64().unwrap_or(0);
            }
        }
    }
    json!(counts)
}

/// Stops the JVM: closes its stdin (it then stops its Flink and exits), and kills it if it
/// has not exited within 10 s.
fn stop(child: &mut Child, stdin: Option<ChildStdin>) {
    // The pipe closes as `stdin` leaves this block (not `drop`: on wasm32, where the CLI is
    // only type-checked, a child's stdin has no `Drop`, and clippy says so).
    {
        let _closed = stdin;
    }
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
}

pub fn run(job: &Job, args: &Args) -> Result<(), String> {
    let lib = flink_lib()?;
    check_java()?;
    if args.port != 0 && TcpListener::bind(("127.0.0.1", args.port)).is_err() {
        return Err(format!(
            "port {} on 127.0.0.1 is taken: choose another with --port, or leave --port out \
             for any free one",
            args.port
        ));
    }
    let dir = scratch_dir();
    files::write(job, &dir)?;
    let result = compile(&dir, &lib).and_then(|()| run_in(job, args, &dir, &lib));
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

fn run_in(job: &Job, args: &Args, dir: &Path, lib: &Path) -> Result<(), String> {
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.timeout);
    let (mut child, lines) = start(dir, lib, args.port)?;
    let mut stdin = child.stdin.take();
    let mut heard = Heard::default();
    let mut polled = Polled::default();
    let mut last_poll = Instant::now() - Duration::from_secs(1);
    let mut last_history = last_poll;
    let mut status = "STARTING".to_string();
    let mut savepoints = Savepoints::new(&args.savepoints, job.tick_us);
    loop {
        if Instant::now() > deadline {
            stop(&mut child, stdin.take());
            return Err(format!(
                "the job ran past the time limit of {} s (--timeout); Flink was stopped",
                args.timeout
            ));
        }
        match lines.recv_timeout(Duration::from_millis(100)) {
            Ok(line) => {
                if let Some(url) = line.strip_prefix("ABS-REST ") {
                    let hostport = url
                        .trim()
                        .trim_start_matches("http://")
                        .trim_end_matches('/');
                    heard.rest = hostport.to_socket_addrs().ok().and_then(|mut a| a.next());
                } else if let Some(id) = line.strip_prefix("ABS-JOB ") {
                    heard.job = Some(id.trim().to_string());
                } else if let Some(end) = line.strip_prefix("ABS-END ") {
                    heard.end = Some(end.trim().to_string());
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                let _ = child.wait();
                let why = last_error(dir);
                return Err(
                    if why.contains("BindException") || why.contains("Address already") {
                        format!(
                            "port {} on 127.0.0.1 is taken: choose another with --port",
                            args.port
                        )
                    } else {
                        format!("Flink stopped before the job ended: {why}")
                    },
                );
            }
        }
        let (Some(addr), Some(id)) = (heard.rest, heard.job.clone()) else {
            continue;
        };
        if heard.end.is_none() {
            savepoints.ask_if_due(&status, addr, &id, dir);
        }
        let (due, every) = (savepoints.due(), savepoints.poll_every());
        if heard.end.is_none() && !due && last_poll.elapsed() < every {
            continue;
        }
        last_poll = Instant::now();
        if let Ok(j) = http::get_json(addr, &format!("/jobs/{id}")) {
            status = j["state"].as_str().unwrap_or("?").to_string();
        }
        if heard.end.is_some() || last_history.elapsed() >= Duration::from_millis(500) {
            last_history = Instant::now();
            if let Some(history) = polled.poll(addr, &id) {
                progress(started, &status, &history);
            }
        }
        if let Some(end) = heard.end.clone() {
            let bundle = gather(job, addr, &id, &mut polled, dir).map(|mut b| {
                b["savepoints_asked"] = Value::Array(savepoints.asked.clone());
                b
            });
            stop(&mut child, stdin.take());
            return finish(&bundle?, args, &end, started, "");
        }
    }
}

/// Writes the bundle and says how the job ended (`place`: where it ran, "" for here); the
/// first line of Flink's newest exception when it did not finish.
pub(super) fn finish(
    bundle: &Value,
    args: &Args,
    status: &str,
    started: Instant,
    place: &str,
) -> Result<(), String> {
    let text = serde_json::to_string_pretty(bundle).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&args.out, text)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    let _ = writeln!(
        io::stderr(),
        "abs-sim flink: {status} in {:.1} s{place}; wrote {}",
        started.elapsed().as_secs_f64(),
        args.out.display()
    );
    if status == "FINISHED" {
        return Ok(());
    }
    // Flink 2.x lists exceptions under `exceptionHistory` (newest first); 1.x also had
    // `root-exception`.
    let exceptions = &bundle["exceptions"];
    let root = (exceptions["root-exception"].as_str())
        .or_else(|| exceptions["exceptionHistory"]["entries"][0]["stacktrace"].as_str())
        .and_then(|s| s.lines().next())
        .unwrap_or("no exception was reported");
    Err(format!("the job failed for good ({status}): {root}"))
}

/// The savepoints `--savepoint` asks for, at ticks counted from when the job was first seen
/// running, and what Flink answered to each.
pub(super) struct Savepoints {
    left: Vec<u64>,
    tick_us: u64,
    running_since: Option<Instant>,
    pub asked: Vec<Value>,
}

impl Savepoints {
    pub(super) fn new(at: &[u64], tick_us: u64) -> Self {
        let mut left = at.to_vec();
        left.sort_unstable();
        Savepoints {
            left,
            tick_us,
            running_since: None,
            asked: Vec::new(),
        }
    }

    fn at(&self, tick: u64) -> Duration {
        Duration::from_micros(tick.saturating_mul(self.tick_us))
    }

    /// Whether the next one is due now.
    pub(super) fn due(&self) -> bool {
        (self.left.first().zip(self.running_since))
            .is_some_and(|(&at, since)| since.elapsed() >= self.at(at))
    }

    /// How often to poll: every half second, every 20 ms while one is still to be asked for.
    pub(super) fn poll_every(&self) -> Duration {
        Duration::from_millis(if self.left.is_empty() { 500 } else { 20 })
    }

    /// Asks for those due, once the job (in `status`) runs.
    pub(super) fn ask_if_due(&mut self, status: &str, addr: SocketAddr, id: &str, dir: &Path) {
        if status != "RUNNING" {
            return;
        }
        self.running_since.get_or_insert_with(Instant::now);
        while self.due() {
            let at = self.left.remove(0);
            self.asked.push(ask_savepoint(addr, id, dir, at));
        }
    }
}

/// Asks Flink for a savepoint of the running job, into `dir`/savepoints: what it answered,
/// or why not.
fn ask_savepoint(addr: SocketAddr, id: &str, dir: &Path, at: u64) -> Value {
    let target = format!("file://{}", dir.join("savepoints").display());
    let body = json!({"target-directory": target, "cancel-job": false});
    match http::post_json(addr, &format!("/jobs/{id}/savepoints"), &body) {
        Ok(answer) => {
            let _ = writeln!(io::stderr(), "flink: savepoint asked for at tick {at}");
            json!({"at": at, "request-id": answer["request-id"]})
        }
        Err(e) => json!({"at": at, "error": e}),
    }
}

/// The bundle, read once the job has ended (its Flink still up).
pub(super) fn gather(
    job: &Job,
    addr: SocketAddr,
    id: &str,
    polled: &mut Polled,
    dir: &Path,
) -> Result<Value, String> {
    let get = |path: String| http::get_json(addr, &path);
    // The REST API may still show the job running for a moment: wait for its end there too.
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        let state = get(format!("/jobs/{id}")).map(|j| j["state"].clone());
        if matches!(
            state.as_ref().ok().and_then(Value::as_str),
            Some("FINISHED" | "FAILED" | "CANCELED")
        ) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let config = get("/config".into())?;
    let plan = get(format!("/jobs/{id}/plan"))?;
    polled
        .poll(addr, id)
        .ok_or("the REST API did not give the checkpoint history")?;
    let exceptions = get(format!("/jobs/{id}/exceptions"))?;
    // Each vertex's subtasks: their attempt numbers (how often a failover restarted each) and
    // their states and times (when each finished).
    let mut vertices = Vec::new();
    for node in plan["plan"]["nodes"].as_array().into_iter().flatten() {
        let Some(vid) = node["id"].as_str() else {
            continue;
        };
        let v = get(format!("/jobs/{id}/vertices/{vid}"))?;
        let subtasks: Vec<Value> = v["subtasks"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| {
                json!({
                    "subtask": s["subtask"], "attempt": s["attempt"], "status": s["status"],
                    "start-time": s["start-time"], "end-time": s["end-time"],
                })
            })
            .collect();
        vertices.push(json!({
            "id": vid, "name": v["name"], "parallelism": v["parallelism"], "subtasks": subtasks,
        }));
    }
    let mut checkpoints = polled.checkpoints.clone().unwrap_or(Value::Null);
    checkpoints["details"] = Value::Object(polled.details.clone());
    Ok(json!({
        "flink_version": config["flink-version"],
        "scenario": job.scenario.name,
        "mode": job.mode.name(),
        "passes": job.passes,
        "tick_us": job.tick_us,
        "planned_failures": job.failures.iter().map(|f| json!({
            "task": f.task, "at": f.at, "attempt": f.attempt, "records": f.records,
        })).collect::<Vec<_>>(),
        "plan": plan["plan"].clone(),
        "checkpoints": checkpoints,
        "exceptions": exceptions,
        "vertices": vertices,
        "final": {"counts": final_counts(dir)},
    }))
}
