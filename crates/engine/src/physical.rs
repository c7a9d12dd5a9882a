//! The physical graph: each operator expanded into subtasks, each edge into one FIFO channel
//! per (upstream subtask, downstream subtask) pair, as Flink's execution graph does.
//!
//! Building it is where a job graph is checked: every problem is a typed [`GraphError`].

use serde::{Deserialize, Serialize};

use super::model::{JobGraph, OperatorKind, Partitioning};
use super::names::{self, NameIndex};
use super::sorted_map::SortedMap;

pub use super::vocab::{ChannelId, TaskId, MAX_CHANNELS, MAX_LINES, MAX_TASKS};
pub use error::{ConcurrentRefusal, GraphError, FLINK_CONCURRENT_UNALIGNED};
use order::{back_edges, longest_path_layers, pointwise_receivers, topological_order};

mod error;
mod order;

/// A subtask: one parallel instance of an operator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskInfo {
    pub operator: u32,
    pub subtask: u32,
    /// `Name#i`, as Flink's web UI names subtasks.
    pub name: String,
    /// Input channels in input-index order (the barrier handler's channel numbers).
    pub inputs: Vec<ChannelId>,
    /// Output channels, grouped by outgoing edge, each group in downstream-subtask order.
    pub outputs: Vec<Vec<ChannelId>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelInfo {
    pub edge: u32,
    pub from: TaskId,
    pub to: TaskId,
    /// This channel's index among the receiving task's inputs.
    pub input_index: u32,
    pub latency: u64,
    /// Items the channel holds at most (queued plus held at the receiver); see
    /// [`super::model::Edge::capacity`].
    pub capacity: u32,
}

/// One line of a source's log, with its words already interned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    pub text: String,
    pub words: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Physical {
    pub graph: JobGraph,
    pub tasks: Vec<TaskInfo>,
    pub channels: Vec<ChannelInfo>,
    /// Per operator, its subtasks' ids (contiguous).
    pub operator_tasks: Vec<Vec<TaskId>>,
    /// Operators in topological order of the graph without its back-edges.
    pub topo_order: Vec<u32>,
    /// Indices of the job graph's back-edges: the edges that close a cycle (found by a
    /// depth-first search from the operators without inputs, in operator order). Without them
    /// the graph is acyclic. Empty for an acyclic graph.
    pub back_edges: Vec<u32>,
    /// The job graph's edges as (from, to) operator indices, in edge order.
    pub operator_edges: Vec<(u32, u32)>,
    /// Each operator's layer: the length of the longest path to it from a source (the
    /// page draws layers left to right). Computed here once, from `topo_order`.
    pub layers: Vec<u32>,
    /// Every source line of every source, indexed by [`super::record::Payload::Line`].
    pub lines: Vec<Line>,
    /// Per source operator, the indices into `lines` of its log.
    pub source_lines: SortedMap<u32, Vec<u32>>,
    /// Interned words, indexed by [`super::record::Payload::Word`].
    pub words: Vec<String>,
    /// A fixed hash of each word (FNV-1a), for hash partitioning.
    pub word_hash: Vec<u32>,
}

/// Splits a line into words, the way the Split operator does: at whitespace and punctuation
/// (ASCII, and the common CJK marks), with ASCII letters lower-cased. Other characters stay
/// inside words, so Chinese text separated by spaces or marks splits as expected. Full Unicode
/// case and class tables would add ~10 KB gzip to the page for no lesson.
pub fn split_words(text: &str) -> impl Iterator<Item = String> + '_ {
    const CJK_MARKS: &[char] = &[
        '，', '。', '、', '；', '：', '！', '？', '「', '」', '（', '）', '　',
    ];
    text.split(|c: char| {
        c.is_ascii_whitespace() || c.is_ascii_punctuation() || CJK_MARKS.contains(&c)
    })
    .filter(|w| !w.is_empty())
    .map(|w| w.to_ascii_lowercase())
}

