//! A set of a task's input channels: the closed ones, the ones that delivered a barrier.

use super::ChannelIndex;

/// Input channels of one task, kept as a sorted vector of their indices.
///
/// A task has few inputs, so a binary search is as quick as a tree walk, and the set compiles to
/// a few hundred bytes where a `BTreeSet` brings its own copy of the B-tree code to the page. It
/// stores members only, not a bit per channel, so a handler told it has `u32::MAX` channels (the
/// gate accepts that) stays as small as the channels it actually hears from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct InputSet {
    /// Members in increasing order, each once.
    members: Vec<ChannelIndex>,
}

impl InputSet {
    pub(super) fn contains(&self, ch: ChannelIndex) -> bool {
        self.members.binary_search(&ch).is_ok()
    }

    /// Adds `ch`; false if it was a member already.
    pub(super) fn insert(&mut self, ch: ChannelIndex) -> bool {
        match self.members.binary_search(&ch) {
            Ok(_) => false,
            Err(at) => {
                self.members.insert(at, ch);
                true
            }
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    pub(super) fn members(&self) -> impl Iterator<Item = ChannelIndex> + '_ {
        self.members.iter().copied()
    }

    pub(super) fn len(&self) -> usize {
        self.members.len()
    }

    /// Empties the set but keeps its storage for the next checkpoint.
    pub(super) fn clear(&mut self) {
        self.members.clear();
    }

    /// How many members are not in `other`: one walk along both sorted lists, not a search
    /// per member — every barrier a task of 256 inputs takes asks it (issue 25's 1,024-task
    /// job spent a sixth of its time here).
    pub(super) fn count_not_in(&self, other: &InputSet) -> usize {
        // Usually no input has closed: then no walk at all.
        if other.members.is_empty() {
            return self.members.len();
        }
        let mut theirs = other.members.iter().peekable();
        self.members
            .iter()
            .filter(|&&ch| {
                while theirs.next_if(|&&o| o < ch).is_some() {}
                theirs.peek() != Some(&&ch)
            })
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::InputSet;

    /// The walk along both lists counts what a search per member counts, for every pair of
    /// subsets of seven channels.
    #[test]
    fn count_not_in_agrees_with_a_search_per_member_on_every_pair_of_small_sets() {
        let set = |bits: u32| InputSet {
            members: (0..7).filter(|i| bits & (1 << i) != 0).collect(),
        };
        for a in 0..128 {
            for b in 0..128 {
                let (a, b) = (set(a), set(b));
                let searched = a.members().filter(|&ch| !b.contains(ch)).count();
                assert_eq!(a.count_not_in(&b), searched, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn members_are_counted_once_in_any_insertion_order() {
        let mut set = InputSet::default();
        for ch in [5, 1, 5, 3, 1, u32::MAX] {
            set.insert(ch);
        }
        assert_eq!(set.members, [1, 3, 5, u32::MAX]);
        assert!(set.contains(3) && !set.contains(4));
        assert!(!set.insert(3));
        let other = InputSet {
            members: vec![3, 4],
        };
        assert_eq!(set.count_not_in(&other), 3);
        assert_eq!(other.count_not_in(&set), 1, "4 is not in the set");
        assert_eq!(set.count_not_in(&InputSet::default()), 4);
        assert_eq!(InputSet::default().count_not_in(&set), 0);
        assert_eq!(set.count_not_in(&set), 0);
        set.clear();
        assert_eq!(set.len(), 0);
        assert!(!set.contains(1));
    }
}
