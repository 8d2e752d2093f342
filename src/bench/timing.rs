//! The statistics of a bench: the median, least and greatest of N fresh runs, and the
//! geometric mean of time ratios. A run that did not finish within the time limit has no
//! time; it counts as slower than every run that did, so a median is a time only when
//! more than half of the runs finished.

use std::time::Duration;

/// N measurements of one quantity: the median with the least and the greatest. `None`
/// stands for "not within the time limit" (or not measured at all, when every run says
/// so).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    pub median: Option<Duration>,
    pub min: Option<Duration>,
    pub max: Option<Duration>,
}

impl Spread {
    /// The spread of `times` (at least one).
    pub fn of(times: &[Option<Duration>]) -> Spread {
        assert!(!times.is_empty(), "a spread of no runs");
        let mut sorted = times.to_vec();
        // Unfinished (None) sorts after every time.
        sorted.sort_by_key(|t| (t.is_none(), *t));
        Spread {
            median: sorted[(sorted.len() - 1) / 2],
            min: sorted[0],
            max: sorted[sorted.len() - 1],
        }
    }

    /// True when min and max are the same run (a single run, or all alike).
    pub fn is_point(&self) -> bool {
        self.min == self.max
    }
}

/// The geometric mean of `ratios` (all positive), `None` for none.
pub fn geometric_mean(ratios: &[f64]) -> Option<f64> {
    if ratios.is_empty() {
        return None;
    }
    let logs: f64 = ratios.iter().map(|r| r.ln()).sum();
    Some((logs / ratios.len() as f64).exp())
}

/// A time for people: `0.42 ms`, `12.3 ms`, `1.25 s`, `75 s`.
pub fn human(time: Duration) -> String {
    let ms = time.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else if ms < 1000.0 {
        format!("{ms:.1} ms")
    } else if ms < 10_000.0 {
        format!("{:.2} s", ms / 1000.0)
    } else {
        format!("{:.0} s", ms / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Option<Duration> {
        Some(Duration::from_millis(n))
    }

    #[test]
    fn medians_count_unfinished_runs_as_slowest() {
        let s = Spread::of(&[ms(5), ms(1), ms(3)]);
        assert_eq!((s.median, s.min, s.max), (ms(3), ms(1), ms(5)));
        // Even counts take the lower middle.
        assert_eq!(Spread::of(&[ms(4), ms(2)]).median, ms(2));
        let s = Spread::of(&[None, ms(2), None]);
        assert_eq!((s.median, s.min, s.max), (None, ms(2), None));
        assert_eq!(Spread::of(&[ms(2), ms(1), None]).median, ms(2));
        assert!(Spread::of(&[ms(7)]).is_point());
    }

    #[test]
    fn geometric_means_of_ratios() {
        assert_eq!(geometric_mean(&[]), None);
        let g = geometric_mean(&[2.0, 8.0]).unwrap();
        assert!((g - 4.0).abs() < 1e-12);
        let g = geometric_mean(&[0.5, 2.0]).unwrap();
        assert!((g - 1.0).abs() < 1e-12);
    }

    #[test]
    fn times_read_at_a_glance() {
        assert_eq!(human(Duration::from_micros(420)), "0.42 ms");
        assert_eq!(human(Duration::from_micros(12_340)), "12.3 ms");
        assert_eq!(human(Duration::from_millis(1250)), "1.25 s");
        assert_eq!(human(Duration::from_secs(75)), "75 s");
    }
}
