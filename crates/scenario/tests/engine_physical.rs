//! The physical graph (`abs_engine::physical`) of the iteration preset.

use abs_engine::{GraphError, Physical};

#[test]
fn an_iteration_step_needs_its_feedback_loop() {
    let mut graph = abs_scenario::presets::iteration_graph(true);
    assert!(Physical::build(&graph).is_ok());
    // Without the edge Step → Step, words would go nowhere on their rounds.
    graph.edges.retain(|e| e.from != e.to);
    assert_eq!(
        Physical::build(&graph).err(),
        Some(GraphError::IterateWithoutLoop("Step".into()))
    );
    // A loop through another operator is not the step's own: the same error.
    let mut graph = abs_scenario::presets::iteration_graph(true);
    graph.edges.retain(|e| e.from != e.to);
    graph.operators.push(graph.operators[0].clone());
    let back = graph.operators.len() - 1;
    graph.operators[back].name = "Back".into();
    graph.operators[back].kind = abs_engine::OperatorKind::Map;
    graph.edges.push(graph.edges[0].clone());
    let n = graph.edges.len();
    (graph.edges[n - 1].from, graph.edges[n - 1].to) = ("Step".into(), "Back".into());
    graph.edges.push(graph.edges[0].clone());
    (graph.edges[n].from, graph.edges[n].to) = ("Back".into(), "Step".into());
    assert_eq!(
        Physical::build(&graph).err(),
        Some(GraphError::IterateWithoutLoop("Step".into()))
    );
}
