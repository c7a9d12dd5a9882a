//! Graph orders the physical graph is built from: a topological order, the layers of the
//! drawing, the edges that close a cycle.

use std::ops::Range;

/// Each operator's layer along `order` (a topological order): one past its deepest input.
pub(super) fn longest_path_layers(order: &[u32], edges: &[(u32, u32)]) -> Vec<u32> {
    let mut layer = vec![0u32; order.len()];
    for &op in order {
        let next = layer[op as usize] + 1;
        for &(f, t) in edges {
            if f == op {
                layer[t as usize] = layer[t as usize].max(next);
            }
        }
    }
    layer
}

/// The edges that close a cycle: a depth-first search from the operators without inputs (then
/// from any operator not yet visited), in operator and edge order; an edge to an operator still
/// on the search path is a back-edge. Iterative, so a long chain cannot overflow the stack.
pub(super) fn back_edges(n: usize, edges: &[(u32, u32)]) -> Vec<u32> {
    // 0: not visited, 1: on the path, 2: done.
    let mut state = vec![0u8; n];
    let mut back = Vec::new();
    let has_input: Vec<bool> = (0..n as u32)
        .map(|o| edges.iter().any(|&(_, t)| t == o))
        .collect();
    let roots = (0..n as u32)
        .filter(|&o| !has_input[o as usize])
        .chain(0..n as u32);
    for root in roots {
        if state[root as usize] != 0 {
            continue;
        }
        // (operator, next edge index to look at)
        let mut path: Vec<(u32, usize)> = vec![(root, 0)];
        state[root as usize] = 1;
        while let Some(top) = path.last_mut() {
            let (op, next) = *top;
            match edges[next..].iter().position(|&(f, _)| f == op) {
                Some(k) => {
                    let e = next + k;
                    top.1 = e + 1;
                    let to = edges[e].1;
                    match state[to as usize] {
                        0 => {
                            state[to as usize] = 1;
                            path.push((to, 0));
                        }
                        1 => {
                            // Kept in increasing order as found (no sort of its own: the page
                            // carries each sort instantiation as code).
                            let e = e as u32;
                            let at = back.partition_point(|&b| b < e);
                            back.insert(at, e);
                        }
                        _ => {}
                    }
                }
                None => {
                    state[op as usize] = 2;
                    path.pop();
                }
            }
        }
    }
    back
}

/// Kahn's algorithm, ties broken by operator index so the order is stable. On a cycle,
/// returns an operator on it.
pub(super) fn topological_order(n: usize, edges: &[(u32, u32)]) -> Result<Vec<u32>, u32> {
    let mut indegree = vec![0u32; n];
    for &(_, t) in edges {
        indegree[t as usize] += 1;
    }
    // Operators whose inputs are all placed, largest index first so that `pop` takes the
    // smallest.
    let mut ready: Vec<u32> = (0..n as u32)
        .rev()
        .filter(|&i| indegree[i as usize] == 0)
        .collect();
    let mut order = Vec::with_capacity(n);
    while let Some(op) = ready.pop() {
        order.push(op);
        for &(f, t) in edges {
            if f == op {
                indegree[t as usize] -= 1;
                if indegree[t as usize] == 0 {
                    let at = ready.partition_point(|&r| r > t);
                    ready.insert(at, t);
                }
            }
        }
    }
    if order.len() == n {
        Ok(order)
    } else {
        Err((0..n as u32)
            .find(|&i| indegree[i as usize] > 0)
            .unwrap_or(0))
    }
}

/// The receivers (by subtask) that sender `s` of `senders` reaches over a pointwise edge to
/// `receivers` subtasks, as Flink connects them: one to one when the numbers match; with
/// fewer receivers, each takes a consecutive run of senders; with more, each sender feeds a
/// consecutive run of receivers.
pub(super) fn pointwise_receivers(s: usize, senders: usize, receivers: usize) -> Range<usize> {
    if senders == 0 || receivers == 0 {
        return 0..0;
    }
    if senders >= receivers {
        // Receiver r reads senders r·S/R .. (r+1)·S/R: find the r whose run holds s.
        let r = (0..receivers)
            .find(|&r| s < (r + 1) * senders / receivers)
            .unwrap_or(receivers - 1);
        r..r + 1
    } else {
        let start = (s * receivers).div_ceil(senders);
        let end = ((s + 1) * receivers).div_ceil(senders);
        start..end
    }
}
