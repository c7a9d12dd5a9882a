use super::{longest_path_layers, split_words, topological_order};

#[test]
fn layers_are_the_longest_path_from_a_source() {
    // 0 → 1 → 3, 0 → 3, 2 → 3: 3 is one past its deepest input (1).
    let edges = [(0, 1), (1, 3), (0, 3), (2, 3)];
    let order = topological_order(4, &edges).unwrap();
    assert_eq!(longest_path_layers(&order, &edges), vec![0, 1, 0, 2]);
    // A cycle has no order; without its back-edge it has one.
    assert!(topological_order(2, &[(0, 1), (1, 0)]).is_err());
}

#[test]
fn back_edges_are_what_closes_each_cycle() {
    use super::back_edges;
    // Src 0 → Step 1 ⇄ itself (feedback), Step → Sink 2.
    assert_eq!(back_edges(3, &[(0, 1), (1, 1), (1, 2)]), vec![1]);
    // p ⇄ q, no operator without inputs: the search starts at p, q → p closes the cycle.
    assert_eq!(back_edges(2, &[(0, 1), (1, 0)]), vec![1]);
    // Three accounts, every pair connected both ways: removing the back-edges leaves a DAG.
    let full: Vec<(u32, u32)> = (0..3u32)
        .flat_map(|a| (0..3u32).filter(move |&b| b != a).map(move |b| (a, b)))
        .collect();
    let back = back_edges(3, &full);
    let rest: Vec<(u32, u32)> = full
        .iter()
        .enumerate()
        .filter(|(e, _)| !back.contains(&(*e as u32)))
        .map(|(_, &p)| p)
        .collect();
    assert!(topological_order(3, &rest).is_ok());
    assert_eq!(back.len(), 3);
    // A DAG has none.
    assert!(back_edges(4, &[(0, 1), (1, 3), (0, 3), (2, 3)]).is_empty());
}

#[test]
fn words_split_at_spaces_and_punctuation_in_both_scripts() {
    let words: Vec<String> = split_words("To be, or NOT to-be!").collect();
    assert_eq!(words, ["to", "be", "or", "not", "to", "be"]);
    let words: Vec<String> = split_words("屏障 對齊，快照。檢查點").collect();
    assert_eq!(words, ["屏障", "對齊", "快照", "檢查點"]);
}

/// Flink's pointwise connection: one to one at equal parallelism; 4 senders → 2 receivers
/// read two senders each; 2 senders → 5 receivers feed a run of receivers each (3 and 2),
/// every receiver reached exactly once.
#[test]
fn pointwise_edges_connect_runs_of_subtasks_as_flink_does() {
    use super::pointwise_receivers as pw;
    assert_eq!(
        (0..3).map(|s| pw(s, 3, 3)).collect::<Vec<_>>(),
        [0..1, 1..2, 2..3]
    );
    assert_eq!(
        (0..4).map(|s| pw(s, 4, 2)).collect::<Vec<_>>(),
        [0..1, 0..1, 1..2, 1..2]
    );
    assert_eq!(
        (0..2).map(|s| pw(s, 2, 5)).collect::<Vec<_>>(),
        [0..3, 3..5]
    );
    assert_eq!(
        (0..3).map(|s| pw(s, 3, 2)).collect::<Vec<_>>(),
        [0..1, 1..2, 1..2]
    );
    assert_eq!(pw(0, 0, 3), 0..0);
}