fn fnv1a(s: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in s.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

impl Physical {
    /// Flink's pipelined regions: in a streaming job every channel is pipelined, so a region
    /// is a connected component of the subtask graph — an all-to-all edge joins all its
    /// subtasks, a pointwise edge only the pairs it connects. Each task's region is named by
    /// its lowest task.
    pub fn regions(&self) -> Vec<TaskId> {
        fn root(parent: &mut [TaskId], mut t: TaskId) -> TaskId {
            while parent[t as usize] != t {
                let up = parent[parent[t as usize] as usize];
                parent[t as usize] = up;
                t = up;
            }
            t
        }
        let mut parent: Vec<TaskId> = (0..self.tasks.len() as TaskId).collect();
        for ch in &self.channels {
            let (a, b) = (root(&mut parent, ch.from), root(&mut parent, ch.to));
            parent[a.max(b) as usize] = a.min(b);
        }
        (0..self.tasks.len() as TaskId)
            .map(|t| root(&mut parent, t))
            .collect()
    }

    /// The tasks of `t`'s region, in order.
    pub fn region_of(&self, t: TaskId) -> Vec<TaskId> {
        let regions = self.regions();
        let mine = regions.get(t as usize).copied();
        (0..self.tasks.len() as TaskId)
            .filter(|&u| Some(regions[u as usize]) == mine)
            .collect()
    }

    pub fn build(graph: &JobGraph) -> Result<Physical, GraphError> {
        let ops = &graph.operators;
        if ops.is_empty() {
            return Err(GraphError::NoOperators);
        }
        let index = NameIndex::new(ops.iter().map(|op| op.name.as_str()));
        let first_named = index.first_positions();
        let mut total_tasks: u64 = 0;
        for (i, op) in ops.iter().enumerate() {
            if op.name.trim().is_empty() {
                return Err(GraphError::EmptyName);
            }
            // An earlier operator has this name.
            if first_named.get(i) != Some(&(i as u32)) {
                return Err(GraphError::DuplicateOperator(op.name.clone()));
            }
            if op.parallelism == 0 {
                return Err(GraphError::ZeroParallelism(op.name.clone()));
            }
            if op.kind.is_process() && op.parallelism != 1 {
                return Err(GraphError::ProcessParallelism(op.name.clone()));
            }
            match op.kind {
                OperatorKind::Token { hold: 0, .. } | OperatorKind::Account { interval: 0, .. } => {
                    return Err(GraphError::ZeroInterval(op.name.clone()));
                }
                _ => {}
            }
            total_tasks += op.parallelism as u64;
            if let OperatorKind::Source {
                lines, interval, ..
            } = &op.kind
            {
                if lines.is_empty() {
                    return Err(GraphError::SourceWithoutLines(op.name.clone()));
                }
                if *interval == 0 {
                    return Err(GraphError::ZeroInterval(op.name.clone()));
                }
            }
        }
        if total_tasks > MAX_TASKS as u64 {
            return Err(GraphError::TooManyTasks(total_tasks));
        }
        if !ops
            .iter()
            .any(|o| o.kind.is_source() || o.kind.is_process())
        {
            return Err(GraphError::NoSource);
        }
        let holders: Vec<&str> = ops
            .iter()
            .filter(|o| {
                matches!(
                    o.kind,
                    OperatorKind::Token {
                        has_token: true,
                        ..
                    }
                )
            })
            .map(|o| o.name.as_str())
            .collect();
        if let [a, b, ..] = holders[..] {
            return Err(GraphError::TwoTokens(a.to_string(), b.to_string()));
        }

        // Resolve edges and count channels before allocating anything.
        let mut edges = Vec::with_capacity(graph.edges.len());
        // Per operator, the operators its edges so far lead to: a pair may be joined once.
        let mut targets: Vec<Vec<u32>> = vec![Vec::new(); ops.len()];
        let mut total_channels: u64 = 0;
        for (e, edge) in graph.edges.iter().enumerate() {
            let lookup = |name: &String| {
                index.find(name).ok_or_else(|| GraphError::UnknownOperator {
                    edge: e as u32,
                    name: name.clone(),
                })
            };
            let (from, to) = (lookup(&edge.from)?, lookup(&edge.to)?);
            let joined = &mut targets[from as usize];
            if joined.contains(&to) {
                return Err(GraphError::DuplicateEdge {
                    from: edge.from.clone(),
                    to: edge.to.clone(),
                });
            }
            joined.push(to);
            let (fp, tp) = (ops[from as usize].parallelism, ops[to as usize].parallelism);
            if ops[to as usize].kind.is_source() {
                return Err(GraphError::SourceHasInputs(edge.to.clone()));
            }
            if edge.partitioning == Partitioning::Forward && fp != tp {
                return Err(GraphError::ForwardParallelism {
                    from: edge.from.clone(),
                    to: edge.to.clone(),
                    from_p: fp,
                    to_p: tp,
                });
            }
            total_channels += if edge.partitioning.is_pointwise() {
                fp.max(tp) as u64
            } else {
                fp as u64 * tp as u64
            };
            edges.push((from, to));
        }
        if total_channels > MAX_CHANNELS {
            return Err(GraphError::TooManyChannels(total_channels));
        }
        for (i, op) in ops.iter().enumerate() {
            let inputs = edges.iter().filter(|(_, t)| *t == i as u32).count();
            if !op.kind.is_source() && !op.kind.is_process() && inputs == 0 {
                return Err(GraphError::NoInputs(op.name.clone()));
            }
            if op.kind == OperatorKind::Union && inputs < 2 {
                return Err(GraphError::UnionNeedsTwoInputs(op.name.clone()));
            }
            // The step sends a word round on its own back-edges only: a loop through other
            // operators would have its back-edge elsewhere, and the word would be lost.
            if matches!(op.kind, OperatorKind::Iterate { .. })
                && !edges.contains(&(i as u32, i as u32))
            {
                return Err(GraphError::IterateWithoutLoop(op.name.clone()));
            }
        }
        let back_edges = back_edges(ops.len(), &edges);
        let forward: Vec<(u32, u32)> = edges
            .iter()
            .enumerate()
            .filter(|(e, _)| !back_edges.contains(&(*e as u32)))
            .map(|(_, &pair)| pair)
            .collect();
        let topo_order = topological_order(ops.len(), &forward)
            .map_err(|op| GraphError::Cycle(ops[op as usize].name.clone()))?;
        let layers = longest_path_layers(&topo_order, &forward);

        // Subtasks, contiguous per operator.
        let mut tasks = Vec::with_capacity(total_tasks as usize);
        let mut operator_tasks = Vec::with_capacity(ops.len());
        for (i, op) in ops.iter().enumerate() {
            let first = tasks.len() as u32;
            for s in 0..op.parallelism {
                tasks.push(TaskInfo {
                    operator: i as u32,
                    subtask: s,
                    // A process is one of a kind: named as the seed names it (`p`, not `p#0`).
                    name: if op.kind.is_process() {
                        op.name.clone()
                    } else {
                        format!("{}#{}", op.name, s)
                    },
                    inputs: Vec::new(),
                    outputs: Vec::new(),
                });
            }
            operator_tasks.push((first..first + op.parallelism).collect::<Vec<_>>());
        }

        // Channels, edge by edge: inputs of a task are numbered in edge order, then by
        // upstream subtask, so the numbering is stable and readable.
        let mut channels = Vec::with_capacity(total_channels as usize);
        for (e, edge) in graph.edges.iter().enumerate() {
            let (from, to) = edges[e];
            for &up in &operator_tasks[from as usize] {
                tasks[up as usize].outputs.push(Vec::new());
            }
            for (s, &up) in operator_tasks[from as usize].iter().enumerate() {
                let receivers = &operator_tasks[to as usize];
                let targets: Vec<TaskId> = if edge.partitioning.is_pointwise() {
                    let (fp, tp) = (operator_tasks[from as usize].len(), receivers.len());
                    receivers[pointwise_receivers(s, fp, tp)].to_vec()
                } else {
                    receivers.clone()
                };
                for down in targets {
                    let id = channels.len() as ChannelId;
                    let input_index = tasks[down as usize].inputs.len() as u32;
                    tasks[down as usize].inputs.push(id);
                    if let Some(group) = tasks[up as usize].outputs.last_mut() {
                        group.push(id);
                    }
                    channels.push(ChannelInfo {
                        edge: e as u32,
                        from: up,
                        to: down,
                        input_index,
                        latency: edge.latency,
                        capacity: edge.capacity.max(1),
                    });
                }
            }
        }

        // Every source line with its words, which are interned once all are known.
        let mut texts = Vec::new();
        let mut line_words = Vec::new();
        let mut source_lines = SortedMap::new();
        for (i, op) in ops.iter().enumerate() {
            if let OperatorKind::Source { lines: text, .. } = &op.kind {
                let mut ids = Vec::with_capacity(text.len());
                for line in text {
                    if texts.len() >= MAX_LINES {
                        return Err(GraphError::TooManyLines(
                            ops.iter()
                                .map(|o| match &o.kind {
                                    OperatorKind::Source { lines, .. } => lines.len(),
                                    _ => 0,
                                })
                                .sum(),
                        ));
                    }
                    ids.push(texts.len() as u32);
                    texts.push(line.clone());
                    line_words.push(split_words(line).collect());
                }
                // Operators come in index order, so each insert appends.
                source_lines.insert(i as u32, ids);
            }
        }
        let (words, line_ids) = names::intern(line_words);
        let lines = texts
            .into_iter()
            .zip(line_ids)
            .map(|(text, words)| Line { text, words })
            .collect();
        let word_hash = words.iter().map(|w| fnv1a(w)).collect();
        Ok(Physical {
            graph: graph.clone(),
            tasks,
            channels,
            operator_tasks,
            topo_order,
            back_edges,
            operator_edges: edges,
            layers,
            lines,
            source_lines,
            words,
            word_hash,
        })
    }

    pub fn operator_of(&self, task: TaskId) -> &super::model::Operator {
        &self.graph.operators[self.tasks[task as usize].operator as usize]
    }

    pub fn task_count(&self) -> u32 {
        self.tasks.len() as u32
    }

    pub fn channel_count(&self) -> u32 {
        self.channels.len() as u32
    }

    /// `from-subtask → to-subtask` name, as test hooks and the inspector name a channel.
    /// A channel as people read it, the same in sentences and tables: `Src A#0→Merge#0`.
    /// ([`Physical::channel_name`] is the identifier links and test hooks use.)
    pub fn channel_label(&self, c: ChannelId) -> String {
        match self.channels.get(c as usize) {
            Some(ch) => format!(
                "{}→{}",
                self.tasks[ch.from as usize].name, self.tasks[ch.to as usize].name
            ),
            None => format!("channel {c}"),
        }
    }

    pub fn channel_name(&self, c: ChannelId) -> String {
        match self.channels.get(c as usize) {
            Some(ch) => format!(
                "{}-{}",
                self.tasks[ch.from as usize].name, self.tasks[ch.to as usize].name
            ),
            None => format!("channel {c}"),
        }
    }

    /// Whether the job graph's edge `e` closes a cycle.
    pub fn is_back_edge(&self, e: u32) -> bool {
        self.back_edges.contains(&e)
    }

    /// Whether input `input` of task `t` comes in on a back-edge (false if there is none).
    /// Whether channel `c` belongs to a back-edge (it closes a loop).
    pub fn channel_is_back_edge(&self, c: ChannelId) -> bool {
        self.channels
            .get(c as usize)
            .is_some_and(|c| self.is_back_edge(c.edge))
    }

    pub fn input_is_back_edge(&self, t: TaskId, input: u32) -> bool {
        self.tasks
            .get(t as usize)
            .and_then(|i| i.inputs.get(input as usize))
            .and_then(|&c| self.channels.get(c as usize))
            .is_some_and(|c| self.is_back_edge(c.edge))
    }

    /// The subtasks a marker sent by `from` can reach (itself included), by task id.
    pub fn reachable_from(&self, from: TaskId) -> Vec<bool> {
        let mut seen = vec![false; self.tasks.len()];
        let mut todo = vec![from];
        while let Some(t) = todo.pop() {
            match seen.get_mut(t as usize) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            for &c in self.tasks[t as usize].outputs.iter().flatten() {
                todo.push(self.channels[c as usize].to);
            }
        }
        seen
    }

    /// Find a task by its `Name#i`.
    pub fn task_by_name(&self, name: &str) -> Option<TaskId> {
        self.tasks
            .iter()
            .position(|t| t.name == name)
            .map(|i| i as TaskId)
    }
}

#[cfg(test)]
mod tests;
