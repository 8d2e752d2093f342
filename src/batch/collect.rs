//! The collection a batch answers: every puzzle file under the paths given, in sorted
//! order, each split into its items (the levels of a Sokoban file, the maps of a Full
//! Board file; one item for the other puzzles), and the `--shard` slice of them.
//!
//! The order is fixed by the paths alone (sorted, then each file's items in file
//! order), so that shard K of N names the same items on every machine and the indices
//! of the shards' results fit together.

use super::kind::Kind;
use crate::input::read_puzzle_file;
use std::path::{Path, PathBuf};

/// One thing to answer: a file, or one level or map of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Position in the whole collection (0-based), the same in every shard.
    pub index: usize,
    pub path: PathBuf,
    /// The puzzle, or why the file could not be read or its puzzle told: the item is
    /// then that error.
    pub kind: Result<Kind, String>,
    /// The level or map number (1-based) in a file of several; `None` for a whole file.
    pub number: Option<usize>,
}

impl Item {
    /// `PATH`, or `PATH#N` for level or map N of a file.
    pub fn name(&self) -> String {
        match self.number {
            Some(n) => format!("{}#{n}", self.path.display()),
            None => self.path.display().to_string(),
        }
    }
}

/// `--shard K/N`: the K-th (1-based) of N slices, item `i` going to slice `i mod N`
/// (dealt like cards, so that the long levels of one file spread over the slices).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl Shard {
    pub fn holds(self, index: usize) -> bool {
        index % self.n == self.k - 1
    }
}

/// Parses `K/N` with 1 <= K <= N.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("'{text}': a shard is K/N, with 1 <= K <= N (say 2/8)");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok(Shard { k, n })
}

/// The file endings a folder is searched for; a file named on the command line is read
/// whatever its name.
const PUZZLE_ENDINGS: [&str; 5] = ["txt", "xsb", "sok", "cnf", "dimacs"];

/// Every item under `paths`, numbered, or the first path that does not exist.
pub fn collect(paths: &[PathBuf], forced: Option<Kind>) -> anyhow::Result<Vec<Item>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            walk(path, &mut files)?;
        } else if path.exists() {
            files.push((path.clone(), true));
        } else {
            anyhow::bail!("{}: no such file or folder", path.display());
        }
    }
    files.sort();
    files.dedup_by(|a, b| a.0 == b.0);
    let mut items = Vec::new();
    for (path, named) in files {
        let kind = match read_puzzle_file(&path) {
            Ok(text) => match forced.or_else(|| Kind::detect(&path, &text)) {
                Some(kind) => Ok((kind, kind.items(&text))),
                // Inside a folder, files that are no puzzle (notes, expected outputs)
                // are left out; a file named on the command line must be one.
                None if !named => continue,
                None => Err(format!(
                    "{}: cannot tell which puzzle this is; say it with --puzzle",
                    path.display()
                )),
            },
            Err(e) => Err(format!("{e:#}")),
        };
        match kind {
            Ok((kind, Some(count))) => {
                for n in 1..=count {
                    items.push(item(items.len(), &path, Ok(kind), Some(n)));
                }
            }
            // A file of levels or maps that does not parse is one item: its error.
            Ok((kind, None)) => items.push(item(items.len(), &path, Ok(kind), None)),
            Err(e) => items.push(item(items.len(), &path, Err(e), None)),
        }
    }
    Ok(items)
}

fn item(index: usize, path: &Path, kind: Result<Kind, String>, number: Option<usize>) -> Item {
    Item {
        index,
        path: path.to_path_buf(),
        kind,
        number,
    }
}

/// The puzzle files under `folder`, recursively (`false`: not named by the user).
fn walk(folder: &Path, files: &mut Vec<(PathBuf, bool)>) -> anyhow::Result<()> {
    let entries = std::fs::read_dir(folder)
        .map_err(|e| anyhow::anyhow!("{}: cannot read the folder: {e}", folder.display()))?;
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, files)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| PUZZLE_ENDINGS.contains(&e.to_ascii_lowercase().as_str()))
        {
            files.push((path, false));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_k_of_n() {
        assert_eq!(parse_shard("2/8"), Ok(Shard { k: 2, n: 8 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", ""] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { k, n: 3 }).collect();
        for index in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.holds(index)).count(), 1);
        }
    }
}
