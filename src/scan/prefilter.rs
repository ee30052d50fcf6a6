//! One multi-literal automaton over every literal the selected patterns need, built once: a
//! file none of whose literals occur is done after one pass over its bytes.

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

/// The automaton and, for each of its literals, the patterns that need it.
pub struct Prefilter {
    automaton: AhoCorasick,
    /// literal index → indices into the scanner's pattern table.
    users: Vec<Vec<usize>>,
    /// pattern index → literal indices of which one must also occur (empty: none).
    context: Vec<Vec<usize>>,
}

/// The marker that makes a file with only a suppression comment worth a look.
pub const SUPPRESSION_MARKER: &str = "uplint:";

impl Prefilter {
    /// `literals[i]` is the literal of pattern `i`; `context[i]` the literals of which pattern
    /// `i` also needs one.
    pub fn new(literals: &[String], context: &[Vec<String>]) -> Self {
        // Every distinct literal once; the suppression marker last.
        fn index_of<'a>(unique: &mut Vec<&'a str>, lit: &'a str) -> usize {
            unique.iter().position(|u| *u == lit).unwrap_or_else(|| {
                unique.push(lit);
                unique.len() - 1
            })
        }
        let mut unique: Vec<&str> = Vec::new();
        let primary: Vec<usize> = literals.iter().map(|l| index_of(&mut unique, l)).collect();
        let context: Vec<Vec<usize>> = context
            .iter()
            .map(|alts| alts.iter().map(|a| index_of(&mut unique, a)).collect())
            .collect();
        unique.push(SUPPRESSION_MARKER);
        let mut users: Vec<Vec<usize>> = vec![Vec::new(); unique.len()];
        for (pattern, &lit) in primary.iter().enumerate() {
            users[lit].push(pattern);
        }
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
        Self {
            automaton,
            users,
            context,
        }
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
            .filter(|&p| self.context[p].is_empty() || self.context[p].iter().any(|&c| seen[c]))
            .collect();
        out.sort_unstable();
        (out, marker)
    }
}
