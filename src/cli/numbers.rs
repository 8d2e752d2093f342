//! Whole-number options (`--stars S`, `--level N`, `--max-states N`, ...), read with a
//! message that says what the value must be.
//!
//! The command line lets a value that looks like a negative number reach these parsers
//! (see `accept_negative_values`), so `--stars -1` is answered "must be at least 1"
//! rather than clap's tip to write `-- -1`, which is wrong for an option's value.

/// A whole number of at least 1 (a star count, a level number).
pub fn positive(text: &str) -> Result<usize, String> {
    at_least(text, 1)
}

/// `positive`, as a `u64` (`--limit N`, `--jobs N`).
pub fn positive_u64(text: &str) -> Result<u64, String> {
    positive(text).map(|n| n as u64)
}

/// `positive`, as a `u32` (`--runs N`).
pub fn positive_u32(text: &str) -> Result<u32, String> {
    let n = positive(text)?;
    u32::try_from(n).map_err(|_| format!("'{text}' is too large (at most {})", u32::MAX))
}

/// A whole number, 0 allowed (a cap, a number of steps).
pub fn count(text: &str) -> Result<usize, String> {
    at_least(text, 0)
}

fn at_least(text: &str, min: usize) -> Result<usize, String> {
    let trimmed = text.trim();
    let digits = trimmed.strip_prefix('+').unwrap_or(trimmed);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return match digits.parse::<usize>() {
            Ok(n) if n >= min => Ok(n),
            Ok(_) => Err(format!("must be a whole number of at least {min}")),
            Err(_) => Err(format!("'{text}' is too large (at most {})", usize::MAX)),
        };
    }
    let negative = digits
        .strip_prefix('-')
        .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()));
    if negative {
        Err(format!(
            "must be a whole number of at least {min}, not negative"
        ))
    } else {
        Err(format!("must be a whole number of at least {min}"))
    }
}

/// Every option value and positional argument of `command` and its subcommands may
/// look like a negative number: the value's own parser then refuses it with its rule.
pub fn accept_negative_values(command: clap::Command) -> clap::Command {
    command
        .mut_args(|arg| {
            if arg.get_action().takes_values() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
        .mut_subcommands(accept_negative_values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_say_what_they_must_be() {
        assert_eq!(positive("3"), Ok(3));
        assert_eq!(positive("+3"), Ok(3));
        assert_eq!(count("0"), Ok(0));
        assert_eq!(
            positive("0").unwrap_err(),
            "must be a whole number of at least 1"
        );
        assert_eq!(
            positive("-1").unwrap_err(),
            "must be a whole number of at least 1, not negative"
        );
        assert!(positive("1.5").is_err());
        assert!(positive("").is_err());
        assert!(positive("99999999999999999999999")
            .unwrap_err()
            .contains("too large"));
        assert_eq!(positive_u64("7"), Ok(7u64));
        assert_eq!(positive_u32("4294967295"), Ok(u32::MAX));
        assert!(positive_u32("4294967296")
            .unwrap_err()
            .contains("too large"));
        assert!(positive_u64("-2").unwrap_err().contains("not negative"));
    }
}
