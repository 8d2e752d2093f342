//! The runner: every choice on every case, N fresh runs each, the answers compared, and
//! the report the renderers print.
//!
//! A *case* is one puzzle instance (a file, or one map or level of a file); a *choice*
//! is one way of solving it: the puzzle's own option (an encoding, a clause family left
//! out, a search) and, when it calls a SAT solver, the backend. Every run starts from
//! nothing (it encodes, makes its solver, solves), with the process-wide backend switched
//! to the choice's (`solver::backend::choose`) first, and its own budget from
//! `--timeout`. The answer of every run is checked by the puzzle's independent checker
//! (inside `Contest::run`), and all decided answers on a case must agree: two choices
//! that disagree are a bug (the report lists it; the command exits with status 3).

use super::timing::{geometric_mean, Spread};
use super::BenchArgs;
use crate::limits::{wait_for, Budget};
use crate::solver::backend::{self, Backend};
use std::path::PathBuf;
use std::time::Duration;

/// What a puzzle brings to the bench: its cases, its options, and one timed run.
pub trait Contest {
    /// One puzzle instance, ready to be solved.
    type Case;
    /// The puzzle's part of a choice (an encoding, a search).
    type Option: Copy;

    /// The puzzle's name in reports ("Star Battle").
    fn puzzle(&self) -> &'static str;

    /// The cases of `files`, each with its name in reports (a file of several maps or
    /// levels gives one case per map or level).
    fn cases(&self, files: &[PathBuf]) -> anyhow::Result<Vec<(String, Self::Case)>>;

    /// Every option with its name; `true` when it calls a SAT solver (it is then run
    /// once per backend).
    fn options(&self) -> Vec<(String, Self::Option, bool)>;

    /// One fresh run of `option` on `case` within `budget`, its answer checked.
    fn run(
        &self,
        case: &Self::Case,
        option: Self::Option,
        budget: &Budget,
    ) -> anyhow::Result<Sample>;
}

/// What one run measured. Times are from the start of the run's own work: `encode`
/// builds the formula, `first` is the first answer (a solution, a game, a plan), `proof`
/// the whole answer proven (uniqueness, every minimum game, the push optimum and its
/// fewest moves).
#[derive(Clone, Debug, Default)]
pub struct Sample {
    pub variables: Option<usize>,
    pub clauses: Option<usize>,
    pub encode: Option<Duration>,
    pub first: Option<Duration>,
    pub proof: Option<Duration>,
    /// `None` when the run did not decide the case within the time limit.
    pub answer: Option<Answer>,
    /// Why the choice was not run, or anything else the table should say.
    pub note: Option<String>,
}

/// A decided answer: as printed, and what must agree across choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// For the table: "unique", "15 moves, 2 games", "33 pushes, 128 moves".
    pub text: String,
    /// Equal on every choice: the verdict and whatever it proves (the unique board, the
    /// minimum, the push optimum).
    pub key: String,
    /// Compared only between choices that both state it (the fewest moves of a
    /// push-optimal plan, proven by some searches only).
    pub proven_detail: Option<String>,
}

impl Answer {
    pub fn new(text: impl Into<String>, key: impl Into<String>) -> Answer {
        Answer {
            text: text.into(),
            key: key.into(),
            proven_detail: None,
        }
    }
}

/// Runs `work` within `budget`: on this thread without a deadline, else on its own
/// (`limits::wait_for`, which abandons a solver call that cannot be interrupted);
/// `None` when the deadline passed first.
pub fn within<T: Send + 'static>(
    budget: &Budget,
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    match budget.deadline() {
        None => Some(work()),
        Some(_) => wait_for(budget, work),
    }
}

/// One choice: the puzzle's option and the backend, if it uses one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub option: String,
    pub solver: Option<Backend>,
}

impl Choice {
    /// `sequential/cadical`, or the option alone for a choice without a SAT solver.
    pub fn label(&self) -> String {
        match self.solver {
            Some(solver) => format!("{}/{solver}", self.option),
            None => self.option.clone(),
        }
    }

