//! A file under scan: its source and the structures parsed from it on first use, shared by
//! every detector that looks at the file.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use super::ci_jobs::{Jobs, ProjectJobs};
use super::classify::FileKind;
use super::cmdline;
use super::graphql_docs;
use super::rest::{self, RestApi};
use super::sdk::{self, SdkFile};
use super::sdk_declarations;
use super::source::Source;
use super::words::WordBytes;
use super::yaml::{self, Doc};
use crate::catalog::Evidence;

/// In [`FirstOffsets::first`]: the literal does not occur.
pub const ABSENT: usize = usize::MAX;
/// In [`FirstOffsets::first`]: the literal was not looked for (nothing is known of it).
pub const NOT_LOOKED_FOR: usize = usize::MAX - 1;

/// Where some literals first occur in a file, found by one pass over the whole file before any
/// detector runs (the scanner's prefilter). A region of the file (a copy blank outside it) holds
/// no literal the file lacks, and holds none earlier than the file does.
#[derive(Clone, Copy)]
pub struct FirstOffsets<'s> {
    /// The literals, each with its index into `first`.
    pub index: &'s LiteralIndex,
    /// Per literal, the offset of its first occurrence, or [`ABSENT`], or [`NOT_LOOKED_FOR`].
    pub first: &'s [usize],
    /// Is a text that is not one of the literals surely absent from the file, as the same pass
    /// can tell (`false`: it may occur)?
    pub surely_absent: &'s dyn Fn(&[u8]) -> bool,
}

/// Literals, each with a number, found by their text with a hash: one probe mostly, where a
/// binary search over the prefilter's 150 literals took eight string comparisons (2 % of a
/// scan's time on the benchmark corpus).
#[derive(Debug)]
pub struct LiteralIndex {
    entries: Vec<(Box<str>, usize)>,
    /// Open addressing: per slot, 1 + the place of a literal in `entries`, or 0 (empty).
    slots: Box<[u32]>,
}

impl LiteralIndex {
    /// The index of these literals (distinct) with their numbers.
    pub fn new(entries: Vec<(Box<str>, usize)>) -> Self {
        let size = (2 * entries.len()).next_power_of_two().max(16);
        let mut slots = vec![0u32; size].into_boxed_slice();
        for (place, (lit, _)) in entries.iter().enumerate() {
            let mut slot = text_hash(lit.as_bytes()) as usize & (size - 1);
            while slots[slot] != 0 {
                slot = (slot + 1) & (size - 1);
            }
            slots[slot] = place as u32 + 1;
        }
        LiteralIndex { entries, slots }
    }

