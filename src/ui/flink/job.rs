//! One job, built up from what is pasted into the view, one REST response after another: a
//! plan, checkpoint lists and details (merged by checkpoint id), one vertex's subtasks in one
//! checkpoint (named by the checkpoint's task figures), the checkpoint configuration, the
//! exceptions, each vertex's subtask attempts, the cluster's version — or a bundle, which is a
//! whole job and starts one anew.

use std::rc::Rc;

use crate::scenario::flink::{
    CheckpointConfig, CheckpointHistory, FlinkImport, HistorySource, JobException, PlanImport,
    VertexAttempts,
};

/// What one import added, for the view's list of what the job holds so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Added {
    Plan,
    /// A checkpoint list or one checkpoint's details: how many checkpoints it held.
    Checkpoints(usize),
    /// A bundle: its checkpoints, and whether it had a plan.
    Bundle(usize),
    /// One vertex's subtasks in one checkpoint, named as matched.
    Subtasks {
        checkpoint: u64,
        vertex: String,
    },
    Config,
    Exceptions(usize),
    Vertex(String),
    Cluster(String),
}

/// The job as imported so far.
#[derive(Clone, Default, PartialEq)]
pub struct Job {
    pub plan: Option<Rc<PlanImport>>,
    pub history: Option<Rc<CheckpointHistory>>,
    pub config: Option<Rc<CheckpointConfig>>,
    pub exceptions: Rc<Vec<JobException>>,
    pub vertices: Rc<Vec<VertexAttempts>>,
    pub version: Option<String>,
    /// What each import added, in order.
    pub added: Vec<Added>,
}

impl Job {
    /// The job with one more document in it.
    pub fn with(&self, import: FlinkImport) -> Job {
        let mut job = self.clone();
        let added = match import {
            FlinkImport::Plan(plan) => {
                job.plan = Some(Rc::new(plan));
                Added::Plan
            }
            FlinkImport::History(h) => {
                let n = h.checkpoints.len();
                job.merge_history(h);
                Added::Checkpoints(n)
            }
            // A bundle is a whole job of its own: it starts one anew.
            FlinkImport::Bundle(b) => {
                job = Job::default();
                job.plan = b.plan.map(Rc::new);
                let n = b.history.checkpoints.len();
                job.history = Some(Rc::new(b.history));
                Added::Bundle(n)
            }
            FlinkImport::Subtasks(v) => {
                let checkpoint = v.checkpoint;
                let mut history = job
                    .history
                    .as_deref()
                    .cloned()
                    .unwrap_or(CheckpointHistory {
                        source: HistorySource::Flink { version: None },
                        checkpoints: Vec::new(),
                    });
                let vertex = history.add_vertex(v);
                job.history = Some(Rc::new(history));
                Added::Subtasks { checkpoint, vertex }
            }
            FlinkImport::Config(c) => {
                job.config = Some(Rc::new(c));
                Added::Config
            }
            FlinkImport::Exceptions(e) => {
                let n = e.len();
                job.exceptions = Rc::new(e);
                Added::Exceptions(n)
            }
            FlinkImport::Vertex(v) => {
                let name = v.name.clone();
                let mut all = (*job.vertices).clone();
                match all.iter_mut().find(|o| o.id == v.id) {
                    Some(old) => *old = v,
                    None => all.push(v),
                }
                job.vertices = Rc::new(all);
                Added::Vertex(name)
            }
            FlinkImport::Cluster { version } => {
                job.version = Some(version.clone());
                Added::Cluster(version)
            }
        };
        job.added.push(added);
        job
    }

    fn merge_history(&mut self, newer: CheckpointHistory) {
        let merged = match self.history.as_deref() {
            Some(old) => {
                let mut h = old.clone();
                h.merge(newer);
                h
            }
            None => newer,
        };
        self.history = Some(Rc::new(merged));
    }

    /// Whether nothing has been imported.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
    }
}
