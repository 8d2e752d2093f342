//! What the page asks for (`POST /api/solve`), and the `gridsat` command lines that answer
//! it: the server runs the CLI itself, so every mode, message and picture is the CLI's own.

use crate::input::url::is_url;
use serde::Deserialize;

/// The puzzles the page knows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    StarBattle,
    Battleship,
    FullBoard,
    Sokoban,
}

impl Kind {
    /// The CLI's subcommand.
    pub fn command(self) -> &'static str {
        match self {
            Kind::StarBattle => "star-battle",
            Kind::Battleship => "battleship",
            Kind::FullBoard => "full-board",
            Kind::Sokoban => "sokoban",
        }
    }

    /// The modes the CLI has for this puzzle (Sokoban plans; generating is for the two
    /// puzzles with a generator).
    pub fn has(self, mode: ModeName) -> bool {
        match mode {
            ModeName::Solve => true,
            ModeName::Unique | ModeName::Determined => self != Kind::Sokoban,
            ModeName::Repair | ModeName::Generate => {
                matches!(self, Kind::StarBattle | Kind::Battleship)
            }
        }
    }

    /// The puzzle formats a URL of this puzzle can be written in (`--format url`).
    fn has_url(self) -> bool {
        matches!(self, Kind::StarBattle | Kind::Battleship)
    }
}

/// The buttons of the page.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModeName {
    Solve,
    Unique,
    Determined,
    Repair,
    Generate,
}

impl ModeName {
    /// The CLI's mode flag (none: the command's default answer).
    fn flag(self) -> Option<&'static str> {
        match self {
            ModeName::Solve | ModeName::Generate => None,
            ModeName::Unique => Some("--unique"),
            ModeName::Determined => Some("--determined"),
            ModeName::Repair => Some("--repair"),
        }
    }
}

/// The body of `POST /api/solve`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// Chosen by the page, so that `POST /api/stop` can name the run before it answers.
    #[serde(default)]
    pub id: Option<String>,
    /// A puzz.link URL or a puzzle file's text (not needed to generate).
    #[serde(default)]
    pub puzzle: String,
    /// The file's name when the page opened one (shown in error messages).
    #[serde(default)]
    pub name: Option<String>,
    /// Which puzzle; guessed from a URL when absent.
    #[serde(default)]
    pub kind: Option<Kind>,
    pub mode: ModeName,
    /// Star Battle: stars per zone, row and column, when the file does not say.
    #[serde(default)]
    pub stars: Option<u64>,
    /// Seconds; at most the server's own limit.
    #[serde(default)]
    pub timeout: Option<f64>,
    /// Generating: Star Battle's size (N x N), Battleship's rows and columns and fleet.
    #[serde(default)]
    pub size: Option<u64>,
    #[serde(default)]
    pub rows: Option<u64>,
    #[serde(default)]
    pub cols: Option<u64>,
    #[serde(default)]
    pub fleet: Option<String>,
    #[serde(default)]
    pub seed: Option<u64>,
}

/// Where the puzzle goes on the command line: a URL as it is, text through a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Url(String),
    /// The file's name (safe to create in a fresh folder) and its text.
    File {
        name: String,
        text: String,
    },
    /// Generating reads no puzzle.
    None,
}

/// One run of the CLI: its arguments (after `gridsat`) and the format it prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub format: &'static str,
    pub args: Vec<String>,
}

/// What a request comes to: the puzzle's input and the runs that answer it, the first
/// one (JSON) deciding the exit status and whether the others are worth running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub kind: Kind,
    pub input: Input,
    pub runs: Vec<Run>,
}

impl SolveRequest {
    /// The runs, or why the request cannot be answered (a message for the page).
    pub fn plan(&self) -> Result<Plan, String> {
        let kind = match self.kind {
            Some(kind) => kind,
            None => guess_kind(&self.puzzle).ok_or(
                "choose the puzzle: star-battle, battleship, full-board or sokoban \
                 (only a puzz.link URL names its puzzle)",
            )?,
        };
        if !kind.has(self.mode) {
            return Err(format!(
                "gridsat {} has no {} mode",
                kind.command(),
                self.mode.name()
            ));
        }
        if self.mode == ModeName::Generate {
            return Ok(Plan {
                kind,
                input: Input::None,
                runs: self.generate_runs(kind)?,
            });
        }
        let puzzle = self.puzzle.trim();
        if puzzle.is_empty() {
            return Err("paste a puzz.link URL or a puzzle file's text, or open a file".into());
        }
        let input = if is_url(puzzle) && !puzzle.contains('\n') {
            Input::Url(puzzle.to_string())
        } else {
            Input::File {
                name: file_name(self.name.as_deref(), kind),
                text: self.puzzle.clone(),
            }
        };
        let target = match &input {
            Input::Url(url) => url.clone(),
            Input::File { name, .. } => name.clone(),
            Input::None => unreachable!("generating returned above"),
        };
        let mut common = vec![kind.command().to_string(), target];
        if let (Kind::StarBattle, Some(stars)) = (kind, self.stars) {
            common.extend(["--stars".to_string(), stars.to_string()]);
        }
        let mut answer = common.clone();
        answer.extend(self.mode.flag().map(String::from));
        let mut runs: Vec<Run> = ["json", "text", "svg"]
            .into_iter()
            .map(|format| Run {
                format,
                args: with_format(&answer, format),
            })
            .collect();
        if kind.has_url() {
            runs.push(Run {
                format: "url",
                args: with_format(&common, "url"),
            });
        }
        Ok(Plan { kind, input, runs })
    }