    /// True when `name` names this choice: its label, or its option (all backends).
    fn is_named(&self, name: &str) -> bool {
        self.label() == name || self.option == name
    }
}

/// One choice on one case, over its runs.
#[derive(Clone, Debug)]
pub struct Row {
    pub case: String,
    pub choice: Choice,
    pub runs: usize,
    pub variables: Option<usize>,
    pub clauses: Option<usize>,
    pub encode: Spread,
    pub first: Spread,
    pub proof: Spread,
    /// The answer, when the median run decided the case.
    pub answer: Option<Answer>,
    pub note: Option<String>,
}

impl Row {
    pub fn decided(&self) -> bool {
        self.proof.median.is_some() && self.answer.is_some()
    }
}

/// One choice over every case.
#[derive(Clone, Debug)]
pub struct Summary {
    pub choice: Choice,
    /// Cases decided (within the time limit, in the median run).
    pub decided: usize,
    pub cases: usize,
    /// Geometric mean of the proof time over the reference's, on the cases both decided.
    pub ratio: Option<f64>,
    /// How many cases the ratio is over.
    pub compared: usize,
}

/// Everything a bench found, for the renderers.
#[derive(Clone, Debug)]
pub struct Report {
    pub puzzle: &'static str,
    pub runs: usize,
    pub timeout: Option<Duration>,
    pub cases: Vec<String>,
    pub choices: Vec<Choice>,
    pub reference: Choice,
    pub rows: Vec<Row>,
    pub summary: Vec<Summary>,
    /// Choices whose decided answers differ, in words: a bug.
    pub disagreements: Vec<String>,
}

/// Runs the bench `args` asks for on `contest`, telling its progress on standard error.
pub fn bench<C: Contest>(contest: &C, args: &BenchArgs) -> anyhow::Result<Report> {
    let cases = contest.cases(&args.files)?;
    let options = contest.options();
    let choices = choices(&options, args)?;
    let reference = match &args.reference {
        None => choices[0].clone(),
        Some(name) => choices
            .iter()
            .find(|c| c.is_named(name))
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("--reference {name}: no such choice (see --choice)"))?,
    };
    let runs = args.runs as usize;
    let mut rows = Vec::new();
    let mut disagreements = Vec::new();
    let chosen_before = backend::chosen();
    for (index, (case_name, case)) in cases.iter().enumerate() {
        let first_row = rows.len();
        for choice in &choices {
            let (_, option, _) = options
                .iter()
                .find(|(name, ..)| *name == choice.option)
                .expect("choices come from the options");
            let mut samples = Vec::with_capacity(runs);
            for _ in 0..runs {
                backend::choose(choice.solver.unwrap_or(chosen_before));
                let budget = args.limits.budget();
                samples.push(contest.run(case, *option, &budget)?);
            }
            let row = row_of(case_name, choice, samples, &mut disagreements);
            eprintln!(
                "bench: {}/{} {case_name}: {}: {}",
                index + 1,
                cases.len(),
                choice.label(),
                row.proof
                    .median
                    .map_or("not decided".to_string(), super::timing::human)
            );
            rows.push(row);
        }
        disagreements.extend(disagreement(&rows[first_row..]));
    }
    backend::choose(chosen_before);
    let summary = summarize(&cases, &choices, &reference, &rows);
    Ok(Report {
        puzzle: contest.puzzle(),
        runs,
        timeout: args.limits.timeout,
        cases: cases.into_iter().map(|(name, _)| name).collect(),
        choices,
        reference,
        rows,
        summary,
        disagreements,
    })
}

