//! One multi-literal automaton over every literal the selected patterns need, built once: a
//! file none of whose literals occur is done after one pass over its bytes.

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

/// The automaton and, for each of its literals, the patterns that need it.
pub struct Prefilter {
    automaton: AhoCorasick,
    /// literal index → indices into the scanner's pattern table.
    users: Vec<Vec<usize>>,
}

/// The marker that makes a file with only a suppression comment worth a look.
pub const SUPPRESSION_MARKER: &str = "uplint:";

impl Prefilter {
    /// `literals[i]` is the literal of pattern `i`.
    pub fn new(literals: &[String]) -> Self {
        let mut unique: Vec<&str> = Vec::new();
        let mut users: Vec<Vec<usize>> = Vec::new();
        for (i, lit) in literals.iter().enumerate() {
            match unique.iter().position(|u| u == lit) {
                Some(j) => users[j].push(i),
                None => {
                    unique.push(lit);
                    users.push(vec![i]);
                }
            }
        }
        unique.push(SUPPRESSION_MARKER);
        users.push(Vec::new());
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::DFA))
            .build(&unique)
            .or_else(|_| {
                AhoCorasick::builder()
                    .match_kind(MatchKind::Standard)
                    .build(&unique)
            })
            .expect("literals build an automaton");
        Self { automaton, users }
    }

    /// The patterns whose literal occurs in `text` (sorted, unique), and whether a suppression
    /// marker occurs. `seen` is scratch space, reused across files.
    pub fn candidates(&self, text: &[u8], seen: &mut Vec<bool>) -> (Vec<usize>, bool) {
        seen.clear();
        seen.resize(self.users.len(), false);
        for m in self.automaton.find_overlapping_iter(text) {
            seen[m.pattern().as_usize()] = true;
        }
        let marker = seen[self.users.len() - 1];
        let mut out: Vec<usize> = seen
            .iter()
            .enumerate()
            .filter(|(_, s)| **s)
            .flat_map(|(i, _)| self.users[i].iter().copied())
            .collect();
        out.sort_unstable();
        (out, marker)
    }
}
