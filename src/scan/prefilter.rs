//! One multi-literal automaton over every literal the selected detectors need, built once: a
//! file none of whose literals occur is done after one pass over its bytes.

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

/// The automaton and, for each of its literals, the detectors that need it.
pub struct Prefilter {
    automaton: AhoCorasick,
    /// literal index → indices into the scanner's detector table.
    users: Vec<Vec<usize>>,
    /// detector index → literal indices of which one must also occur (empty: none).
    context: Vec<Vec<usize>>,
}

/// A worker's scratch space: which literals occur, and the candidates of the last file.
#[derive(Default)]
pub struct Scratch {
    seen: Vec<bool>,
    candidates: Vec<usize>,
}

impl Scratch {
    /// The detectors whose literals occur in the last file (sorted, unique).
    pub fn candidates(&self) -> &[usize] {
        &self.candidates
    }
}

/// The marker that makes a file with only a suppression comment worth a look.
pub const SUPPRESSION_MARKER: &str = "uplint:";

impl Prefilter {
    /// `anchors[i]`: the literals of which detector `i` needs one; `context[i]`: the literals
    /// of which it also needs one (empty: none).
    pub fn new(anchors: &[Vec<String>], context: &[Vec<String>]) -> Self {
        // Every distinct literal once; the suppression marker last.
        fn index_of<'a>(unique: &mut Vec<&'a str>, lit: &'a str) -> usize {
            unique.iter().position(|u| *u == lit).unwrap_or_else(|| {
                unique.push(lit);
                unique.len() - 1
            })
        }
        let mut unique: Vec<&str> = Vec::new();
        let primary: Vec<Vec<usize>> = anchors
            .iter()
            .map(|alts| alts.iter().map(|a| index_of(&mut unique, a)).collect())
            .collect();
        let context: Vec<Vec<usize>> = context
            .iter()
            .map(|alts| alts.iter().map(|a| index_of(&mut unique, a)).collect())
            .collect();
        unique.push(SUPPRESSION_MARKER);
        let mut users: Vec<Vec<usize>> = vec![Vec::new(); unique.len()];
        for (detector, lits) in primary.iter().enumerate() {
            for &lit in lits {
                users[lit].push(detector);
            }
        }
        // A contiguous NFA: built in a fraction of the time a DFA takes (which is most of a
        // one-file scan's start-up), and about as fast over a tree's bytes.
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::ContiguousNFA))
            .build(&unique)
            .or_else(|_| {
                AhoCorasick::builder()
                    .match_kind(MatchKind::Standard)
                    .build(&unique)
            })
            .expect("literals build an automaton");
        Self {
            automaton,
            users,
            context,
        }
    }

    /// Find the detectors whose literal occurs in `text` (into `scratch`); whether a
    /// suppression marker occurs.
    pub fn candidates(&self, text: &[u8], scratch: &mut Scratch) -> bool {
        let seen = &mut scratch.seen;
        seen.clear();
        seen.resize(self.users.len(), false);
        for m in self.automaton.find_overlapping_iter(text) {
            seen[m.pattern().as_usize()] = true;
        }
        let out = &mut scratch.candidates;
        out.clear();
        for (lit, _) in seen.iter().enumerate().filter(|(_, s)| **s) {
            out.extend(self.users[lit].iter().copied().filter(|&d| {
                self.context[d].is_empty() || self.context[d].iter().any(|&c| seen[c])
            }));
        }
        out.sort_unstable();
        out.dedup();
        seen[self.users.len() - 1]
    }
}