/// Every option, once per backend when it calls a SAT solver, restricted to `--choice`.
fn choices<O>(options: &[(String, O, bool)], args: &BenchArgs) -> anyhow::Result<Vec<Choice>> {
    let solvers = if args.solver.is_empty() {
        Backend::built()
    } else {
        args.solver.clone()
    };
    let mut all = Vec::new();
    for (name, _, sat) in options {
        if *sat {
            all.extend(solvers.iter().map(|&solver| Choice {
                option: name.clone(),
                solver: Some(solver),
            }));
        } else {
            all.push(Choice {
                option: name.clone(),
                solver: None,
            });
        }
    }
    if args.choices.is_empty() {
        return Ok(all);
    }
    for name in &args.choices {
        if !all.iter().any(|c| c.is_named(name)) {
            let known: Vec<String> = options.iter().map(|(n, ..)| n.clone()).collect();
            anyhow::bail!(
                "--choice {name}: no such choice (expected one of: {})",
                known.join(", ")
            );
        }
    }
    all.retain(|c| args.choices.iter().any(|name| c.is_named(name)));
    Ok(all)
}

/// The row of one choice on one case from its runs; runs that disagree with each other
/// are a disagreement too.
fn row_of(
    case: &str,
    choice: &Choice,
    samples: Vec<Sample>,
    disagreements: &mut Vec<String>,
) -> Row {
    let times = |get: fn(&Sample) -> Option<Duration>| -> Vec<Option<Duration>> {
        samples.iter().map(get).collect()
    };
    let answers: Vec<&Answer> = samples.iter().filter_map(|s| s.answer.as_ref()).collect();
    if let Some(odd) = answers.iter().find(|a| a.key != answers[0].key) {
        disagreements.push(format!(
            "{case}: two runs of {} answered '{}' and '{}'",
            choice.label(),
            answers[0].text,
            odd.text
        ));
    }
    let proof = Spread::of(&times(|s| s.proof));
    let last = samples.last().expect("at least one run");
    Row {
        case: case.to_string(),
        choice: choice.clone(),
        runs: samples.len(),
        variables: last.variables,
        clauses: last.clauses,
        encode: Spread::of(&times(|s| s.encode)),
        first: Spread::of(&times(|s| s.first)),
        answer: proof.median.and(answers.first().map(|a| (*a).clone())),
        proof,
        note: last.note.clone(),
    }
}

/// The disagreements among the decided rows of one case: every key against the first
/// decided row's, every proven detail against the first row that states one.
fn disagreement(rows: &[Row]) -> Vec<String> {
    let decided: Vec<(&Row, &Answer)> = rows
        .iter()
        .filter_map(|r| r.answer.as_ref().map(|a| (r, a)))
        .collect();
    let detailed: Vec<(&Row, &Answer)> = decided
        .iter()
        .copied()
        .filter(|(_, a)| a.proven_detail.is_some())
        .collect();
    let mut found = Vec::new();
    let mut against = |all: &[(&Row, &Answer)], same: fn(&Answer, &Answer) -> bool| {
        let Some(&(r1, a1)) = all.first() else {
            return;
        };
        for &(r2, a2) in &all[1..] {
            if !same(a1, a2) {
                found.push(format!(
                    "{}: {} answered '{}' but {} answered '{}'",
                    r1.case,
                    r1.choice.label(),
                    a1.text,
                    r2.choice.label(),
                    a2.text
                ));
            }
        }
    };
    against(&decided, |a, b| a.key == b.key);
    against(&detailed, |a, b| a.proven_detail == b.proven_detail);
    found
}

