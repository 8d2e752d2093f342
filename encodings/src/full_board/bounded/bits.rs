//! The unvisited cells as bit masks, one `u64` per row and one per column of the framed
//! board (bit `c` of row `r` is cell `(r, c)`; bit `r` of column `c` the same cell), and
//! the word-at-a-time operations the pruning tests are made of: a row's maximal runs, the
//! runs holding some seed cells, the cells with fewer than two neighbours. A node's tests
//! then cost a few operations per row instead of a few per cell (the framed board is at
//! most 62 cells a side, so a line fits in a word with a blocked bit on either side).

/// The most cells a side of the framed board may have (the map files' 60 plus the frame).
pub(super) const MAX_SIDE: usize = 62;

/// The maximal runs of set bits of `line`, lowest first, each as a mask.
pub(super) fn runs(mut line: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if line == 0 {
            return None;
        }
        // Adding the lowest set bit carries through the lowest run and clears it.
        let lowest = line & line.wrapping_neg();
        let run = line & !line.wrapping_add(lowest);
        line ^= run;
        Some(run)
    })
}

/// The cells of the runs of `line` that hold a cell of `seeds` (a subset of `line`).
pub(super) fn fill(seeds: u64, line: u64) -> u64 {
    debug_assert_eq!(seeds & !line, 0);
    // Upwards: adding the seeds carries each one to the top of its run (a second seed in
    // the same run stays set where the carry cleared the rest).
    let up = (line & !line.wrapping_add(seeds)) | seeds;
    // Downwards: the same on the reversed words.
    let (r_line, r_seeds) = (line.reverse_bits(), seeds.reverse_bits());
    let down = ((r_line & !r_line.wrapping_add(r_seeds)) | r_seeds).reverse_bits();
    up | down
}

/// The cells of `here` with no neighbour among the cells of `line` (this row, with
/// the ball's cell counted as free), `above` and `below`, and those with exactly one.
pub(super) fn lonely(here: u64, line: u64, above: u64, below: u64) -> (u64, u64) {
    let (left, right) = (line << 1, line >> 1);
    let (row_odd, row_both) = (left ^ right, left & right);
    let (col_odd, col_both) = (above ^ below, above & below);
    let odd = row_odd ^ col_odd;
    let two_or_more = row_both | col_both | (row_odd & col_odd);
    let none = !(left | right | above | below);
    (here & none, here & odd & !two_or_more)
}

/// A 64 x 64 matrix of bits, a word per line.
pub(super) type Square = [u64; 64];

/// Transposes `square` in place: bit `c` of word `r` becomes bit `r` of word `c` (six
/// rounds of swapping blocks across the diagonal, halving the blocks each round: a few
/// hundred word operations, where setting bits one by one costs one per cell).
pub(super) fn transpose(square: &mut Square) {
    let mut size = 32;
    // The low `size` bits of every block of `2 * size`.
    let mut low: u64 = 0x0000_0000_ffff_ffff;
    while size != 0 {
        let mut k = 0;
        while k < 64 {
            // The block right of the diagonal in word k with the block left of it in
            // word k + size.
            let t = ((square[k] >> size) ^ square[k + size]) & low;
            square[k + size] ^= t;
            square[k] ^= t << size;
            k = (k + size + 1) & !size;
        }
        size >>= 1;
        low ^= low << size;
    }
}

/// Bit `i` of a word, as a mask.
pub(super) fn bit(i: usize) -> u64 {
    1 << i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs of a word, bit by bit.
    fn slow_runs(line: u64) -> Vec<u64> {
        let mut out = Vec::new();
        let mut run = 0;
        for i in 0..64 {
            if line >> i & 1 == 1 {
                run |= 1 << i;
            } else if run != 0 {
                out.push(run);
                run = 0;
            }
        }
        if run != 0 {
            out.push(run);
        }
        out
    }

    /// Words of 62 bits whose top and bottom bits are clear, as the frame keeps them.
    fn words() -> Vec<u64> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let frame = !(1 | 1 << 61 | 3 << 62);
        let mut out: Vec<u64> = (0..300).map(|_| next() & frame).collect();
        out.extend([0, frame, 0b110, 1 << 60, frame & !(1 << 30)]);
        out
    }

    #[test]
    fn runs_and_fill_agree_with_bit_by_bit() {
        for line in words() {
            let runs_of: Vec<u64> = runs(line).collect();
            assert_eq!(runs_of, slow_runs(line), "{line:#x}");
            for seeds in words().into_iter().take(20) {
                let seeds = seeds & line;
                let expected: u64 = runs_of
                    .iter()
                    .filter(|&&r| r & seeds != 0)
                    .fold(0, |a, r| a | r);
                assert_eq!(fill(seeds, line), expected, "{line:#x} {seeds:#x}");
            }
        }
    }

    #[test]
    fn transpose_moves_every_bit_across_the_diagonal() {
        let all = words();
        for start in [0, 64, 128] {
            let mut square: Square = all[start..start + 64].try_into().expect("64 words");
            let before = square;
            transpose(&mut square);
            for (r, row) in before.iter().enumerate() {
                for (c, column) in square.iter().enumerate() {
                    assert_eq!(column >> r & 1, row >> c & 1, "({r}, {c})");
                }
            }
        }
    }

    #[test]
    fn lonely_counts_neighbours() {
        let all = words();
        for w in all.windows(3) {
            let (above, line, below) = (w[0], w[1], w[2]);
            let here = line & !(1 << 7);
            let (none, one) = lonely(here, line, above, below);
            for i in 1..61 {
                let n = [line >> (i - 1), line >> (i + 1), above >> i, below >> i]
                    .iter()
                    .filter(|&&x| x & 1 == 1)
                    .count();
                let is_here = here >> i & 1 == 1;
                assert_eq!(none >> i & 1 == 1, is_here && n == 0);
                assert_eq!(one >> i & 1 == 1, is_here && n == 1);
            }
        }
    }
}
