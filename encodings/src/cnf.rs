//! The CNF builder every puzzle encoding writes into: clauses, named groups, the
//! projection set, the DIMACS writer, and the record of the cardinality constraints.
//!
//! It sits just above `lit` and names no encoding: the encodings (`card`) and grid shapes
//! (`grid`) are built on it, so the cardinality record carries its encoding's behaviour
//! (how to fill the auxiliary variables) as a function instead of naming the encoding.

use std::fmt;
use std::io;
use std::ops::Range;

pub use crate::lit::{Lit, Var};

/// A named, contiguous range of clauses ("zones", "rows", "no-touch"), so a user can
/// see which rule costs how much.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub name: String,
    pub clauses: Range<usize>,
    pub vars: Range<usize>,
}

/// A CNF formula under construction.
///
/// Clauses are stored flat (one literal buffer plus offsets) so a formula with millions of
/// clauses costs 4 bytes per literal and 8 per clause.
#[derive(Clone, Default)]
pub struct Cnf {
    num_vars: usize,
    literals: Vec<Lit>,
    /// `clause_starts[i]..clause_starts[i + 1]` are the literals of clause `i`.
    clause_starts: Vec<usize>,
    groups: Vec<Group>,
    open_group: Option<(String, usize, usize)>,
    projection: Vec<Var>,
    cardinalities: Vec<Cardinality>,
}

/// A cardinality constraint `lo <= (number of true literals among lits) <= hi`, stated
/// through `CardinalityEncoding::constrain`: its clauses are `clauses`, its auxiliary
/// variables (private to it: no other clause mentions them) are `aux`.
///
/// The clauses alone say everything (DIMACS output, CDCL solvers and
/// `is_satisfied_by` only see them); the record lets an engine that propagates
/// cardinality constraints natively, such as the counting engine, drop those clauses
/// and variables and count over `lits` directly. `fill_aux` gives the auxiliary
/// variables back their values (each is a function of the inputs).
///
/// The encoding is carried as its name and its value filler, not as a `card` type: the
/// encodings are built on this builder, and the builder must not depend on them.
#[derive(Clone, Debug)]
pub struct Cardinality {
    pub lits: Vec<Lit>,
    pub lo: usize,
    /// At most `lits.len()`.
    pub hi: usize,
    /// The name of the encoding that wrote the clauses (`CardEncoding::name`).
    pub encoding: &'static str,
    /// That encoding's value filler; call it through `fill_aux`.
    pub fill: FillAux,
    pub clauses: Range<usize>,
    pub aux: Range<usize>,
}

/// An encoding's value filler, as a record carries it. A plain `fn` (no state, `Copy`)
/// because the encodings are stateless; the record is what it reads (inputs, bounds,
/// first auxiliary variable). `Cardinality::fill_aux` is the way to call it.
pub type FillAux = fn(&Cardinality, &mut [bool]);

impl Cardinality {
    /// Writes into `values` (indexed by variable) the value of every auxiliary variable
    /// of this constraint, computed from the values of its inputs.
    pub fn fill_aux(&self, values: &mut [bool]) {
        if !self.aux.is_empty() {
            (self.fill)(self, values);
        }
    }
}

impl Cnf {
    pub fn new() -> Cnf {
        Cnf {
            clause_starts: vec![0],
            ..Cnf::default()
        }
    }

    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    pub fn num_clauses(&self) -> usize {
        self.clause_starts.len().saturating_sub(1)
    }

    pub fn num_literals(&self) -> usize {
        self.literals.len()
    }

    /// A fresh auxiliary variable (not projected).
    pub fn fresh_var(&mut self) -> Var {
        let v = Var::from_index(self.num_vars);
        self.num_vars += 1;
        v
    }

    pub fn fresh_lit(&mut self) -> Lit {
        self.fresh_var().positive()
    }

    /// A fresh variable that belongs to the projection set: the puzzle's own unknowns,
    /// over which solutions are counted, enumerated and compared.
    pub fn primary_var(&mut self) -> Var {
        let v = self.fresh_var();
        self.projection.push(v);
        v
    }

    /// Adds an existing variable to the projection set.
    pub fn project(&mut self, var: Var) {
        assert!(
            var.index() < self.num_vars,
            "projecting an unknown variable"
        );
        self.projection.push(var);
    }

    /// The cardinality constraints stated through `CardinalityEncoding::constrain`, in
    /// order.
    pub fn cardinalities(&self) -> &[Cardinality] {
        &self.cardinalities
    }

    pub(crate) fn record_cardinality(&mut self, cardinality: Cardinality) {
        self.cardinalities.push(cardinality);
    }

    /// The projection set, in the order the variables were made primary.
    pub fn projection(&self) -> &[Var] {
        &self.projection
    }

    /// Adds a clause: the disjunction of `lits`. An empty clause makes the formula
    /// unsatisfiable, which is how an encoding says "impossible".
    pub fn clause<I: IntoIterator<Item = Lit>>(&mut self, lits: I) {
        let start = self.literals.len();
        self.literals.extend(lits);
        for lit in &self.literals[start..] {
            assert!(
                lit.var().index() < self.num_vars,
                "clause uses variable {:?} that was never created",
                lit.var()
            );
        }
        self.clause_starts.push(self.literals.len());
    }

