//! Which of the literals the selected detectors need occur in a file, found in about one pass
//! over its bytes: a file none of whose literals occur is done after that pass.
//!
//! How: the file is read in chunks of [`CHUNK`] bytes (each extended by the longest literal, so
//! that an occurrence starting in a chunk ends in it). For a chunk, the hashes of all its
//! four-byte sequences are stamped into a table; a literal that is not yet known to occur, and
//! all of whose four-byte sequences are stamped, is then searched for in the chunk with a
//! SIMD substring search (a literal under four bytes has no sequence, and is searched for in
//! each chunk until found). The stamps are a filter without false negatives (a literal in the
//! chunk has all its sequences in it), and the search confirms, so the result is exact: the
//! set of literals that occur in the text. A literal found once is not looked for again, so
//! the common words that occur in every file cost one search each, not one per occurrence.
//!
//! Where each literal first occurs is kept too: the detectors start their searches there, and
//! do not search for a literal found nowhere. Only the literals of the detectors that look at
//! the file's kind of file are looked for, unless the file holds a marker of embedded text of
//! another kind.
//!
//! Measured on the benchmark corpus (212 MB, 146 literals), this takes a quarter of the time of
//! an overlapping Aho-Corasick DFA over the same literals, whose table does not fit in the
//! first-level cache and which reports every occurrence of every common word. Its limit is the
//! hashing and the table stores, one of each per byte: with AVX2, sixteen sequences are
//! hashed at a time (a multiply and a shift), and only the stores are done one by one
//! (2.9 GB/s, against 2.5 GB/s with the `crc32` instruction one sequence at a time and 1.9 GB/s
//! with a multiply; the stores alone run at 3.5 GB/s); stamping every other
//! offset let too many absent literals through to the search; and looking up the sequences at
//! every third offset only, each checked against the literals that have it there (no stores),
//! was slower still: the look-alike stems of a text (`merge_` of `merge_status` for
//! `merge_requests`, `tatu` of `status` for `Status`) hit on about one lookup in thirteen, where
//! the per-chunk check turns a stem away at once because one of the literal's sequences is
//! missing from the chunk.
//!
//! Tried since, and measured on the same corpus (166 MB read by the scan): stamping the
//! sequences at even offsets only, each literal checked on the sequences of either parity,
//! halves the stores and the stamping time, but a literal's sequences of one parity miss its
//! last byte, so `runners` passed wherever `runner` did (and `Status` wherever `status`, and
//! a four-byte literal everywhere): the searches in vain read 1,640 MB instead of 203. Stamping
//! only the sequences some literal has is no cheaper: 23 % of the corpus's sequences are some
//! literal's, and the branch on each ran at a third of the speed. Looking for the context and
//! searched literals only once an anchor of their detector is found added 10 % to the
//! prefilter's instructions: the anchors are mostly common words found in most files, and a
//! literal brought in by an anchor found in a later chunk must be searched for before it.
//! Stamping only the sequences whose four bytes are all among the literals' bytes (45 % of the
//! corpus's sequences), classified with vector lookups and packed with a permutation table,
//! ran at the speed of stamping all of them: one-byte stores to random places of a table take
//! about two cycles each on the machine measured (Zen 3), and the classifying and packing cost what
//! the saved stores did.
//!
//! A chunk is checked only for the literals not found yet (the found leave a list), and each
//! literal's sequences are checked from the rarest-looking, so that the check of an absent
//! literal mostly stops at its first sequence.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use memchr::memmem::Finder;

use crate::syntax::classify::KindSet;
use crate::syntax::embedded;
use crate::syntax::{ABSENT, LiteralIndex, NOT_LOOKED_FOR};

/// Bytes per chunk: small enough that a chunk's four-byte sequences fill a small part of the
/// table (so a literal absent from the chunk is rarely searched for), large enough that the
/// per-chunk checks of the literals cost little.
const CHUNK: usize = 16 * 1024;

/// log2 of the stamp table's size: 64 Ki entries ([`Stamp`]). (With 32 Ki, a full chunk's
/// 16 Ki sequences stamp about two entries in five, so an absent literal of three sequences
/// passes the check in about one chunk in sixteen, by that count. Measured on the benchmark
/// corpus: the searches in vain read 314 MB, 110 of them for `Runner`; with 64 Ki they read
/// 203 MB, none for `Runner`, and the scanner's instructions went down 4 %. The stamping runs
/// at the same speed: its limit is the stores, not the table's size; 8 Ki to 64 Ki entries
/// stamp within 5 % of each other.)
const HASH_BITS: u32 = 16;

/// The stamp table's index bits.
const HASH_MASK: usize = (1 << HASH_BITS) - 1;

/// [`Prefilter::rarest`] of a literal without a four-byte sequence (no hash is this large: a
/// hash takes all sixteen bits of a `u16`).
const NO_SEQUENCE: u32 = u32::MAX;