    /// The number of `needle`, if it is one of the literals.
    pub fn get(&self, needle: &str) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut slot = text_hash(needle.as_bytes()) as usize & mask;
        loop {
            let (lit, number) = self
                .entries
                .get(self.slots[slot].checked_sub(1)? as usize)?;
            if **lit == *needle {
                return Some(*number);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The literals with their numbers.
    pub fn entries(&self) -> &[(Box<str>, usize)] {
        &self.entries
    }
}

/// FNV-1a over the bytes.
fn text_hash(b: &[u8]) -> u32 {
    b.iter().fold(0x811C_9DC5_u32, |h, &c| {
        (h ^ u32::from(c)).wrapping_mul(0x0100_0193)
    })
}

impl FirstOffsets<'_> {
    /// `None`: nothing is known of `needle` (not one of the literals, or not looked for);
    /// `Some(None)`: it does not occur; `Some(Some(at))`: it first occurs at `at`.
    fn of(&self, needle: &str) -> Option<Option<usize>> {
        match self.first[self.index.get(needle)?] {
            NOT_LOOKED_FOR => None,
            ABSENT => Some(None),
            at => Some(Some(at)),
        }
    }

    /// Where `needle` can first occur, from what is known of it without its first byte (a
    /// literal `runners` bounds `/runners`: it occurs no earlier than one byte before the
    /// literal's first occurrence, and nowhere if the literal occurs nowhere). `None`: it does
    /// not occur.
    fn bound(&self, needle: &str) -> Option<usize> {
        let rest = needle.get(1..).filter(|r| !r.is_empty());
        match rest.and_then(|r| self.of(r)) {
            None => Some(0),
            Some(first) => first.map(|at| at.saturating_sub(1)),
        }
    }
}

/// A file under scan, with its structure parsed on first use.
pub struct FileCtx<'s, 'a> {
    pub src: &'s Source<'a>,
    /// The words that show which system the file's names belong to.
    /// The scanner's; `None`: the embedded data's, read only if asked for.
    evidence: Option<&'s Evidence>,
    /// Where the literals of the prefilter first occur in the file, when it ran.
    first: Option<FirstOffsets<'s>>,
    /// `first` gives this text's own offsets (not the offsets of a file a region is part of).
    first_is_own: bool,
    yaml: OnceCell<Doc>,
    graphql: OnceCell<Vec<graphql_docs::Doc>>,
    /// [`graphql_docs::document_regions`], found once.
    graphql_regions: OnceCell<Vec<(usize, usize)>>,
    graphql_types: OnceCell<Vec<super::graphql_types::TypeField>>,
    sdk: OnceCell<SdkFile>,
    /// python-gitlab's manager declarations (`_create_attrs`, `_update_attrs`), read once.
    manager_declarations: OnceCell<Vec<sdk_declarations::ManagerDeclaration<'a>>>,
    json_objects: OnceCell<Vec<(usize, usize)>>,
    type_boundaries: OnceCell<Vec<(usize, usize)>>,
    rest_api_base: OnceCell<bool>,
    /// Parsed command lines, by (program, subcommand).
    commands: Memo<(String, String), Rc<Vec<cmdline::Command<'a>>>>,
    /// The commands of a (program, subcommand) whose line may hold some of a set of flags, by
    /// (program, subcommand, flags).
    flagged: Memo<(String, String, u64), Rc<Vec<cmdline::Command<'a>>>>,
    /// Where each program is written as a command, with its words, by program (shared by its
    /// subcommands).
    occurrences: Memo<String, Rc<cmdline::Occurrences<'a>>>,
    /// [`Self::expression_commands`] by subcommand and signature.
    expressions: Memo<String, Rc<Vec<cmdline::Command<'a>>>>,
    /// Offsets of substrings looked for, by substring.
    offsets: Memo<String, Rc<[usize]>>,
    /// Whether substrings occur, by substring.
    contains: Memo<String, bool>,
    /// REST calls, by (endpoint template, API, prefix).
    rest_calls: Memo<(String, RestApi, bool), Rc<Vec<rest::Call<'a>>>>,
    /// The jobs of the CI configuration the file belongs to (the project's `.gitlab-ci.yml`
    /// with its local includes), when it is part of one.
    ci_project: Option<ProjectJobs<'s>>,
    /// The file's own jobs, when it is part of no project's CI configuration; merged with the
    /// project's around them ([`ProjectJobs::Around`]).
    ci_jobs: OnceCell<Jobs>,
}

/// Values made once per file and shared by its detectors, by key (a file asks for few keys, so
/// a list is searched).
struct Memo<K, V>(RefCell<Vec<(K, V)>>);

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo(RefCell::new(Vec::new()))
    }
}

impl<K, V: Clone> Memo<K, V> {
    /// The value whose key `is` recognises, made (and kept under `key()`) the first time.
    /// `make` may use the file's other memos.
    fn get(&self, is: impl Fn(&K) -> bool, key: impl FnOnce() -> K, make: impl FnOnce() -> V) -> V {
        if let Some((_, v)) = self.0.borrow().iter().find(|(k, _)| is(k)) {
            return v.clone();
        }
        let v = make();
        self.0.borrow_mut().push((key(), v.clone()));
        v
    }
}