    /// `lhs -> rhs`, i.e. the clause `!lhs | rhs`.
    pub fn implies(&mut self, lhs: Lit, rhs: Lit) {
        self.clause([!lhs, rhs]);
    }

    /// `a <-> b`.
    pub fn equal(&mut self, a: Lit, b: Lit) {
        self.implies(a, b);
        self.implies(b, a);
    }

    /// A literal constrained to equal the conjunction of `lits` (true for none).
    pub fn and_lit(&mut self, lits: &[Lit]) -> Lit {
        let out = self.fresh_lit();
        for &l in lits {
            self.implies(out, l);
        }
        self.clause(lits.iter().map(|&l| !l).chain([out]));
        out
    }

    /// A literal constrained to equal the disjunction of `lits` (false for none).
    pub fn or_lit(&mut self, lits: &[Lit]) -> Lit {
        let out = self.fresh_lit();
        for &l in lits {
            self.implies(l, out);
        }
        self.clause(lits.iter().copied().chain([!out]));
        out
    }

    pub fn clause_at(&self, index: usize) -> &[Lit] {
        &self.literals[self.clause_starts[index]..self.clause_starts[index + 1]]
    }

    pub fn clauses(&self) -> impl ExactSizeIterator<Item = &[Lit]> + '_ {
        (0..self.num_clauses()).map(move |i| self.clause_at(i))
    }

    /// Starts a named group: every clause and variable added until `end_group` (or the
    /// next `begin_group`) is counted under `name`.
    pub fn begin_group(&mut self, name: &str) {
        self.end_group();
        self.open_group = Some((name.to_string(), self.num_clauses(), self.num_vars));
    }

    pub fn end_group(&mut self) {
        if let Some((name, clause_start, var_start)) = self.open_group.take() {
            self.groups.push(Group {
                name,
                clauses: clause_start..self.num_clauses(),
                vars: var_start..self.num_vars,
            });
        }
    }

    /// The closed groups, in the order they were opened.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// True when every clause holds under `values` (indexed by variable).
    pub fn is_satisfied_by(&self, values: &[bool]) -> bool {
        self.clauses()
            .all(|clause| clause.iter().any(|lit| lit.eval(values)))
    }

    /// Writes DIMACS CNF: a comment per group, `c p show ... 0` for the projection set
    /// (the convention of projected model counters), `p cnf`, then the clauses.
    pub fn write_dimacs<W: io::Write>(&self, out: &mut W) -> io::Result<()> {
        writeln!(out, "c generated by gridsat")?;
        for g in &self.groups {
            writeln!(
                out,
                "c group {}: clauses {}..{}, variables {}..{}",
                g.name,
                g.clauses.start + 1,
                g.clauses.end,
                g.vars.start + 1,
                g.vars.end
            )?;
        }
        write!(out, "c p show")?;
        for v in &self.projection {
            write!(out, " {}", v.dimacs())?;
        }
        writeln!(out, " 0")?;
        writeln!(out, "p cnf {} {}", self.num_vars, self.num_clauses())?;
        for clause in self.clauses() {
            for lit in clause {
                write!(out, "{} ", lit.to_dimacs())?;
            }
            writeln!(out, "0")?;
        }
        Ok(())
    }

    pub fn to_dimacs_string(&self) -> String {
        let mut buf = Vec::new();
        self.write_dimacs(&mut buf)
            .expect("writing to a Vec cannot fail");
        String::from_utf8(buf).expect("DIMACS text is ASCII")
    }
}

impl fmt::Debug for Cnf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Cnf {{ vars: {}, clauses: {}, projection: {} }}",
            self.num_vars,
            self.num_clauses(),
            self.projection.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimacs_has_projection_and_header() {
        let mut cnf = Cnf::new();
        let a = cnf.primary_var();
        let b = cnf.fresh_var();
        cnf.begin_group("g");
        cnf.clause([a.positive(), b.negative()]);
        cnf.end_group();
        let text = cnf.to_dimacs_string();
        assert!(text.contains("c p show 1 0\n"));
        assert!(text.contains("p cnf 2 1\n1 -2 0\n"));
        assert_eq!(cnf.groups()[0].clauses, 0..1);
    }

    #[test]
    fn gates_mean_what_they_say() {
        for bits in 0..4u32 {
            let mut cnf = Cnf::new();
            let a = cnf.fresh_lit();
            let b = cnf.fresh_lit();
            let and = cnf.and_lit(&[a, b]);
            let or = cnf.or_lit(&[a, b]);
            let va = bits & 1 == 1;
            let vb = bits & 2 == 2;
            let good = [va, vb, va && vb, va || vb];
            let mut bad_and = good;
            bad_and[2] = !bad_and[2];
            let mut bad_or = good;
            bad_or[3] = !bad_or[3];
            assert!(cnf.is_satisfied_by(&good));
            assert!(!cnf.is_satisfied_by(&bad_and));
            assert!(!cnf.is_satisfied_by(&bad_or));
            let _ = (and, or);
        }
    }
}
