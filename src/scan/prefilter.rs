//! One multi-literal automaton over every literal the selected detectors need, built once: a
//! file none of whose literals occur is done after one pass over its bytes.

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

/// The automaton and, for each of its literals, the detectors that need it.
pub struct Prefilter {
    /// A contiguous NFA: built in a fraction of the time a DFA takes (a one-file scan's
    /// start-up is mostly that build).
    automaton: AhoCorasick,
    /// The same literals as a DFA, built for a tree (see [`Prefilter::prepare_for_tree`]):
    /// faster over many bytes. Both find the same matches.
    dfa: std::sync::OnceLock<AhoCorasick>,
    /// The distinct literals, the suppression marker last.
    literals: Vec<String>,
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
        Self {
            automaton: build(&unique, AhoCorasickKind::ContiguousNFA),
            dfa: std::sync::OnceLock::new(),
            literals: unique.iter().map(|l| l.to_string()).collect(),
            users,
            context,
        }
    }

    /// Build the DFA, which pays for its build over a tree's bytes (not over one file's).
    pub fn prepare_for_tree(&self) {
        self.dfa
            .get_or_init(|| build(&self.literals, AhoCorasickKind::DFA));
    }

    /// Find the detectors whose literal occurs in `text` (into `scratch`); whether a
    /// suppression marker occurs.
    pub fn candidates(&self, text: &[u8], scratch: &mut Scratch) -> bool {
        let seen = &mut scratch.seen;
        seen.clear();
        seen.resize(self.users.len(), false);
        let automaton = self.dfa.get().unwrap_or(&self.automaton);
        for m in automaton.find_overlapping_iter(text) {
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

/// An automaton of the given kind over `literals` (the default kind if that one cannot be built).
fn build<L: AsRef<[u8]>>(literals: &[L], kind: AhoCorasickKind) -> AhoCorasick {
    AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .kind(Some(kind))
        .build(literals)
        .or_else(|_| {
            AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .build(literals)
        })
        .expect("literals build an automaton")
}