    /// `gridsat generate KIND ...`, as a URL (for the page to solve next) and as a file.
    fn generate_runs(&self, kind: Kind) -> Result<Vec<Run>, String> {
        let mut args = vec!["generate".to_string(), kind.command().to_string()];
        let number = |flag: &str, value: Option<u64>, args: &mut Vec<String>| {
            if let Some(v) = value {
                args.extend([flag.to_string(), v.to_string()]);
            }
        };
        match kind {
            Kind::StarBattle => {
                number("--size", Some(self.size.unwrap_or(6)), &mut args);
                number("--stars", self.stars, &mut args);
            }
            Kind::Battleship => {
                number("--rows", Some(self.rows.unwrap_or(6)), &mut args);
                number("--cols", Some(self.cols.unwrap_or(6)), &mut args);
                if let Some(fleet) = self.fleet.as_deref().filter(|f| !f.trim().is_empty()) {
                    args.extend(["--fleet".to_string(), fleet.trim().to_string()]);
                }
            }
            Kind::FullBoard | Kind::Sokoban => unreachable!("checked by Kind::has"),
        }
        number("--seed", self.seed, &mut args);
        let file = if kind == Kind::StarBattle {
            "grid"
        } else {
            "course"
        };
        Ok(["url", file]
            .into_iter()
            .map(|format| Run {
                format: if format == "url" { "url" } else { "text" },
                args: with_format(&args, format),
            })
            .collect())
    }
}

impl ModeName {
    pub fn name(self) -> &'static str {
        match self {
            ModeName::Solve => "solve",
            ModeName::Unique => "unique",
            ModeName::Determined => "determined",
            ModeName::Repair => "repair",
            ModeName::Generate => "generate",
        }
    }
}

fn with_format(args: &[String], format: &str) -> Vec<String> {
    let mut args = args.to_vec();
    args.extend(["--format".to_string(), format.to_string()]);
    args
}

/// The puzzle a puzz.link URL names (`...?starbattle/...`, `...?battleship/...`).
pub fn guess_kind(puzzle: &str) -> Option<Kind> {
    let puzzle = puzzle.trim();
    if !is_url(puzzle) {
        return None;
    }
    let query = puzzle.split_once('?')?.1;
    match query.split('/').next()? {
        "starbattle" => Some(Kind::StarBattle),
        "battleship" => Some(Kind::Battleship),
        _ => None,
    }
}

/// The name the pasted or opened text is saved under for the CLI (and so the name its
/// error messages give): the opened file's own name, kept to letters, digits, `.`, `-`
/// and `_`, else `pasted.txt` (`pasted.xsb` for Sokoban, whose reader knows XSB by it).
pub fn file_name(opened: Option<&str>, kind: Kind) -> String {
    let base = opened
        .and_then(|n| n.rsplit(['/', '\\']).next())
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        .take(64)
        .collect::<String>();
    if base.is_empty() || base.starts_with(['.', '-']) {
        return if kind == Kind::Sokoban {
            "pasted.xsb"
        } else {
            "pasted.txt"
        }
        .to_string();
    }
    base
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: &str) -> SolveRequest {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_url_names_its_puzzle_and_goes_on_the_command_line_as_it_is() {
        let url = "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk";
        let plan = request(&format!(r#"{{"puzzle": "{url}", "mode": "unique"}}"#))
            .plan()
            .unwrap();
        assert_eq!(plan.kind, Kind::StarBattle);
        assert_eq!(plan.input, Input::Url(url.to_string()));
        let lines: Vec<String> = plan.runs.iter().map(|r| r.args.join(" ")).collect();
        assert_eq!(
            lines,
            [
                format!("star-battle {url} --unique --format json"),
                format!("star-battle {url} --unique --format text"),
                format!("star-battle {url} --unique --format svg"),
                format!("star-battle {url} --format url"),
            ]
        );
    }

    #[test]
    fn text_goes_through_a_file_named_safely() {
        let plan = request(
            r#"{"puzzle": "2\nab\nba\n", "kind": "star-battle", "mode": "solve",
                "name": "../../etc/my puzzle.txt", "stars": 1}"#,
        )
        .plan()
        .unwrap();
        assert_eq!(
            plan.input,
            Input::File {
                name: "mypuzzle.txt".into(),
                text: "2\nab\nba\n".into()
            }
        );
        assert_eq!(
            plan.runs[0].args.join(" "),
            "star-battle mypuzzle.txt --stars 1 --format json"
        );
        assert_eq!(file_name(Some("-rf"), Kind::Sokoban), "pasted.xsb");
        assert_eq!(file_name(None, Kind::Battleship), "pasted.txt");
    }

    #[test]
    fn modes_the_cli_lacks_are_refused_before_running() {
        let no_kind = request(r#"{"puzzle": "walls", "mode": "solve"}"#).plan();
        assert!(no_kind.unwrap_err().starts_with("choose the puzzle"));
        let sokoban = request(r##"{"puzzle": "#", "kind": "sokoban", "mode": "unique"}"##).plan();
        assert_eq!(sokoban.unwrap_err(), "gridsat sokoban has no unique mode");
        let empty = request(r#"{"puzzle": " ", "kind": "battleship", "mode": "solve"}"#).plan();
        assert!(empty.unwrap_err().starts_with("paste a puzz.link URL"));
        assert!(serde_json::from_str::<SolveRequest>(r#"{"mode": "solve", "x": 1}"#).is_err());
    }

    #[test]
    fn generating_asks_for_a_url_and_a_file() {
        let plan = request(r#"{"kind": "battleship", "mode": "generate", "seed": 7}"#)
            .plan()
            .unwrap();
        let lines: Vec<String> = plan.runs.iter().map(|r| r.args.join(" ")).collect();
        assert_eq!(
            lines,
            [
                "generate battleship --rows 6 --cols 6 --seed 7 --format url",
                "generate battleship --rows 6 --cols 6 --seed 7 --format course",
            ]
        );
    }
}