impl<'s, 'a> FileCtx<'s, 'a> {
    pub fn new(src: &'s Source<'a>) -> Self {
        Self {
            src,
            evidence: None,
            first: None,
            first_is_own: false,
            yaml: OnceCell::new(),
            graphql: OnceCell::new(),
            graphql_regions: OnceCell::new(),
            graphql_types: OnceCell::new(),
            sdk: OnceCell::new(),
            manager_declarations: OnceCell::new(),
            json_objects: OnceCell::new(),
            type_boundaries: OnceCell::new(),
            rest_api_base: OnceCell::new(),
            commands: Memo::default(),
            flagged: Memo::default(),
            occurrences: Memo::default(),
            expressions: Memo::default(),
            offsets: Memo::default(),
            contains: Memo::default(),
            rest_calls: Memo::default(),
            ci_project: None,
            ci_jobs: OnceCell::new(),
        }
    }

    /// Read the file with this evidence (the scanner's catalog's; the embedded data's if not
    /// given).
    pub fn with_evidence(mut self, evidence: &'s Evidence) -> Self {
        self.evidence = Some(evidence);
        self
    }

    /// The words that show which system the file's names belong to.
    pub fn evidence(&self) -> &'s Evidence {
        match self.evidence {
            Some(e) => e,
            None => Evidence::embedded(),
        }
    }

    /// Does the file name the platform: its path, or its text with a word of the `platform`
    /// evidence?
    pub fn names_platform(&self) -> bool {
        super::graphql_types::names_gitlab(self.src.path, "")
            || self.evidence().platform().iter().any(|w| self.contains(w))
    }

    /// The file is part of a project's CI configuration with these jobs.
    pub fn with_ci_project(mut self, jobs: Option<ProjectJobs<'s>>) -> Self {
        self.ci_project = jobs;
        self
    }

    /// Where literals first occur in this text (`own`) or in the file this text is a region of.
    pub fn with_first_offsets(mut self, first: FirstOffsets<'s>, own: bool) -> Self {
        self.first = Some(first);
        self.first_is_own = own;
        self
    }

    /// Is `needle` surely absent, as the prefilter's pass over this very text tells
    /// ([`FirstOffsets::surely_absent`])? (A region's copy holds blanks the file lacks.)
    fn surely_absent(&self, needle: &str) -> bool {
        self.first_is_own
            && self
                .first
                .is_some_and(|f| (f.surely_absent)(needle.as_bytes()))
    }

    /// Where a search for `needle` can start: no occurrence is before it. `None`: `needle` does
    /// not occur.
    pub fn search_start(&self, needle: &str) -> Option<usize> {
        match self.first.and_then(|f| f.of(needle)) {
            None => Some(0),
            // The file this text is a region of may have it first past the region's copy.
            Some(first) => first.filter(|&at| at <= self.src.text.len()),
        }
    }

    /// Like [`Self::search_start`], also from the literals `needle` holds (worth its cost for
    /// searches made once per file).
    fn search_start_bounded(&self, needle: &str) -> Option<usize> {
        match self.first {
            Some(f) if f.of(needle).is_none() => {
                f.bound(needle).filter(|&at| at <= self.src.text.len())
            }
            _ => self.search_start(needle),
        }
    }

    /// The offsets of `word` standing alone (not preceded or followed by a byte of `bytes`) in the file, in order ([`word_offsets`], from where the word can first occur).
    pub fn word_offsets<'w>(
        &self,
        word: &'w str,
        bytes: WordBytes,
    ) -> impl Iterator<Item = usize> + use<'w, 'a> {
        let text = self.src.text;
        let start = self.search_start(word).unwrap_or(text.len());
        word_offsets_from(text, start, word, bytes)
    }

    /// The CI jobs that judge this file's jobs: its project's (with `extends`, `default:` and
    /// local includes), else its own.
    pub fn ci_jobs(&self) -> &Jobs {
        match self.ci_project {
            Some(ProjectJobs::Whole(jobs)) => jobs,
            Some(ProjectJobs::Around(before, after)) => self.ci_jobs.get_or_init(|| {
                let mut jobs = before.clone();
                jobs.include(Jobs::from_doc(self.yaml()));
                jobs.include(after.clone());
                jobs
            }),
            None => self.ci_jobs.get_or_init(|| Jobs::from_doc(self.yaml())),
        }
    }

    /// The file's YAML keys (templates masked). Parsed once.
    pub fn yaml(&self) -> &Doc {
        self.yaml.get_or_init(|| {
            if self.src.class.templated {
                yaml::parse(&yaml::mask_templates(self.src.text))
            } else {
                yaml::parse(self.src.text)
            }
        })
    }

    /// The `program subcommand` command lines of the file outside comments, parsed once.
    pub fn commands(&self, program: &str, subcommand: &str) -> Rc<Vec<cmdline::Command<'a>>> {
        self.commands.get(
            |(p, s)| p == program && s == subcommand,
            || (program.to_string(), subcommand.to_string()),
            || Rc::new(self.find_commands(program, subcommand, None)),
        )
    }

    /// The commands of [`Self::commands`] whose line may hold one of `flags` (the
    /// [`cmdline::dash_head`]s of the flags looked for; a command whose words may run beyond its
    /// line may hold any). The commands that start their line and hold none of the flags are
    /// passed over without reading their words.
    pub fn flagged_commands(
        &self,
        program: &str,
        subcommand: &str,
        flags: u64,
    ) -> Rc<Vec<cmdline::Command<'a>>> {
        self.flagged.get(
            |(p, s, f)| p == program && s == subcommand && *f == flags,
            || (program.to_string(), subcommand.to_string(), flags),
            || {
                let text = self.src.text.as_bytes();
                let mut found = self.find_commands(program, subcommand, Some(flags));
                // The commands of one line share its end: the line is read once for them.
                let mut witness = cmdline::DashWitness::default();
                found.retain(|c| {
                    c.args_reach().is_none_or(|(from, to)| {
                        witness.holds(text, from, to, |l, i| cmdline::dash_head_at(l, i, flags))
                    })
                });
                Rc::new(found)
            },
        )
    }

    /// The commands of `subcommand` whose program is an expression written right before it,
    /// on a line where one of `signature` follows ([`cmdline::expression_starts`]), outside
    /// comments; found once per file for each subcommand and signature.
    pub fn expression_commands(
        &self,
        subcommand: &str,
        signature: &[String],
    ) -> Rc<Vec<cmdline::Command<'a>>> {
        if signature.is_empty()
            || !self.contains(subcommand)
            || !signature.iter().any(|s| self.contains(s))
        {
            return Rc::default();
        }
        // A key no program has (a NUL in it).
        let key = format!("\0{subcommand}\0{}", signature.join("\0"));
        self.expressions.get(
            |k| *k == key,
            || key.clone(),
            || {
                let yaml = self.commands_in_yaml();
                let starts = cmdline::expression_starts(self.src.text, subcommand, signature);
                let occurrences = cmdline::Occurrences::at_starts(self.src.text, starts, yaml);
                let mut found =
                    cmdline::find_in(self.src.text, &occurrences, subcommand, yaml, None);
                found.retain(|c| !self.src.in_comment(c.program.start));
                Rc::new(found)
            },
        )
    }

    /// The commands of `program subcommand` outside comments ([`cmdline::find_in`]).
    fn find_commands(
        &self,
        program: &str,
        subcommand: &str,
        flags: Option<u64>,
    ) -> Vec<cmdline::Command<'a>> {
        // The subcommand is written wherever a command is (on its line, in a runner image's
        // `command:`, or where a command is stored).
        if !self.contains(subcommand) {
            return Vec::new();
        }
        let occurrences = self.occurrences.get(
            |p| p == program,
            || program.to_string(),
            || {
                Rc::new(cmdline::Occurrences::of(
                    self.src.text,
                    program,
                    self.commands_in_yaml(),
                ))
            },
        );
        let mut found = cmdline::find_in(
            self.src.text,
            &occurrences,
            subcommand,
            self.commands_in_yaml(),
            flags,
        );
        // An example command in a message (Ansible's `debug: msg: |`) is not run.
        let yaml = self.src.class.kind == FileKind::Yaml;
        let text = self.src.text.as_bytes();
        found.retain(|c| {
            !(self.src.in_comment(c.program.start)
                || (yaml && super::yaml::in_message(text, c.program.start)))
        });
        found
    }

    /// The offsets of every occurrence of `needle` in the file, found once per file (the REST
    /// call search asks for the same path segments for many endpoint templates).
    pub fn offsets(&self, needle: &str) -> Rc<[usize]> {
        self.offsets.get(
            |n| n == needle,
            || needle.to_string(),
            || {
                if self.surely_absent(needle) {
                    return Rc::from([]);
                }
                let Some(start) = self.search_start_bounded(needle) else {
                    return Rc::from([]);
                };
                memchr::memmem::find_iter(&self.src.text.as_bytes()[start..], needle.as_bytes())
                    .map(|at| start + at)
                    .collect()
            },
        )
    }

    /// Does `needle` occur in the file? What the prefilter says of its literals is the answer;
    /// another needle is searched for once per file (the search stops at the first
    /// occurrence). (The prefilter is asked first, not the memo: the memo is a list compared
    /// entry by entry, and most needles asked about are the prefilter's literals.)
    pub fn contains(&self, needle: &str) -> bool {
        match self.first.and_then(|f| f.of(needle)) {
            Some(None) => return false,
            Some(Some(_)) if self.first_is_own => return true,
            _ => {}
        }
        self.contains.get(
            |n| n == needle,
            || needle.to_string(),
            || {
                if self.surely_absent(needle) {
                    return false;
                }
                self.search_start_bounded(needle).is_some_and(|start| {
                    memchr::memmem::find(&self.src.text.as_bytes()[start..], needle.as_bytes())
                        .is_some()
                })
            },
        )
    }

    /// The calls in the file whose URL matches an endpoint template ([`rest::calls`]), found
    /// once per template (several detectors ask for the same endpoints).
    pub fn rest_calls(
        &self,
        template: &str,
        api: RestApi,
        prefix: bool,
    ) -> Rc<Vec<rest::Call<'a>>> {
        self.rest_calls.get(
            |(t, a, p)| t == template && *a == api && *p == prefix,
            || (template.to_string(), api, prefix),
            || Rc::new(rest::calls(template, api, prefix, self)),
        )
    }

    /// Does the file show the REST API (the evidence of `shows: rest-api`: its base spelled out,
    /// its token's header, or in code the Ruby gem's client class)? Read once.
    pub fn shows_rest_api_base(&self) -> bool {
        *self.rest_api_base.get_or_init(|| {
            let kind = self.src.class.kind;
            self.evidence()
                .rest_api()
                .any(|(m, kinds)| kinds.contains(kind) && self.contains(m))
        })
    }

    /// The GraphQL documents of the file (the file itself, or documents embedded in code).
    pub fn graphql(&self) -> &[graphql_docs::Doc] {
        self.graphql.get_or_init(|| graphql_docs::documents(self))
    }

    /// Where the file's GraphQL documents may be ([`graphql_docs::document_regions`]): every
    /// document of [`Self::graphql`] lies in one of these parts (none: there is no document).
    pub fn graphql_regions(&self) -> &[(usize, usize)] {
        self.graphql_regions
            .get_or_init(|| graphql_docs::document_regions(self))
    }

    /// The GraphQL documents, if a detector has asked for them already.
    pub fn graphql_made(&self) -> Option<&[graphql_docs::Doc]> {
        self.graphql.get().map(Vec::as_slice)
    }

    /// The fields of [`Self::graphql_types`], if a detector has asked for them already.
    pub fn graphql_types_made(&self) -> Option<&[super::graphql_types::TypeField]> {
        self.graphql_types.get().map(Vec::as_slice)
    }

    /// The fields of the type definitions of a generated GraphQL client in the file (code only).
    pub fn graphql_types(&self) -> &[super::graphql_types::TypeField] {
        self.graphql_types.get_or_init(|| {
            if self.src.class.kind == FileKind::Code
                && !self.contains(super::graphql_types::WHOLE_SCHEMA)
            {
                super::graphql_types::type_fields(self.src.text)
            } else {
                Vec::new()
            }
        })
    }

    /// The SDKs the file imports and the kinds of its local names. Read once.
    pub fn sdk(&self) -> &SdkFile {
        self.sdk.get_or_init(|| sdk::analyse(self.src.text))
    }

    /// The `_create_attrs` and `_update_attrs` of the file's python-gitlab manager classes,
    /// read once ([`sdk_declarations::read`]).
    pub fn manager_declarations(&self) -> &[sdk_declarations::ManagerDeclaration<'a>] {
        self.manager_declarations
            .get_or_init(|| sdk_declarations::read(self))
    }

    /// The Go struct or TypeScript type whose body holds `at` ([`sdk::enclosing_type_in`]); the
    /// lines that bound the types are read once.
    pub fn enclosing_type(&self, at: usize) -> Option<&'a str> {
        let boundaries = self
            .type_boundaries
            .get_or_init(|| sdk::boundary_lines(self.src.text));
        sdk::enclosing_type_in(self.src.text, boundaries, at)
    }

    /// The JSON objects of the file (`{` and `}` offsets, sorted by start). Read once.
    pub fn json_objects(&self) -> &[(usize, usize)] {
        self.json_objects
            .get_or_init(|| sdk::json_objects(self.src.text))
    }

    /// Parse errors of the GraphQL documents that were parsed (those holding a name a
    /// detector looked for).
    pub fn graphql_errors(&self) -> Vec<(usize, String)> {
        self.graphql
            .get()
            .map(|docs| {
                docs.iter()
                    .filter_map(|d| d.parsed_so_far()?.error.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Parse errors of all the GraphQL documents of the file (each parsed now if it was not).
    pub fn all_graphql_errors(&self) -> Vec<(usize, String)> {
        self.graphql()
            .iter()
            .filter_map(|d| d.parsed(self.src.text).error.clone())
            .collect()
    }

    /// The YAML parse error, if the file is YAML and did not parse.
    pub fn yaml_error(&self) -> Option<&(usize, String)> {
        self.yaml.get().and_then(|d| d.error.as_ref())
    }

    pub fn is_yaml(&self) -> bool {
        is_yaml_kind(self.src.class.kind)
    }

    /// Are the file's command lines read as YAML scalars (a command folded over the lines of
    /// `name: >-`, an exec-form list)? In YAML files, and in the YAML files that are read as
    /// templates of commands: Salt states (`.sls`), templates of YAML files
    /// (`compose.yml.j2`, `runner.yaml.tftpl`) and cloud-init's `#cloud-config`.
    fn commands_in_yaml(&self) -> bool {
        self.is_yaml() || yaml_underneath(self.src.path, self.src.text)
    }
}

/// A file whose text is YAML under a template or a configuration role: a Salt state, a
/// template of a YAML file, cloud-init's `#cloud-config` user data.
fn yaml_underneath(path: &str, text: &str) -> bool {
    const TEMPLATES: [&str; 6] = [".j2", ".jinja2", ".jinja", ".tftpl", ".tmpl", ".tpl"];
    let ends = |s: &[u8], suffix: &str| {
        s.len() >= suffix.len()
            && s[s.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
    };
    let name = path.as_bytes();
    let base = TEMPLATES
        .iter()
        .find(|t| ends(name, t))
        .map_or(name, |t| &name[..name.len() - t.len()]);
    [".sls", ".yml", ".yaml"].iter().any(|e| ends(base, e)) || text.starts_with("#cloud-config")
}

pub fn is_yaml_kind(kind: FileKind) -> bool {
    matches!(
        kind,
        FileKind::Ci
            | FileKind::Helm
            | FileKind::Yaml
            | FileKind::DatabaseConfig
            | FileKind::SecurityPolicy
    ) || kind == FileKind::Monitoring
}

/// Where the line that holds `at` starts. Most places asked about are at or near the start of
/// their line: the bytes just before are looked at one by one first, which costs less than
/// setting up a vector search.
pub fn line_start(b: &[u8], at: usize) -> usize {
    let near = at.saturating_sub(16);
    match b[near..at].iter().rposition(|&c| c == b'\n') {
        Some(i) => near + i + 1,
        None => memchr::memrchr(b'\n', &b[..near]).map_or(0, |i| i + 1),
    }
}

/// Where the line that holds `at` starts, or `reach` bytes before `at` on a longer line: what a
/// check of the text before a place on its line reads, so that a line of thousands of places
/// is not read back to its start for each.
pub fn line_start_within(b: &[u8], at: usize, reach: usize) -> usize {
    let mut floor = at.saturating_sub(reach);
    // On a character's first byte (the text is UTF-8: a line's start always is).
    while floor < at && b[floor] & 0xC0 == 0x80 {
        floor += 1;
    }
    memchr::memrchr(b'\n', &b[floor..at]).map_or(floor, |i| floor + i + 1)
}

/// The run of bytes `is_part` accepts around `at` (`at..at` when it accepts neither `b[at]` nor
/// the byte before).
pub fn run_around(b: &[u8], at: usize, is_part: impl Fn(u8) -> bool) -> (usize, usize) {
    let mut start = at;
    while start > 0 && is_part(b[start - 1]) {
        start -= 1;
    }
    let mut end = at;
    while end < b.len() && is_part(b[end]) {
        end += 1;
    }
    (start, end)
}

/// Offsets of `word` in `text` where it stands alone: not preceded or followed by a byte of
/// `bytes`.
pub fn word_offsets<'t>(
    text: &'t str,
    word: &'t str,
    bytes: WordBytes,
) -> impl Iterator<Item = usize> + 't {
    word_offsets_from(text, 0, word, bytes)
}

/// [`word_offsets`] at or after `start`.
fn word_offsets_from<'t, 'w>(
    text: &'t str,
    start: usize,
    word: &'w str,
    bytes: WordBytes,
) -> impl Iterator<Item = usize> + use<'t, 'w> {
    super::words::standalone(text.as_bytes(), start, word.as_bytes(), bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::classify::classify;

    const TEXT: &str = "RUNNER=1 echo $RUNNER_TOKEN\nexport RUNNER; echo RUNNER\n";

    /// "RUNNER" first at 0, "ABSENT" nowhere (as the prefilter would say of this text).
    fn first_offsets<'s>(index: &'s LiteralIndex, first: &'s [usize]) -> FirstOffsets<'s> {
        FirstOffsets {
            index,
            first,
            surely_absent: &|_| false,
        }
    }

    /// Every literal is found with its number, and nothing else is: not a part of one, not one
    /// with a byte more, not the empty text (over tables crowded enough for slots to collide).
    #[test]
    fn a_literal_index_finds_its_literals_only() {
        for n in [0, 1, 2, 7, 8, 9, 150, 300] {
            let lits: Vec<String> = (0..n)
                .map(|i| format!("lit{:03}", i * 7919 % 1000))
                .collect();
            let index = LiteralIndex::new(
                lits.iter()
                    .enumerate()
                    .map(|(i, l)| (Box::from(l.as_str()), 1000 + i))
                    .collect(),
            );
            for (i, l) in lits.iter().enumerate() {
                assert_eq!(index.get(l), Some(1000 + i), "{l}");
                assert_eq!(index.get(&l[..l.len() - 1]), None, "{l}");
                assert_eq!(index.get(&format!("{l}x")), None, "{l}");
            }
            assert_eq!(index.get(""), None);
            assert_eq!(index.get("lit1000"), None);
            assert_eq!(index.entries().len(), n);
        }
    }

    #[test]
    fn searches_start_where_the_prefilter_first_found_a_literal() {
        let src = Source::new("run.sh", TEXT, classify("run.sh").unwrap());
        let index = LiteralIndex::new(vec![(Box::from("ABSENT"), 1), (Box::from("RUNNER"), 0)]);
        let plain = FileCtx::new(&src);
        let expected: Vec<usize> = word_offsets(TEXT, "RUNNER", WordBytes::Ident).collect();
        assert_eq!(expected, [0, 35, 48]);

        // The true first offset: the same results as a search of the whole text.
        let first = [0, usize::MAX];
        let ctx = FileCtx::new(&src).with_first_offsets(first_offsets(&index, &first), true);
        let found: Vec<usize> = ctx.word_offsets("RUNNER", WordBytes::Ident).collect();
        assert_eq!(found, expected);
        assert_eq!(&*ctx.offsets("RUNNER"), &*plain.offsets("RUNNER"));
        assert!(ctx.contains("RUNNER") && plain.contains("RUNNER"));
        // A literal the prefilter did not look for is searched for.
        assert!(ctx.contains("export") && !ctx.contains("import"));
        assert_eq!(ctx.search_start("export"), Some(0));

        // A later first offset: the search starts there (what comes before is not read).
        let first = [35, usize::MAX];
        let ctx = FileCtx::new(&src).with_first_offsets(first_offsets(&index, &first), true);
        let found: Vec<usize> = ctx.word_offsets("RUNNER", WordBytes::Ident).collect();
        assert_eq!(found, [35, 48]);
        assert_eq!(&*ctx.offsets("RUNNER"), &[35, 48]);

        // A needle that is a literal after its first byte: searched for from one byte before
        // the literal, or not at all.
        assert_eq!(ctx.search_start_bounded("$RUNNER"), Some(34));
        assert_eq!(&*ctx.offsets(" RUNNER"), &[34, 47]);
        assert_eq!(ctx.search_start_bounded("$RUNNER_TOKEN"), Some(0));
        assert!(!ctx.contains("!ABSENT"));
        assert_eq!(ctx.search_start_bounded(" ABSENT"), None);

        // Absent: no search at all.
        assert_eq!(ctx.search_start("ABSENT"), None);
        assert!(!ctx.contains("ABSENT"));
        assert_eq!(ctx.word_offsets("ABSENT", WordBytes::Ident).count(), 0);
    }

    #[test]
    fn a_regions_copy_ends_before_a_literal_the_file_has_later() {
        // The copy of a region ends with the region's line; the file holds `RUNNER` first past
        // it (in a later region): not in this text, and no search reads past its end.
        let copy = &TEXT[..20];
        let src = Source::new("run.sh", copy, classify("run.sh").unwrap());
        let index = LiteralIndex::new(vec![(Box::from("ABSENT"), 1), (Box::from("RUNNER"), 0)]);
        let first = [35, usize::MAX];
        let ctx = FileCtx::new(&src).with_first_offsets(first_offsets(&index, &first), false);
        assert_eq!(ctx.search_start("RUNNER"), None);
        assert_eq!(ctx.search_start_bounded("$RUNNER"), None);
        assert!(!ctx.contains("RUNNER") && !ctx.contains("$RUNNER"));
        assert_eq!(ctx.word_offsets("RUNNER", WordBytes::Ident).count(), 0);
    }

    #[test]
    fn line_starts_near_and_far() {
        let text = format!("a\nbc\n{}x\n", "y".repeat(40));
        let b = text.as_bytes();
        for at in 0..=b.len() {
            let expected = b[..at]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |i| i + 1);
            assert_eq!(line_start(b, at), expected, "{at}");
        }
    }

    #[test]
    fn a_region_is_searched_for_what_the_whole_file_holds() {
        // A region: the file's text blank outside the region (here, outside the second line).
        let region = format!("{}{}", " ".repeat(28), &TEXT[28..]);
        let src = Source::new("run.sh", &region, classify("run.sh").unwrap());
        let index = LiteralIndex::new(vec![
            (Box::from("TOKEN"), 2),
            (Box::from("ABSENT"), 1),
            (Box::from("RUNNER"), 0),
        ]);
        let first = [0, usize::MAX, 22];
        let ctx = FileCtx::new(&src).with_first_offsets(first_offsets(&index, &first), false);
        // In the file, not in the region: the region's own text decides.
        assert!(!ctx.contains("TOKEN"));
        assert!(ctx.contains("RUNNER"));
        assert!(!ctx.contains("ABSENT"));
        let found: Vec<usize> = ctx.word_offsets("RUNNER", WordBytes::Ident).collect();
        assert_eq!(found, [35, 48]);
    }
}