/// The hash of four bytes. (Four, not three: `runners` has all its three-byte sequences in a
/// text that holds `runner_id` and `users` but not `runners`, and was searched for in vain in
/// every chunk of such a text.)
#[inline(always)]
fn gram_hash(w: u32) -> usize {
    (w.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// Can this processor stamp eight sequences at once ([`stamp_grams_avx2`]: x86-64 with AVX2)?
fn vector_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// One literal: its text and its searcher (made when the literal is first searched for: a scan
/// of a few files searches for few of them, and making all of them is a quarter of the
/// start-up's prefilter).
struct Literal {
    text: Box<[u8]>,
    finder: OnceLock<Finder<'static>>,
}

/// The literals and, for each, the detectors that need it.
pub struct Prefilter {
    /// The sequences are stamped eight at a time with AVX2 (else one by one).
    vector: bool,
    /// The distinct literals, then the suppression marker, then the embedded-region markers.
    literals: Vec<Literal>,
    /// Per literal, the hash of its rarest-looking sequence ([`NO_SEQUENCE`]: under four bytes),
    /// apart from the literals, so that the per-chunk check of an absent literal mostly reads
    /// this small array and one entry of the table.
    rarest: Vec<u32>,
    /// Per literal, the range of [`Self::grams`] that holds the hashes of its other sequences.
    other_grams: Vec<(u32, u32)>,
    /// The distinct hashes of the literals' four-byte sequences other than the rarest, the
    /// rarest-looking first, one literal after another: the per-chunk check reads these few
    /// kilobytes, not the literals (a literal and its own list of hashes were two cache
    /// misses for each literal whose rarest sequence was stamped).
    grams: Vec<u16>,
    /// The number of detector literals (the index of the suppression marker).
    detector_literals: usize,
    longest: usize,
    /// literal index → indices into the scanner's detector table.
    users: Vec<Vec<usize>>,
    /// The number of detectors (of needs).
    detectors: usize,
    /// detector index → literal indices of which one must also occur (empty: none).
    context: Vec<Vec<usize>>,
    /// Per detector literal, the kinds of file of the detectors that need it.
    kinds: Vec<KindSet>,
    /// The detector literals, with their indices.
    index: LiteralIndex,
    /// This prefilter's number, unique in the process (a scratch space used with another
    /// prefilter makes its starts again).
    id: u64,
}

/// The number of the next prefilter made (never 0).
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A chunk's number in the stamp table: two bytes (a table of 128 KB, stamped as fast as one
/// of 64 KB with one-byte stamps), so that it wraps, and the table is cleared, only every
/// 65,535 chunks (1 GB): a file of several chunks is then mostly stamped without a wrap, and
/// its stamps tell which texts it lacks ([`Scratch::surely_absent`]).
type Stamp = u16;

/// A worker's scratch space: the stamp table, which literals occur, and the candidates of the
/// last file.
pub struct Scratch {
    /// Per hash, the number of the last chunk whose text has a sequence of that hash (a fixed
    /// size: a hash indexes it without a bounds check).
    stamps: Box<[Stamp; 1 << HASH_BITS]>,
    /// The number of the current chunk (never 0 while a chunk is read: 0 is "never").
    stamp: Stamp,
    /// The stamp of the last file's first chunk, when all its chunks were stamped and the
    /// table was not cleared since: every sequence of the file has that stamp or a later one,
    /// and every other sequence an earlier one.
    whole: Option<Stamp>,
    /// The literals not found yet in the text being read.
    missing: Vec<usize>,
    /// The detector literals found in the last file, in the order found.
    found: Vec<usize>,
    /// One bit per detector: the users of the found literals, while candidates are made (all
    /// clear between files).
    marks: Vec<u64>,
    /// Per literal, where it first occurs in the last file ([`ABSENT`], [`NOT_LOOKED_FOR`]).
    first: Vec<usize>,
    candidates: Vec<usize>,
    /// Per set of kinds of file met so far, the detector literals' start for a file of those
    /// kinds (made once, copied for each file), and the prefilter they are of.
    starts: Vec<(KindSet, KindStart)>,
    starts_of: u64,
}

/// Where a file of some kinds starts: each detector literal [`ABSENT`] (looked for) or
/// [`NOT_LOOKED_FOR`], and the literals looked for.
struct KindStart {
    first: Vec<usize>,
    looked_for: Vec<usize>,
}

impl Default for Scratch {
    fn default() -> Self {
        Self {
            stamps: Box::new([0; 1 << HASH_BITS]),
            stamp: 0,
            whole: None,
            missing: Vec::new(),
            found: Vec::new(),
            marks: Vec::new(),
            first: Vec::new(),
            candidates: Vec::new(),
            starts: Vec::new(),
            starts_of: 0,
        }
    }
}

impl Scratch {
    /// The detectors whose literals occur in the last file (sorted, unique).
    pub fn candidates(&self) -> &[usize] {
        &self.candidates
    }

    /// Per literal of the prefilter, where it first occurs in the last file ([`ABSENT`],
    /// [`NOT_LOOKED_FOR`]); [`Prefilter::index`] says which literal is where.
    pub fn first_offsets(&self) -> &[usize] {
        &self.first
    }

    /// Is `needle` surely absent from the last file, by its four-byte sequences? It is when all
    /// the file's chunks were stamped and one of the needle's sequences has no stamp of them: a
    /// text that is not a literal of the prefilter is then known absent without a search.
    /// `false`: it may occur (or nothing is known: a needle under four bytes, a file whose
    /// literals were all found before its last chunk, or whose stamps wrapped).
    pub fn surely_absent(&self, needle: &[u8]) -> bool {
        let Some(first) = self.whole else {
            return false;
        };
        needle
            .windows(4)
            .any(|g| self.stamps[gram_hash(u32::from_le_bytes([g[0], g[1], g[2], g[3]]))] < first)
    }
}

/// Start a new chunk: a stamp no entry of the table has yet (the table is cleared when the stamp
/// wraps).
fn next_stamp(stamp: &mut Stamp, stamps: &mut [Stamp; 1 << HASH_BITS]) -> Stamp {
    *stamp = stamp.wrapping_add(1);
    if *stamp == 0 {
        stamps.fill(0);
        *stamp = 1;
    }
    *stamp
}

/// The marker that makes a file with only a suppression comment worth a look.
pub const SUPPRESSION_MARKER: &str = "uplint:";

/// Besides the detectors' literals, what the file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Markers {
    /// A suppression comment's marker ([`SUPPRESSION_MARKER`]).
    pub suppression: bool,
    /// One of the markers of embedded regions ([`embedded::MARKERS`]).
    pub embedded: bool,
}

/// What the prefilter looks for on behalf of one detector.
#[derive(Clone, Debug, Default)]
pub struct Needs {
    /// Literals of which a file must hold one for the detector to look at it.
    pub anchors: Vec<String>,
    /// Literals of which the file must also hold one (empty: none).
    pub context: Vec<String>,
    /// Other literals the detector asks about (whether and where they occur), no condition.
    pub searched: Vec<String>,
    /// The kinds of file the detector looks at.
    pub kinds: KindSet,
}

impl Prefilter {
    /// The prefilter for the detectors whose needs these are (by index).
    pub fn new(needs: &[Needs]) -> Self {
        Self::stamping(needs, vector_instructions())
    }

    /// [`Self::new`], stamping with vector instructions or not.
    fn stamping(needs: &[Needs], vector: bool) -> Self {
        // Every distinct literal once, then the suppression marker and the region markers.
        fn indices<'a>(
            unique: &mut Vec<&'a str>,
            seen: &mut HashMap<&'a str, usize, BuildHasherDefault<WordHasher>>,
            lits: &'a [String],
        ) -> Vec<usize> {
            lits.iter()
                .map(|l| {
                    *seen.entry(l.as_str()).or_insert_with(|| {
                        unique.push(l);
                        unique.len() - 1
                    })
                })
                .collect()
        }
        let mut unique: Vec<&str> = Vec::new();
        let all = needs
            .iter()
            .map(|n| n.anchors.len() + n.context.len() + n.searched.len())
            .sum();
        let mut seen = HashMap::with_capacity_and_hasher(all, BuildHasherDefault::default());
        let primary: Vec<Vec<usize>> = needs
            .iter()
            .map(|n| indices(&mut unique, &mut seen, &n.anchors))
            .collect();
        let context: Vec<Vec<usize>> = needs
            .iter()
            .map(|n| indices(&mut unique, &mut seen, &n.context))
            .collect();
        let searched: Vec<Vec<usize>> = needs
            .iter()
            .map(|n| indices(&mut unique, &mut seen, &n.searched))
            .collect();
        let detector_literals = unique.len();
        unique.push(SUPPRESSION_MARKER);
        unique.extend(embedded::MARKERS);
        let mut users: Vec<Vec<usize>> = vec![Vec::new(); unique.len()];
        for (detector, lits) in primary.iter().enumerate() {
            for &lit in lits {
                users[lit].push(detector);
            }
        }
        let mut literal_kinds = vec![KindSet::default(); detector_literals];
        for (d, n) in needs.iter().enumerate() {
            for &lit in primary[d].iter().chain(&context[d]).chain(&searched[d]) {
                literal_kinds[lit] = literal_kinds[lit].union(n.kinds);
            }
        }
        let index = LiteralIndex::new(
            unique[..detector_literals]
                .iter()
                .enumerate()
                .map(|(i, l)| (Box::from(*l), i))
                .collect(),
        );
        let literals: Vec<Literal> = unique.iter().map(|l| Literal::new(l)).collect();
        let (mut rarest, mut other_grams, mut grams) = (Vec::new(), Vec::new(), Vec::new());
        for l in &unique {
            let hashes = gram_hashes(l.as_bytes());
            rarest.push(hashes.first().map_or(NO_SEQUENCE, |&h| u32::from(h)));
            let from = grams.len() as u32;
            grams.extend(hashes.iter().skip(1));
            other_grams.push((from, grams.len() as u32));
        }
        Self {
            vector,
            index,
            rarest,
            other_grams,
            grams,
            literals,
            detector_literals,
            longest: unique.iter().map(|l| l.len()).max().unwrap_or(0),
            users,
            detectors: needs.len(),
            context,
            kinds: literal_kinds,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// The detector literals, each with its index into [`Scratch::first_offsets`].
    pub fn index(&self) -> &LiteralIndex {
        &self.index
    }

    /// Find the detectors whose literal occurs in `text` (into `scratch`); which markers occur,
    /// of the embedded-region markers in use for the file (`in_use`, as
    /// [`embedded::markers_in_use`] says: the others are not looked for).
    ///
    /// Only the literals of detectors that look at a file of one of `kinds` are looked for, and
    /// those of the other detectors too when the file holds a marker of embedded regions (text
    /// of another kind): a literal not looked for is [`NOT_LOOKED_FOR`], and its detectors are
    /// not candidates.
    pub fn candidates(
        &self,
        text: &[u8],
        scratch: &mut Scratch,
        in_use: &[bool; embedded::MARKERS.len()],
        kinds: KindSet,
    ) -> Markers {
        if scratch.starts_of != self.id {
            scratch.starts.clear();
            scratch.starts_of = self.id;
        }
        let start = match scratch.starts.iter().position(|(k, _)| *k == kinds) {
            Some(i) => i,
            None => {
                scratch.starts.push((kinds, self.kind_start(kinds)));
                scratch.starts.len() - 1
            }
        };
        let start = &scratch.starts[start].1;
        let skipped = start.looked_for.len() < self.detector_literals;
        let mut first = std::mem::take(&mut scratch.first);
        first.clear();
        first.extend_from_slice(&start.first);
        first.resize(self.literals.len(), ABSENT);
        scratch.found.clear();
        let mut missing = std::mem::take(&mut scratch.missing);
        missing.clear();
        missing.extend_from_slice(&start.looked_for);
        // The suppression marker, and the markers of embedded regions in use (the others are
        // not looked for, and reported absent).
        missing.push(self.detector_literals);
        let first_marker = self.detector_literals + 1;
        missing.extend(
            (0..in_use.len())
                .filter(|&k| in_use[k])
                .map(|k| first_marker + k),
        );
        scratch.whole = self.occurring(text, scratch, &mut missing, &mut first).0;
        let found = |first: &[usize], lit: usize| first[lit] < NOT_LOOKED_FOR;
        let markers = Markers {
            suppression: found(&first, self.detector_literals),
            embedded: (first_marker..self.literals.len()).any(|lit| found(&first, lit)),
        };
        if markers.embedded && skipped {
            // Regions are looked at as files of their own kinds: every literal counts.
            missing.clear();
            for (lit, at) in first[..self.detector_literals].iter_mut().enumerate() {
                if *at == NOT_LOOKED_FOR {
                    *at = ABSENT;
                    missing.push(lit);
                }
            }
            // Its stamps are the text's too (later ones), unless the table was cleared.
            if self.occurring(text, scratch, &mut missing, &mut first).1 {
                scratch.whole = None;
            }
        }
        // The users of the found literals, marked once each and read in order (sorted, unique),
        // those with a context literal kept only if one of them is found.
        let marks = &mut scratch.marks;
        marks.resize(self.detectors.div_ceil(64), 0);
        for &lit in &scratch.found {
            for &d in &self.users[lit] {
                marks[d / 64] |= 1 << (d % 64);
            }
        }
        let out = &mut scratch.candidates;
        out.clear();
        for (w, word) in marks.iter_mut().enumerate() {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                let d = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.context[d].is_empty() || self.context[d].iter().any(|&c| found(&first, c)) {
                    out.push(d);
                }
            }
        }
        scratch.first = first;
        scratch.missing = missing;
        markers
    }

    /// The detector literals' start for a file of `kinds`: those of the detectors that look at
    /// none of the kinds are not looked for.
    fn kind_start(&self, kinds: KindSet) -> KindStart {
        let first: Vec<usize> = self
            .kinds
            .iter()
            .map(|k| {
                if k.intersects(kinds) {
                    ABSENT
                } else {
                    NOT_LOOKED_FOR
                }
            })
            .collect();
        let looked_for = (0..first.len()).filter(|&l| first[l] == ABSENT).collect();
        KindStart { first, looked_for }
    }

    /// Of the literals `missing`, note in `first` where each that occurs in `text` first occurs,
    /// and take it out of `missing` (chunks are read in order, and a literal is confirmed in the
    /// first chunk where it starts: the search's first hit there is the first in the text).
    /// One found is taken out, so a long text's later chunks check only the absent ones.
    ///
    /// Returns the first chunk's stamp if every chunk was stamped and the table was not
    /// cleared after the first ([`Scratch::whole`]), and whether it was cleared at all.
    fn occurring(
        &self,
        text: &[u8],
        scratch: &mut Scratch,
        missing: &mut Vec<usize>,
        first: &mut [usize],
    ) -> (Option<Stamp>, bool) {
        let mut at = 0;
        let mut first_stamp = None;
        let (mut cleared, mut cleared_after_first) = (false, false);
        while at < text.len() && !missing.is_empty() {
            let chunk = &text[at..(at + CHUNK + self.longest).min(text.len())];
            let before = scratch.stamp;
            let stamp = next_stamp(&mut scratch.stamp, &mut scratch.stamps);
            // The stamp wrapped and the table was cleared.
            let clear = stamp <= before;
            cleared |= clear;
            match first_stamp {
                None => first_stamp = Some(stamp),
                Some(_) => cleared_after_first |= clear,
            }
            self.stamp_grams(chunk, &mut scratch.stamps, stamp);
            let stamps = &scratch.stamps;
            let mut k = 0;
            while k < missing.len() {
                let lit = missing[k];
                // Most absent literals fail at their rarest sequence, checked without loading
                // the literal.
                let rarest = self.rarest[lit];
                if rarest != NO_SEQUENCE && stamps[rarest as usize & HASH_MASK] != stamp {
                    k += 1;
                    continue;
                }
                let (from, to) = self.other_grams[lit];
                if self.grams[from as usize..to as usize]
                    .iter()
                    .all(|&h| stamps[usize::from(h)] == stamp)
                    && let Some(pos) = self.literals[lit].finder().find(chunk)
                {
                    first[lit] = at + pos;
                    if lit < self.detector_literals {
                        scratch.found.push(lit);
                    }
                    missing.swap_remove(k);
                } else {
                    k += 1;
                }
            }
            at += CHUNK;
        }
        let whole = first_stamp.filter(|_| at >= text.len() && !cleared_after_first);
        (whole, cleared)
    }

    /// Stamp the hash of every four-byte sequence of `chunk`.
    fn stamp_grams(&self, chunk: &[u8], stamps: &mut [Stamp; 1 << HASH_BITS], stamp: Stamp) {
        if self.vector {
            // `vector` is set only where `vector_instructions` says the processor has AVX2: on
            // x86-64, never elsewhere.
            #[cfg(target_arch = "x86_64")]
            {
                // SAFETY: the processor has AVX2 (`vector_instructions`).
                unsafe { stamp_grams_avx2(chunk, stamps, stamp) };
                return;
            }
        }
        stamp_grams_with(chunk, stamps, stamp, gram_hash);
    }
}

/// How rare a byte is in text, roughly: lower-case letters by their frequency in English, then
/// punctuation common in code, then the rest (upper case, digits and other punctuation).
static RARITY: [u8; 256] = {
    const COMMON: &[u8] = b" etaoinsrhldcumfpgwyb_.vk-x/jqz";
    let mut t = [COMMON.len() as u8; 256];
    let mut i = 0;
    while i < COMMON.len() {
        t[COMMON[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The distinct hashes of the four-byte sequences of a literal, the rarest-looking first: a
/// chunk without the literal most often lacks one of them, and the check stops there.
fn gram_hashes(b: &[u8]) -> Vec<u16> {
    let mut grams: Vec<(u32, u16)> = b
        .windows(4)
        .map(|g| {
            let rarity = g.iter().map(|&c| u32::from(RARITY[usize::from(c)])).sum();
            let h = gram_hash(u32::from_le_bytes([g[0], g[1], g[2], g[3]])) as u16;
            (rarity, h)
        })
        .collect();
    grams.sort_by_key(|&(rarity, _)| std::cmp::Reverse(rarity));
    let mut hashes: Vec<u16> = Vec::with_capacity(grams.len());
    for (_, h) in grams {
        if !hashes.contains(&h) {
            hashes.push(h);
        }
    }
    hashes
}

impl Literal {
    fn new(text: &str) -> Self {
        Self {
            text: text.as_bytes().into(),
            finder: OnceLock::new(),
        }
    }

    fn finder(&self) -> &Finder<'static> {
        self.finder
            .get_or_init(|| Finder::new(&self.text).into_owned())
    }
}

/// Stamp the hash of every four-byte sequence of `chunk`, by `hash`.
#[inline(always)]
fn stamp_grams_with(
    chunk: &[u8],
    stamps: &mut [Stamp; 1 << HASH_BITS],
    stamp: Stamp,
    hash: impl Fn(u32) -> usize,
) {
    let mut i = 0;
    // Five sequences per eight-byte load.
    while let Some(word) = chunk.get(i..i + 8) {
        let w = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        for shift in [0, 8, 16, 24, 32] {
            stamps[hash((w >> shift) as u32)] = stamp;
        }
        i += 5;
    }
    while let Some(w) = chunk.get(i..i + 4) {
        stamps[hash(u32::from_le_bytes([w[0], w[1], w[2], w[3]]))] = stamp;
        i += 1;
    }
}

/// [`stamp_grams_with`] [`gram_hash`], sixteen sequences per step with AVX2: two 16-byte loads,
/// each spread into the eight four-byte sequences that start in its first half, multiplied and
/// shifted eight at a time, then the sixteen hashes stamped one by one (the stores are the
/// limit: 2.9 GB/s against 2.5 with the `crc32` instruction one sequence at a time).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn stamp_grams_avx2(chunk: &[u8], stamps: &mut [Stamp; 1 << HASH_BITS], stamp: Stamp) {
    use std::arch::x86_64::{
        __m256i, _mm_set_epi64x, _mm256_broadcastsi128_si256, _mm256_extract_epi64,
        _mm256_mullo_epi32, _mm256_packus_epi32, _mm256_set1_epi32, _mm256_setr_epi8,
        _mm256_shuffle_epi8, _mm256_srli_epi32,
    };
    // In each 128-bit lane of the broadcast load, the bytes of four sequences: those at 0–3
    // in the low lane, at 4–7 in the high one.
    let spread = _mm256_setr_epi8(
        0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6, 4, 5, 6, 7, 5, 6, 7, 8, 6, 7, 8, 9, 7, 8,
        9, 10,
    );
    let factor = _mm256_set1_epi32(0x9E37_79B1_u32 as i32);
    let hashes = |bytes: &[u8]| -> __m256i {
        let word = |k: usize| i64::from_le_bytes(bytes[k..k + 8].try_into().expect("eight bytes"));
        let sequences = _mm256_shuffle_epi8(
            _mm256_broadcastsi128_si256(_mm_set_epi64x(word(8), word(0))),
            spread,
        );
        _mm256_srli_epi32::<{ 32 - HASH_BITS as i32 }>(_mm256_mullo_epi32(sequences, factor))
    };
    let mut i = 0;
    // The sequences at i..i + 16 end by i + 19; the second load reads to i + 24.
    while let Some(bytes) = chunk.get(i..i + 24) {
        // Sixteen 16-bit hashes (in an order of no importance).
        let packed = _mm256_packus_epi32(hashes(&bytes[..16]), hashes(&bytes[8..]));
        for w in [
            _mm256_extract_epi64::<0>(packed),
            _mm256_extract_epi64::<1>(packed),
            _mm256_extract_epi64::<2>(packed),
            _mm256_extract_epi64::<3>(packed),
        ] {
            let w = w as u64;
            for shift in [0, 16, 32, 48] {
                stamps[(w >> shift) as usize & ((1 << HASH_BITS) - 1)] = stamp;
            }
        }
        i += 16;
    }
    stamp_grams_with(&chunk[i..], stamps, stamp, gram_hash);
}

/// The literals' table of [`Prefilter::new`]: a multiply-and-rotate hash of eight bytes at a
/// time (rustc's FxHash), not the standard library's SipHash, which took a quarter of the
/// prefilter's making at every start (about 800 literals, each hashed at least once). The
/// literals are the data's, not an attacker's, so a hash that can be flooded does no harm. The
/// order of the literals is the order they are met in, whatever the hash.
#[derive(Default)]
struct WordHasher(u64);

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("eight bytes")));
        }
        let mut last = [0u8; 8];
        let rest = chunks.remainder();
        last[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(last) ^ (rest.len() as u64) << 56);
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    /// The product's high bits are its best mixed: turned to where the table takes its index
    /// (as rustc-hash 2 does).
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The literals' table tells apart what differs only in its last bytes or in its length
    /// (a byte more that is zero).
    #[test]
    fn the_word_hash_sees_the_tail_and_the_length() {
        let hash = |s: &str| {
            let mut h = WordHasher::default();
            h.write(s.as_bytes());
            h.finish()
        };
        let words = [
            "CI_JOB_JWT",
            "CI_JOB_JWT_V1",
            "CI_JOB_JWT_V2",
            "a",
            "a\0",
            "",
            "\0",
            "12345678",
            "123456781",
        ];
        let mut seen = std::collections::HashSet::new();
        for w in words {
            assert!(seen.insert(hash(w)), "{w:?} hashes as an earlier word");
        }
        assert_eq!(hash("runners"), hash("runners"));
    }

    const ALL_MARKERS: [bool; embedded::MARKERS.len()] = [true; embedded::MARKERS.len()];

    /// A detector of every kind of file that needs one of `anchors`.
    fn needs(anchors: &[&str]) -> Needs {
        Needs {
            anchors: anchors.iter().map(|a| a.to_string()).collect(),
            kinds: KindSet::all(),
            ..Default::default()
        }
    }

    /// One detector per literal.
    fn one_per_literal(literals: &[&str]) -> Prefilter {
        let needs: Vec<Needs> = literals.iter().map(|l| needs(&[l])).collect();
        Prefilter::new(&needs)
    }

    /// The prefilters over one detector per literal, with each hash this processor has.
    fn prefilters(literals: &[&str]) -> Vec<Prefilter> {
        let needs: Vec<Needs> = literals.iter().map(|l| needs(&[l])).collect();
        let mut out = vec![Prefilter::stamping(&needs, false)];
        if vector_instructions() {
            out.push(Prefilter::stamping(&needs, true));
        }
        out
    }

    /// Which literals the prefilter says occur (the same with each hash).
    fn occurring(literals: &[&str], text: &[u8]) -> Vec<bool> {
        let answers: Vec<Vec<bool>> = prefilters(literals)
            .iter()
            .map(|p| {
                let mut scratch = Scratch::default();
                p.candidates(text, &mut scratch, &ALL_MARKERS, KindSet::all());
                let mut out = vec![false; literals.len()];
                for &d in scratch.candidates() {
                    out[d] = true;
                }
                out
            })
            .collect();
        assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
        answers[0].clone()
    }

    /// Where the prefilter says each literal first occurs (`None`: nowhere; the same with each
    /// hash).
    fn first_offsets(literals: &[&str], text: &[u8]) -> Vec<Option<usize>> {
        let answers: Vec<Vec<Option<usize>>> = prefilters(literals)
            .iter()
            .map(|p| {
                let mut scratch = Scratch::default();
                p.candidates(text, &mut scratch, &ALL_MARKERS, KindSet::all());
                literals
                    .iter()
                    .map(|l| {
                        let i = p
                            .index()
                            .entries()
                            .iter()
                            .find(|(t, _)| &**t == *l)
                            .unwrap()
                            .1;
                        let at = scratch.first_offsets()[i];
                        (at != usize::MAX).then_some(at)
                    })
                    .collect()
            })
            .collect();
        assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
        answers[0].clone()
    }

    fn naive_first(literals: &[&str], text: &[u8]) -> Vec<Option<usize>> {
        literals
            .iter()
            .map(|l| memchr::memmem::find(text, l.as_bytes()))
            .collect()
    }

    fn naive(literals: &[&str], text: &[u8]) -> Vec<bool> {
        literals
            .iter()
            .map(|l| memchr::memmem::find(text, l.as_bytes()).is_some())
            .collect()
    }

    const LITERALS: &[&str] = &[
        "status",
        "runners",
        "runners.create",
        "CI_JOB_JWT",
        "CI_JOB_JWT_V2",
        "oss",
        "ab",
        "x",
        "resource \"gitlab_runner\"",
    ];

    #[test]
    fn finds_literals_across_chunk_boundaries() {
        for lit in LITERALS {
            // The literal straddling the first chunk boundary, at its end, and at the end of
            // a long text.
            for start in [CHUNK - 3, CHUNK - lit.len(), CHUNK, 3 * CHUNK + 7] {
                let mut text = vec![b'.'; start + lit.len() + 5];
                text[start..start + lit.len()].copy_from_slice(lit.as_bytes());
                assert_eq!(
                    occurring(LITERALS, &text),
                    naive(LITERALS, &text),
                    "{lit}@{start}"
                );
                assert_eq!(
                    first_offsets(LITERALS, &text),
                    naive_first(LITERALS, &text),
                    "{lit}@{start}"
                );
            }
        }
    }

    #[test]
    fn short_and_empty_texts() {
        for text in ["", "x", "ab", "oss", "os", "status"] {
            assert_eq!(
                occurring(LITERALS, text.as_bytes()),
                naive(LITERALS, text.as_bytes()),
                "{text:?}"
            );
        }
    }

    #[test]
    fn the_stamp_wraps_around() {
        let p = one_per_literal(&["needle"]);
        let mut scratch = Scratch::default();
        // Over many wraps of the stamp: the table is cleared when it wraps, and no stale stamp
        // makes a literal look present (the search would still refuse it) or absent.
        let mut hits = 0;
        for i in 0..70_000u32 {
            let text: &[u8] = if i % 1000 == 0 {
                b"a needle"
            } else {
                b"a needl"
            };
            p.candidates(text, &mut scratch, &ALL_MARKERS, KindSet::all());
            hits += usize::from(!scratch.candidates().is_empty());
        }
        assert_eq!(hits, 70);
    }

    #[test]
    fn literals_for_other_kinds_of_file_are_looked_for_only_where_regions_may_be() {
        use crate::syntax::classify::FileKind;
        let helm = Needs {
            kinds: KindSet::of([FileKind::Helm]),
            ..needs(&["storage"])
        };
        let code = Needs {
            kinds: KindSet::of([FileKind::Code]),
            ..needs(&["status"])
        };
        let p = Prefilter::new(&[helm, code]);
        let storage = p
            .index()
            .entries()
            .iter()
            .find(|(l, _)| &**l == "storage")
            .unwrap()
            .1;
        let mut scratch = Scratch::default();
        let code = KindSet::of([FileKind::Code]);
        p.candidates(b"storage status", &mut scratch, &ALL_MARKERS, code);
        assert_eq!(scratch.candidates(), &[1]);
        assert_eq!(scratch.first_offsets()[storage], NOT_LOOKED_FOR);
        let helm = KindSet::of([FileKind::Helm]);
        p.candidates(b"storage status", &mut scratch, &ALL_MARKERS, helm);
        assert_eq!(scratch.candidates(), &[0]);
        assert_eq!(scratch.first_offsets()[storage], 0);
        // A marker of embedded text: its kind is not known yet, every literal is looked for.
        let text = b"status GITLAB_OMNIBUS_CONFIG storage";
        let markers = p.candidates(text, &mut scratch, &ALL_MARKERS, code);
        assert!(markers.embedded);
        assert_eq!(scratch.candidates(), &[0, 1]);
        assert_eq!(scratch.first_offsets()[storage], 29);
        p.candidates(b"status", &mut scratch, &ALL_MARKERS, code);
        assert_eq!(scratch.first_offsets()[storage], NOT_LOOKED_FOR);
    }

    #[test]
    fn a_scratch_space_serves_one_prefilter_after_another() {
        use crate::syntax::classify::FileKind;
        let code = KindSet::of([FileKind::Code]);
        let only = |kind: FileKind, anchor: &str| Needs {
            kinds: KindSet::of([kind]),
            ..needs(&[anchor])
        };
        // The same number of literals, looked for in files of other kinds.
        let first = Prefilter::new(&[
            only(FileKind::Code, "storage"),
            only(FileKind::Helm, "status"),
        ]);
        let second = Prefilter::new(&[
            only(FileKind::Helm, "storage"),
            only(FileKind::Code, "status"),
        ]);
        let mut scratch = Scratch::default();
        for _ in 0..2 {
            first.candidates(b"storage status", &mut scratch, &ALL_MARKERS, code);
            assert_eq!(scratch.candidates(), &[0]);
            second.candidates(b"storage status", &mut scratch, &ALL_MARKERS, code);
            assert_eq!(scratch.candidates(), &[1]);
        }
    }

    #[test]
    fn searched_literals_are_found_but_make_no_candidate() {
        let rest = Needs {
            searched: vec!["projects".to_string(), "/api/v4".to_string()],
            ..needs(&["runners"])
        };
        let p = Prefilter::new(&[rest]);
        let at = |lit: &str| {
            p.index()
                .entries()
                .iter()
                .find(|(l, _)| &**l == lit)
                .unwrap()
                .1
        };
        let mut scratch = Scratch::default();
        p.candidates(
            b"GET /api/v4/projects",
            &mut scratch,
            &ALL_MARKERS,
            KindSet::all(),
        );
        assert!(scratch.candidates().is_empty());
        assert_eq!(scratch.first_offsets()[at("projects")], 12);
        assert_eq!(scratch.first_offsets()[at("/api/v4")], 4);
        p.candidates(
            b"GET /projects/1/runners",
            &mut scratch,
            &ALL_MARKERS,
            KindSet::all(),
        );
        assert_eq!(scratch.candidates(), &[0]);
        assert_eq!(scratch.first_offsets()[at("/api/v4")], ABSENT);
    }

    proptest::proptest! {
        /// A text is said to be absent only when it is: any part of the file is never said
        /// absent, and one with a sequence the file lacks mostly is, in a file of one chunk or
        /// of several whose chunks were all stamped; of a file whose stamps wrapped nothing is
        /// said.
        #[test]
        fn only_absent_texts_are_said_absent(
            words in proptest::collection::vec(proptest::sample::select(vec![
                "merge_requests", "approvals", "projects", "/", ":id", " ", "\n", "runners",
            ]), 1..40),
            from in 0usize..400,
            len in 0usize..40,
        ) {
            let p = Prefilter::new(&[needs(&["runners"])]);
            let mut scratch = Scratch::default();
            let text = words.concat();
            p.candidates(text.as_bytes(), &mut scratch, &ALL_MARKERS, KindSet::all());
            let from = from.min(text.len());
            let part = &text.as_bytes()[from..(from + len).min(text.len())];
            proptest::prop_assert!(!scratch.surely_absent(part));
            proptest::prop_assert!(scratch.surely_absent(b"pipelines"));
            // Several chunks, all stamped (a literal that never occurs is looked for in each).
            let p = Prefilter::new(&[needs(&["runners"]), needs(&["never_written"])]);
            let long = text.repeat(CHUNK / text.len() + 2);
            let from = from * long.len() / 400;
            let part = &long.as_bytes()[from..(from + len).min(long.len())];
            p.candidates(long.as_bytes(), &mut scratch, &ALL_MARKERS, KindSet::all());
            proptest::prop_assert!(!scratch.surely_absent(part));
            proptest::prop_assert!(scratch.surely_absent(b"pipelines"));
            // The stamps wrap within the file: nothing is said.
            scratch.stamp = Stamp::MAX - 1;
            p.candidates(long.as_bytes(), &mut scratch, &ALL_MARKERS, KindSet::all());
            proptest::prop_assert!(!scratch.surely_absent(part));
            proptest::prop_assert!(!scratch.surely_absent(b"pipelines"));
        }
    }

    #[test]
    fn context_literals_gate_their_detector() {
        let status = Needs {
            context: vec!["runners".to_string()],
            ..needs(&["status"])
        };
        let p = Prefilter::new(&[status, needs(&["jwks"])]);
        let mut scratch = Scratch::default();
        p.candidates(b"status only", &mut scratch, &ALL_MARKERS, KindSet::all());
        assert!(scratch.candidates().is_empty());
        p.candidates(
            b"runners: status, jwks",
            &mut scratch,
            &ALL_MARKERS,
            KindSet::all(),
        );
        assert_eq!(scratch.candidates(), &[0, 1]);
        assert_eq!(
            p.candidates(b"status", &mut scratch, &ALL_MARKERS, KindSet::all()),
            Markers::default()
        );
        assert!(
            p.candidates(
                b"# uplint: ignore",
                &mut scratch,
                &ALL_MARKERS,
                KindSet::all()
            )
            .suppression
        );
        let heredoc = p.candidates(
            b"cat <<EOF > config.toml",
            &mut scratch,
            &ALL_MARKERS,
            KindSet::all(),
        );
        assert!(heredoc.embedded && !heredoc.suppression);
        // A marker not in use for the file is not looked for.
        let mut no_heredocs = ALL_MARKERS;
        let heredoc_marker = embedded::MARKERS.iter().position(|m| *m == "<<").unwrap();
        no_heredocs[heredoc_marker] = false;
        assert!(
            !p.candidates(b"cat <<EOF > x", &mut scratch, &no_heredocs, KindSet::all())
                .embedded
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Sixteen sequences at a time, the vector stamper stamps what the scalar one does,
        /// whatever the length (the tail is stamped one by one).
        #[cfg(target_arch = "x86_64")]
        #[test]
        fn vector_stamps_as_scalar(text in prop::collection::vec(any::<u8>(), 0..200)) {
            if vector_instructions() {
                let mut scalar = Box::new([0 as Stamp; 1 << HASH_BITS]);
                stamp_grams_with(&text, &mut scalar, 1, gram_hash);
                let mut vector = Box::new([0 as Stamp; 1 << HASH_BITS]);
                // SAFETY: the processor has AVX2 (checked above).
                unsafe { stamp_grams_avx2(&text, &mut vector, 1) };
                prop_assert!(scalar == vector);
                let stamped = scalar.iter().filter(|&&s| s == 1).count();
                prop_assert!(stamped <= text.len().saturating_sub(3));
                prop_assert_eq!(stamped == 0, text.len() < 4);
            }
        }

        /// Exact: the same literals as a plain substring search, on texts built from pieces of
        /// the literals (so that near-misses and overlaps are common), some over one chunk.
        #[test]
        fn same_as_substring_search(
            pieces in prop::collection::vec(
                prop_oneof![
                    prop::sample::select(LITERALS.to_vec()).prop_map(|s| s.to_string()),
                    prop::sample::select(LITERALS.to_vec())
                        .prop_map(|s| s[..s.len() / 2].to_string()),
                    "[a-zA-Z_. \"\n]{0,12}",
                    "é|→|\u{1F600}",
                ],
                0..200,
            ),
            repeat in 1usize..200,
        ) {
            let text = pieces.concat().repeat(repeat);
            prop_assert_eq!(
                occurring(LITERALS, text.as_bytes()),
                naive(LITERALS, text.as_bytes())
            );
            prop_assert_eq!(
                first_offsets(LITERALS, text.as_bytes()),
                naive_first(LITERALS, text.as_bytes())
            );
        }
    }
}
