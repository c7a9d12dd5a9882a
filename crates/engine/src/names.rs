//! Looking names up while the physical graph is built: the operators that edges name, and the
//! words of source lines, which are interned.
//!
//! A sorted vector rather than a `BTreeMap`: it is built once and only searched, and every
//! `BTreeMap` type would bring its own copy of the B-tree code into the page's wasm.

/// Names sorted for binary search, each with its position in the list it was built from.
pub(crate) struct NameIndex<'a> {
    /// `(name, position)` in increasing order: equal names sit together, first position first.
    sorted: Vec<(&'a str, u32)>,
}

impl<'a> NameIndex<'a> {
    pub(crate) fn new(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut sorted: Vec<(&str, u32)> = names.into_iter().zip(0..).collect();
        // No two pairs are equal (positions differ), so an unstable sort orders them fully.
        sorted.sort_unstable();
        NameIndex { sorted }
    }

    /// The first position holding `name`.
    pub(crate) fn find(&self, name: &str) -> Option<u32> {
        let at = self.sorted.partition_point(|&(n, _)| n < name);
        self.sorted
            .get(at)
            .filter(|&&(n, _)| n == name)
            .map(|&(_, position)| position)
    }

    /// For every position, the first position holding the same name: itself unless an earlier
    /// one has its name.
    pub(crate) fn first_positions(&self) -> Vec<u32> {
        let mut first = vec![0; self.sorted.len()];
        for same in self.sorted.chunk_by(|a, b| a.0 == b.0) {
            let start = same.first().map_or(0, |&(_, position)| position);
            for &(_, position) in same {
                first[position as usize] = start;
            }
        }
        first
    }
}

/// Interns the words of every line: a word's id is the order of its first appearance. Returns
/// the distinct words, indexed by id, and each line's words as ids.
pub(crate) fn intern(lines: Vec<Vec<String>>) -> (Vec<String>, Vec<Vec<u32>>) {
    let first = NameIndex::new(lines.iter().flatten().map(String::as_str)).first_positions();
    let mut words = Vec::new();
    // The id of every word read so far, in reading order.
    let mut read: Vec<u32> = Vec::with_capacity(first.len());
    let mut line_ids = Vec::with_capacity(lines.len());
    for line in lines {
        let mut ids = Vec::with_capacity(line.len());
        for word in line {
            // A word met before has its id at its first position; a new one is not read yet.
            let earlier = first.get(read.len()).and_then(|&at| read.get(at as usize));
            let id = match earlier {
                Some(&id) => id,
                None => {
                    words.push(word);
                    (words.len() - 1) as u32
                }
            };
            read.push(id);
            ids.push(id);
        }
        line_ids.push(ids);
    }
    (words, line_ids)
}

#[cfg(test)]
mod tests {
    use super::{intern, NameIndex};

    #[test]
    fn finds_the_first_position_of_a_name() {
        let index = NameIndex::new(["map", "src", "map", "sink", "src"]);
        assert_eq!(index.find("src"), Some(1));
        assert_eq!(index.find("map"), Some(0));
        assert_eq!(index.find("count"), None);
        assert_eq!(index.find("zzz"), None);
        assert_eq!(index.first_positions(), [0, 1, 0, 3, 1]);
    }

    #[test]
    fn words_get_ids_in_order_of_first_appearance() {
        let lines = [vec!["to", "be", "or"], vec![], vec!["not", "to", "be"]];
        let lines = lines
            .iter()
            .map(|l| l.iter().map(|w| w.to_string()).collect())
            .collect();
        let (words, ids) = intern(lines);
        assert_eq!(words, ["to", "be", "or", "not"]);
        assert_eq!(ids, [vec![0, 1, 2], vec![], vec![3, 0, 1]]);
    }
}