/// Per choice: the cases it decided, and its geometric mean time over the reference's.
fn summarize<T>(
    cases: &[(String, T)],
    choices: &[Choice],
    reference: &Choice,
    rows: &[Row],
) -> Vec<Summary> {
    let row =
        |case: &str, choice: &Choice| rows.iter().find(|r| r.case == case && r.choice == *choice);
    choices
        .iter()
        .map(|choice| {
            let mut ratios = Vec::new();
            let mut decided = 0;
            for (case, _) in cases {
                let Some(mine) = row(case, choice).filter(|r| r.decided()) else {
                    continue;
                };
                decided += 1;
                let theirs = row(case, reference).filter(|r| r.decided());
                if let (Some(t), Some(r)) = (mine.proof.median, theirs.and_then(|r| r.proof.median))
                {
                    if !t.is_zero() && !r.is_zero() {
                        ratios.push(t.as_secs_f64() / r.as_secs_f64());
                    }
                }
            }
            Summary {
                choice: choice.clone(),
                decided,
                cases: cases.len(),
                compared: ratios.len(),
                ratio: geometric_mean(&ratios),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::BenchFormat;
    use crate::cli::{Exit, LimitArgs};

    /// Two cases and three options; `wrong` answers differently on the second case, and
    /// `slow` takes 4 ms where the others take 1 ms.
    struct Fake;

    impl Contest for Fake {
        type Case = usize;
        type Option = &'static str;

        fn puzzle(&self) -> &'static str {
            "Fake"
        }

        fn cases(&self, _: &[PathBuf]) -> anyhow::Result<Vec<(String, usize)>> {
            Ok(vec![("a".into(), 0), ("b".into(), 1)])
        }

        fn options(&self) -> Vec<(String, &'static str, bool)> {
            ["right", "slow", "wrong"]
                .into_iter()
                .map(|name| (name.to_string(), name, name != "slow"))
                .collect()
        }

        fn run(&self, case: &usize, option: &'static str, _: &Budget) -> anyhow::Result<Sample> {
            let answer = if option == "wrong" && *case == 1 {
                "no solution"
            } else {
                "unique"
            };
            let millis = if option == "slow" { 4 } else { 1 };
            Ok(Sample {
                first: Some(Duration::from_millis(millis)),
                proof: Some(Duration::from_millis(millis)),
                answer: Some(Answer::new(answer, answer)),
                ..Sample::default()
            })
        }
    }

    fn args(choices: &[&str], reference: Option<&str>) -> BenchArgs {
        BenchArgs {
            files: Vec::new(),
            runs: 3,
            format: BenchFormat::Md,
            solver: vec![Backend::Varisat],
            choices: choices.iter().map(|c| c.to_string()).collect(),
            reference: reference.map(str::to_string),
            limits: LimitArgs::default(),
        }
    }

    #[test]
    fn a_choice_that_answers_differently_is_a_disagreement_and_exits_3() {
        let report = bench(&Fake, &args(&[], None)).unwrap();
        assert_eq!(
            report.disagreements,
            ["b: right/varisat answered 'unique' but wrong/varisat answered 'no solution'"]
        );
        let error = crate::bench::verdict(&report).unwrap_err();
        assert_eq!(Exit::of_error(&error), Exit::Internal);
        assert!(
            error.to_string().contains("the choices disagree"),
            "{error}"
        );
        // The table still says what each choice answered, and the disagreement.
        let table = crate::bench::render::markdown::render(&report);
        assert!(
            table.contains("| b | wrong/varisat | - | - | - | 1.00 ms | 1.00 ms | no solution |")
        );
        assert!(table.contains("DISAGREEMENT: b: right/varisat"), "{table}");
    }

    #[test]
    fn agreeing_choices_are_summarized_against_the_reference() {
        let report = bench(&Fake, &args(&["right", "slow"], Some("slow"))).unwrap();
        assert!(report.disagreements.is_empty());
        assert_eq!(crate::bench::verdict(&report).unwrap(), Exit::Solved);
        let labels: Vec<String> = report.choices.iter().map(Choice::label).collect();
        assert_eq!(labels, ["right/varisat", "slow"]);
        assert_eq!(report.reference.label(), "slow");
        let right = &report.summary[0];
        assert_eq!((right.decided, right.cases, right.compared), (2, 2, 2));
        assert!((right.ratio.unwrap() - 0.25).abs() < 1e-9);
        assert_eq!(report.rows.len(), 4);
        assert!(report.rows.iter().all(|r| r.runs == 3 && r.decided()));
    }
}
