//! `gridsat batch`: every puzzle file under some paths (every level of a level file,
//! every map of a Full Board file) answered on N worker threads, one JSON line per item
//! as it finishes, and a summary table at the end.
//!
//! `collect` lists the items in a fixed order (and picks a `--shard`), `kind` tells a
//! file's puzzle, `answer` runs the puzzle's own command on one item, `summary` is the
//! table, `merge` puts the lines of several shards back together. The answers are the
//! commands' own (`answer` only builds their arguments), so a batch agrees with the
//! one-by-one runs whatever the number of workers.

pub mod answer;
pub mod collect;
pub mod kind;
pub mod merge;
pub mod summary;

use crate::cli::{CardArgs, Exit, Format, LimitArgs, ModeArgs, OutputArgs, SolverArgs};
use crate::progress::Progress;
use crate::sokoban::cli::Method;
use crate::star_battle::cli::RuleArg;
use collect::{collect, parse_shard, Shard};
use kind::Kind;
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;
use summary::Summary;

const AFTER_HELP: &str = "\
Items: a Sokoban file is one item per level (PATH#N), a Full Board file one per map
(PATH#N), any other puzzle file one item (PATH). Folders are searched for *.txt, *.xsb,
*.sok, *.cnf and *.dimacs files; those that look like no puzzle are left out. The items
are numbered (`index`) in sorted path order, then file order: --shard K/N takes the
items whose index is K-1 modulo N, the same slice on every machine.

Output: with --format json, one JSON line per item as it finishes on standard output
(index, item, path, puzzle, number, status, exit, the command's own JSON answer under
`result` or the message under `error`, and `times`: every time, apart from the
answer, so that two runs compare equal without them), and the summary table on standard
error. With --format text, one line per item and the table, both on standard output.
A progress bar is drawn on standard error when it is a terminal.

Exit status: the worst item's, as for a file of several levels (3, 130, 4, 2, 5, 1, 0);
130 after Ctrl-C, with the items done and the table printed.

Examples:
  gridsat batch examples/star-battle --stars 1 --rule at-most --count --format json
  gridsat batch examples/sokoban/microban-1-10.xsb --jobs 2 --timeout 10
  gridsat batch puzzles/ --shard 3/8 --format json > part-3.jsonl
  gridsat batch --merge part-*.jsonl > all.jsonl";

/// Answer every puzzle file under PATH... on several threads: one JSON line per item.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Puzzle files and folders (searched recursively); with --merge, files of JSON
    /// lines from earlier batches.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,

    /// Worker threads [default: the number of cores].
    #[arg(long, short, value_name = "N", value_parser = crate::cli::numbers::positive_u64)]
    pub jobs: Option<u64>,

    /// The puzzle of every file, instead of telling it from each file.
    #[arg(long, value_enum, value_name = "KIND")]
    pub puzzle: Option<Kind>,

    /// Answer only slice K of N of the collection (see below).
    #[arg(long, value_name = "K/N", value_parser = parse_shard, conflicts_with = "merge")]
    pub shard: Option<Shard>,

    /// Merge the JSON lines of earlier batches (the shards of one collection): sorted
    /// by index, each item once, and the summary of them all.
    #[arg(long)]
    pub merge: bool,

    /// Star Battle: stars per zone, row and column (unless the file states it).
    #[arg(long, short, help_heading = "Puzzle", value_parser = crate::cli::numbers::positive)]
    pub stars: Option<usize>,

    /// Star Battle: the row and column rule [default: exact].
    #[arg(long, value_enum, help_heading = "Puzzle")]
    pub rule: Option<RuleArg>,

    /// Sokoban: the search method [default: portfolio].
    #[arg(long, value_enum, help_heading = "Puzzle")]
    pub method: Option<Method>,

    #[command(flatten)]
    pub modes: ModeArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub card: CardArgs,

    #[command(flatten)]
    pub solver: SolverArgs,
}

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    let format = args.output.format;
    format.require("batch", &[Format::Text, Format::Json])?;
    if args.merge {
        return merge::run(&args.paths, format);
    }
    let began = Instant::now();
    let mut items = collect(&args.paths, args.puzzle)?;
    let total = items.len();
    if let Some(shard) = args.shard {
        items.retain(|item| shard.holds(item.index));
    }
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("gridsat-batch-{i}"))
        .build()?;
    let progress = Progress::items(items.len() as u64, "items");
    // The commands the items run draw no bars of their own.
    crate::progress::quiet();
    let printer = Mutex::new(Printer {
        out: std::io::BufWriter::new(std::io::stdout()),
        format,
        summary: Summary::default(),
        failure: None,
    });
    pool.install(|| {
        items.par_iter().for_each(|item| {
            if crate::limits::interrupted() {
                // Ctrl-C: the items not started are left; the summary says how many.
                let mut printer = printer.lock().unwrap_or_else(|e| e.into_inner());
                printer.summary.skipped += 1;
                return;
            }
            let record = answer::answer(item, args);
            let mut printer = printer.lock().unwrap_or_else(|e| e.into_inner());
            progress.suspend(|| printer.print(&record.to_json()));
            progress.inc();
        })
    });
    progress.finish();
    let mut printer = printer.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(error) = printer.failure.take() {
        return Err(error.into());
    }
    let wall = Some(began.elapsed().as_secs_f64());
    if total == 0 {
        eprintln!("gridsat: batch: no puzzle files under the paths given");
    }
    printer.finish(wall)
}

/// The lines as they come, and the summary at the end (see the help for where).
pub struct Printer<W: Write> {
    pub out: W,
    pub format: Format,
    pub summary: Summary,
    /// The first write that failed (a reader gone away, say): later lines are dropped.
    pub failure: Option<std::io::Error>,
}

impl<W: Write> Printer<W> {
    pub fn print(&mut self, line: &serde_json::Value) {
        self.summary.add(line);
        if self.failure.is_some() {
            return;
        }
        let written = match self.format {
            Format::Json => writeln!(self.out, "{line}"),
            _ => writeln!(self.out, "{}", text_line(line)),
        };
        if let Err(e) = written.and_then(|()| self.out.flush()) {
            self.failure = Some(e);
        }
    }

    /// Writes the summary and returns the batch's exit status.
    pub fn finish(mut self, wall: Option<f64>) -> anyhow::Result<Exit> {
        match self.format {
            Format::Json => self.summary.write(wall, &mut std::io::stderr().lock())?,
            _ => {
                self.summary.write(wall, &mut self.out)?;
                self.out.flush()?;
            }
        }
        Ok(self.summary.exit())
    }
}

/// `--format text`: `ITEM: STATUS (SECONDS s)`, and the error's message for an error.
fn text_line(line: &serde_json::Value) -> String {
    let item = line["item"].as_str().unwrap_or("?");
    let status = line["status"].as_str().unwrap_or("?");
    let seconds = line["times"]["wall"].as_f64().unwrap_or(0.0);
    match line["error"].as_str() {
        Some(error) => format!("{item}: {status}: {error}"),
        None => format!("{item}: {status} ({seconds:.2} s)"),
    }
}
