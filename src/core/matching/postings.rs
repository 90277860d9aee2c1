//! Postings lists of every term in one allocation (compressed rows): filled in document order,
//! then sorted by term with a counting sort, which keeps each list in document order.

/// One list of `T` per term id.
#[derive(Debug, Default)]
pub struct Postings<T> {
    /// Where each term's list starts in `items`; one more entry than there are terms.
    offsets: Vec<u32>,
    items: Vec<T>,
    pending: Vec<(u32, T)>,
}

impl<T: Copy + Default> Postings<T> {
    pub fn with_capacity(items: usize) -> Self {
        Postings {
            offsets: Vec::new(),
            items: Vec::new(),
            pending: Vec::with_capacity(items),
        }
    }

    /// Records `item` for `term`. Items of one term must come in the order they should keep.
    pub fn push(&mut self, term: u32, item: T) {
        self.pending.push((term, item));
    }

    /// Lays the pushed items out by term; `terms` is at least one more than the largest term id.
    pub fn finish(&mut self, terms: usize) {
        let mut offsets = vec![0u32; terms + 1];
        for &(t, _) in &self.pending {
            offsets[t as usize + 1] += 1;
        }
        for i in 1..offsets.len() {
            offsets[i] += offsets[i - 1];
        }
        let mut cursor = offsets.clone();
        let mut items = vec![T::default(); self.pending.len()];
        for &(t, item) in &self.pending {
            let c = &mut cursor[t as usize];
            items[*c as usize] = item;
            *c += 1;
        }
        self.offsets = offsets;
        self.items = items;
        self.pending = Vec::new();
    }

    /// The list of a term (empty for an unknown term).
    pub fn get(&self, term: u32) -> &[T] {
        let t = term as usize;
        match (self.offsets.get(t), self.offsets.get(t + 1)) {
            (Some(&s), Some(&e)) => &self.items[s as usize..e as usize],
            _ => &[],
        }
    }

    /// Calls `f` with each term's list, in term order.
    pub fn for_each_list_mut(&mut self, mut f: impl FnMut(&mut [T])) {
        for w in self.offsets.windows(2) {
            f(&mut self.items[w[0] as usize..w[1] as usize]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_keep_push_order_per_term() {
        let mut p: Postings<u32> = Postings::default();
        for (t, doc) in [(2, 10), (0, 11), (2, 12), (1, 13), (2, 14)] {
            p.push(t, doc);
        }
        p.finish(4);
        assert_eq!(p.get(0), [11]);
        assert_eq!(p.get(1), [13]);
        assert_eq!(p.get(2), [10, 12, 14]);
        assert!(p.get(3).is_empty());
        assert!(p.get(99).is_empty());
        let mut lens = Vec::new();
        p.for_each_list_mut(|l| lens.push(l.len()));
        assert_eq!(lens, [1, 1, 3, 0]);
    }
}
