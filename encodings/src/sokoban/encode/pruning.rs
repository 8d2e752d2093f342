//! The optional clause families of the encoding, each sound, so that they can be
//! switched off one by one for measurements (`--no-prune`).

/// Which of the optional (sound, redundant) clause families to add. Each is true of every
/// real plan, so none changes which horizons are satisfiable; they only prune the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Reachability is closed: a free square next to a reachable one is reachable, and the
    /// player's own square is reachable. With the support rule and the loop clauses this
    /// makes `reach` exactly the player's region.
    pub reach_closure: bool,
    /// With as many goals as boxes, every goal needs some box within the pushes left.
    pub goal_cover: bool,
    /// With as many goals as boxes, in the last `goal_sum_steps` steps the distances of
    /// the goals to their nearest boxes add up to at most the pushes left.
    pub goal_sum_steps: usize,
    /// Independent pushes of two steps in a row come in a fixed order (see
    /// `order::commuting_order`), under the `commute` literal. Needs `reach_closure`.
    pub commute: bool,
    /// No box is pushed straight back when that brings back the position of two steps
    /// before (see `order::no_undo`), under the `commute` literal. True of every plan of the
    /// least satisfiable horizon, not of every plan of longer ones.
    pub no_undo: bool,
}

impl Default for Pruning {
    fn default() -> Pruning {
        Pruning {
            reach_closure: true,
            goal_cover: true,
            goal_sum_steps: 8,
            commute: true,
            no_undo: true,
        }
    }
}
