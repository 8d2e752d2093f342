//! Solutions kept for a listing: one bit per cell, sorted into the documented order.
//!
//! A listing is sorted before it is printed, so that it is the same whichever solver or
//! search order found it. Millions of boards must fit (twonot2 with one star: 2,372,207
//! boards of 196 cells, about 90 MB here), so boards are packed, most significant bit
//! first: comparing the words compares the boards cell by cell in row-major order.

/// Listing keeps every solution in memory to sort it; past this many bytes of packed
/// boards (about 30 million 14 x 14 boards) it refuses rather than exhaust memory.
pub const MAX_LIST_BYTES: u128 = 1 << 30;

/// Boards of `cells` cells, packed and (after `sort`) in order.
#[derive(Clone, Debug, Default)]
pub struct BoardList {
    cells: usize,
    words: usize,
    bits: Vec<u64>,
    order: Vec<usize>,
}

impl BoardList {
    pub fn new(cells: usize) -> BoardList {
        BoardList {
            cells,
            words: cells.div_ceil(64),
            bits: Vec::new(),
            order: Vec::new(),
        }
    }

    /// What one board costs in memory.
    pub fn bytes_per_board(cells: usize) -> usize {
        cells.div_ceil(64) * 8 + std::mem::size_of::<usize>()
    }

    pub fn push(&mut self, board: &[bool]) {
        debug_assert_eq!(board.len(), self.cells);
        let start = self.bits.len();
        self.bits.resize(start + self.words, 0);
        for (word, cells) in self.bits[start..].iter_mut().zip(board.chunks(64)) {
            for (i, _) in cells.iter().enumerate().filter(|(_, &on)| on) {
                *word |= 1 << (63 - i);
            }
        }
        self.order.push(self.order.len());
    }

    fn packed(&self, index: usize) -> &[u64] {
        &self.bits[index * self.words..(index + 1) * self.words]
    }

    /// Puts the boards in the documented order: at the first cell (row-major) where two
    /// boards differ, the one with something placed there comes first.
    pub fn sort(&mut self) {
        let mut order = std::mem::take(&mut self.order);
        order.sort_unstable_by(|&a, &b| self.packed(b).cmp(self.packed(a)));
        self.order = order;
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The boards in order, unpacked one at a time.
    pub fn iter(&self) -> impl Iterator<Item = Vec<bool>> + '_ {
        self.order.iter().map(move |&k| {
            let mut board = vec![false; self.cells];
            for (w, &word) in self.packed(k).iter().enumerate() {
                // Only the placed cells are visited: a board is mostly empty.
                let mut rest = word;
                while rest != 0 {
                    let bit = rest.leading_zeros() as usize;
                    board[w * 64 + bit] = true;
                    rest &= !(1 << (63 - bit));
                }
            }
            board
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_come_back_in_row_major_order_placed_first() {
        let boards = [
            vec![false, true, false],
            vec![true, false, false],
            vec![false, false, true],
            vec![true, false, true],
        ];
        let mut list = BoardList::new(3);
        for b in &boards {
            list.push(b);
        }
        list.sort();
        let sorted: Vec<Vec<bool>> = list.iter().collect();
        assert_eq!(
            sorted,
            [
                vec![true, false, true],
                vec![true, false, false],
                vec![false, true, false],
                vec![false, false, true],
            ]
        );
        // Boards wider than a word keep every cell.
        let wide: Vec<bool> = (0..130).map(|i| i % 3 == 0).collect();
        let mut list = BoardList::new(130);
        list.push(&wide);
        assert_eq!(list.iter().next().unwrap(), wide);
    }

    #[test]
    fn every_board_comes_back_as_it_went_in() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut coin = |one_in: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33).is_multiple_of(one_in)
        };
        for cells in [1, 2, 63, 64, 65, 100, 127, 128, 129, 200] {
            let boards: Vec<Vec<bool>> = (0..20)
                .map(|_| (0..cells).map(|_| coin(3)).collect())
                .collect();
            let mut list = BoardList::new(cells);
            for board in &boards {
                list.push(board);
            }
            let back: Vec<Vec<bool>> = list.iter().collect();
            assert_eq!(back, boards, "{cells} cells");
        }
    }
}
