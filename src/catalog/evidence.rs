//! Evidence: the words that show which system a file's names belong to (`evidence:` in a data
//! file; the embedded ones are `data/evidence.yml`). A name that other systems also use counts
//! only where the file shows the platform's object is meant; what shows it is data, like the
//! names themselves.

use std::sync::{Arc, OnceLock};

use crate::patterns::seen_in::SeenIn;
use crate::syntax::classify::KindSet;

/// What a group of markers shows about a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shows {
    /// The file's paths are the platform's REST API.
    RestApi,
    /// The file names the platform.
    Platform,
    /// The file names another platform whose objects have fields of the same names.
    OtherPlatform,
    /// The file's GraphQL documents are the platform's API (they select its objects by
    /// `fullPath`).
    GraphqlApi,
}

impl Shows {
    pub const ALL: [Shows; 4] = [
        Shows::RestApi,
        Shows::Platform,
        Shows::OtherPlatform,
        Shows::GraphqlApi,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Shows::RestApi => "rest-api",
            Shows::Platform => "platform",
            Shows::OtherPlatform => "other-platform",
            Shows::GraphqlApi => "graphql-api",
        }
    }

    pub fn parse(s: &str) -> Option<Shows> {
        Shows::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// One word of evidence, as a data file gives it.
#[derive(Clone, Debug)]
pub struct Marker {
    pub shows: Shows,
    pub text: String,
    /// The kinds of file in which the word shows it (all, unless the data names some).
    pub kinds: KindSet,
    pub seen_in: Arc<[SeenIn]>,
}

/// Every marker of the loaded data, by what it shows.
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    markers: Vec<Marker>,
    platform: Vec<String>,
    other_platform: Vec<String>,
}

impl Evidence {
    pub fn new(markers: Vec<Marker>) -> Evidence {
        let texts = |shows| {
            markers
                .iter()
                .filter(|m| m.shows == shows)
                .map(|m| m.text.clone())
                .collect()
        };
        Evidence {
            platform: texts(Shows::Platform),
            other_platform: texts(Shows::OtherPlatform),
            markers,
        }
    }

    /// The evidence of the embedded data alone (`data/evidence.yml`), read once: for code that
    /// reads a file without a scanner (tests, the fixer's own reading).
    pub fn embedded() -> &'static Evidence {
        static EMBEDDED: OnceLock<Evidence> = OnceLock::new();
        EMBEDDED.get_or_init(|| {
            // Its compiled JSON alone, as the embedded catalog loads it.
            let others: std::collections::BTreeSet<&str> = super::EMBEDDED
                .iter()
                .map(|(n, ..)| *n)
                .filter(|n| *n != "evidence.yml")
                .collect();
            super::embedded_loader_without(&others)
                .finish()
                .map(|c| Evidence::clone(c.evidence()))
                .unwrap_or_default()
        })
    }

    pub fn markers(&self) -> &[Marker] {
        &self.markers
    }

    /// The words that show a file's paths are the REST API, with the kinds of file where they do.
    pub fn rest_api(&self) -> impl Iterator<Item = (&str, KindSet)> {
        self.markers
            .iter()
            .filter(|m| m.shows == Shows::RestApi)
            .map(|m| (m.text.as_str(), m.kinds))
    }

    /// The words that name the platform.
    pub fn platform(&self) -> &[String] {
        &self.platform
    }

    /// The words that name another platform.
    pub fn other_platform(&self) -> &[String] {
        &self.other_platform
    }

    /// The words that show this.
    pub fn words(&self, shows: Shows) -> impl Iterator<Item = &str> {
        self.markers
            .iter()
            .filter(move |m| m.shows == shows)
            .map(|m| m.text.as_str())
    }
}
