//! The compiled solution space: a decision DAG with decomposable AND nodes (a
//! decision-DNNF), built as a by-product of counting. Listing walks it; every path that
//! avoids `FALSE` ends in a solution, so listing costs time proportional to its output.

use gridsat_encodings::cnf::{Lit, Var};
use std::ops::{ControlFlow, Range};

/// Index of a node in `Dag::nodes`.
pub(super) type NodeId = u32;

/// The node with no solutions. Every unsatisfiable sub-problem is this node, so a walk
/// only needs `child != FALSE` to know a branch has solutions.
pub(super) const FALSE: NodeId = 0;
/// The node with exactly one (empty) solution.
pub(super) const TRUE: NodeId = 1;

/// Literals set on the way into a node: a decision and what unit propagation implied.
#[derive(Clone, Debug)]
pub(super) struct Edge {
    pub lits: Range<u32>,
    pub child: NodeId,
}

impl Edge {
    /// An edge into the FALSE node.
    pub const DEAD: Edge = Edge {
        lits: 0..0,
        child: FALSE,
    };
}

#[derive(Clone, Debug)]
pub(super) enum Node {
    False,
    True,
    /// Branch on a projected variable: both values, each with its implied literals.
    Decision([Edge; 2]),
    /// Independent sub-problems over disjoint variables: their solutions combine freely.
    And(Vec<NodeId>),
    /// Projected variables in no remaining clause: every combination is a solution.
    Free(Vec<Var>),
    /// A sub-problem without projected variables that is satisfiable: one witness.
    Witness(Range<u32>),
}

pub(super) struct Dag {
    nodes: Vec<Node>,
    /// Literal storage for edges and witnesses.
    lits: Vec<Lit>,
    /// False when only the count is wanted: nothing is stored, and every sub-problem
    /// with solutions is represented by `TRUE`.
    keep: bool,
}

impl Dag {
    pub fn new(keep: bool) -> Dag {
        Dag {
            nodes: vec![Node::False, Node::True],
            lits: Vec::new(),
            keep,
        }
    }

    pub fn is_kept(&self) -> bool {
        self.keep
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn push(&mut self, node: Node) -> NodeId {
        if !self.keep {
            return TRUE;
        }
        let id = NodeId::try_from(self.nodes.len()).expect("more than 2^32 DAG nodes");
        self.nodes.push(node);
        id
    }

    pub fn store_lits(&mut self, lits: &[Lit]) -> Range<u32> {
        if !self.keep {
            return 0..0;
        }
        let start = self.lits.len() as u32;
        self.lits.extend_from_slice(lits);
        start..self.lits.len() as u32
    }

    pub fn set(&self, range: &Range<u32>, values: &mut [bool]) {
        for lit in &self.lits[range.start as usize..range.end as usize] {
            values[lit.var().index()] = lit.is_positive();
        }
    }

    /// Calls `visit` once per solution below `root`, with `values` completed along the
    /// way, until `visit` breaks.
    ///
    /// Iterative, so a DAG as deep as the formula is wide cannot overflow the stack. The
    /// nodes still to expand on the current path form a continuation: an immutable list
    /// kept in `conts`, so a choice point saves it in O(1) and backtracking drops
    /// everything allocated since.
    pub fn walk(
        &self,
        root: NodeId,
        values: &mut [bool],
        visit: &mut dyn FnMut(&mut [bool]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut walker = Walker {
            dag: self,
            conts: Vec::new(),
            choices: Vec::new(),
        };
        let mut cont = walker.cons(root, NIL);
        loop {
            // Expand deterministically until a solution is complete or a branch dies.
            let complete = loop {
                if cont == NIL {
                    break true;
                }
                let Cont { node, next } = walker.conts[cont as usize];
                cont = next;
                match &self.nodes[node as usize] {
                    Node::False => break false,
                    Node::True => {}
                    Node::Witness(range) => self.set(range, values),
                    Node::And(children) => {
                        for &child in children.iter().rev() {
                            cont = walker.cons(child, cont);
                        }
                    }
                    Node::Decision(edges) => {
                        let live: Vec<usize> =
                            (0..2).filter(|&i| edges[i].child != FALSE).collect();
                        let Some(&first) = live.first() else {
                            break false;
                        };
                        if live.len() == 2 {
                            walker.choose(Choice::SecondEdge { node }, cont);
                        }
                        self.set(&edges[first].lits, values);
                        cont = walker.cons(edges[first].child, cont);
                    }
                    Node::Free(_) => walker.enter_free(node, 0, cont, values),
                }
            };
            if complete {
                visit(values)?;
            }
            // Resume the most recent choice point, if any is left.
            let Some((choice, saved_cont, saved_len)) = walker.choices.pop() else {
                return ControlFlow::Continue(());
            };
            walker.conts.truncate(saved_len);
            cont = saved_cont;
            match choice {
                Choice::SecondEdge { node } => {
                    let Node::Decision(edges) = &self.nodes[node as usize] else {
                        unreachable!("a SecondEdge choice is made at a decision node");
                    };
                    self.set(&edges[1].lits, values);
                    cont = walker.cons(edges[1].child, cont);
                }
                Choice::FreeTrue { node, index } => {
                    let Node::Free(vars) = &self.nodes[node as usize] else {
                        unreachable!("a FreeTrue choice is made at a free node");
                    };
                    values[vars[index as usize].index()] = true;
                    walker.enter_free(node, index as usize + 1, cont, values);
                }
            }
        }
    }
}

const NIL: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Cont {
    node: NodeId,
    next: u32,
}

#[derive(Clone, Copy)]
enum Choice {
    /// Take the decision's second edge (the first was taken).
    SecondEdge { node: NodeId },
    /// Set free variable `index` true (it was false) and the ones after it false again.
    FreeTrue { node: NodeId, index: u32 },
}

struct Walker<'a> {
    dag: &'a Dag,
    conts: Vec<Cont>,
    /// The choice, the continuation after its node, and `conts.len()` when it was made.
    choices: Vec<(Choice, u32, usize)>,
}

impl Walker<'_> {
    fn cons(&mut self, node: NodeId, next: u32) -> u32 {
        let id = u32::try_from(self.conts.len()).expect("continuation too long");
        self.conts.push(Cont { node, next });
        id
    }

    fn choose(&mut self, choice: Choice, cont: u32) {
        self.choices.push((choice, cont, self.conts.len()));
    }

    /// Free variables `from..` of `node` start false, each with a choice to flip it.
    fn enter_free(&mut self, node: NodeId, from: usize, cont: u32, values: &mut [bool]) {
        let Node::Free(vars) = &self.dag.nodes[node as usize] else {
            unreachable!("enter_free on a free node");
        };
        for (index, var) in vars.iter().enumerate().skip(from) {
            values[var.index()] = false;
            self.choose(
                Choice::FreeTrue {
                    node,
                    index: index as u32,
                },
                cont,
            );
        }
    }
}
