//! The timeline: per version, what is introduced, removed, and how much of it is breaking.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::catalog::Entry;
use crate::version::Milestone;

#[derive(Debug, Serialize)]
pub struct VersionRow {
    pub version: String,
    pub introduced: usize,
    pub removed: usize,
    pub breaking: usize,
    pub detectable: usize,
}

pub fn rows(entries: &[Entry]) -> Vec<VersionRow> {
    let mut map: BTreeMap<Milestone, VersionRow> = BTreeMap::new();
    fn row(map: &mut BTreeMap<Milestone, VersionRow>, m: Milestone) -> &mut VersionRow {
        map.entry(m).or_insert_with(|| VersionRow {
            version: m.to_string(),
            introduced: 0,
            removed: 0,
            breaking: 0,
            detectable: 0,
        })
    }
    for e in entries {
        if let Some(v) = e.introduced_in {
            row(&mut map, Milestone::Service(v)).introduced += 1;
        }
        if let Some(m) = e.removed_in {
            let r = row(&mut map, m);
            r.removed += 1;
            r.breaking += usize::from(e.is_breaking());
            r.detectable += usize::from(e.detectable);
        }
    }
    map.into_values().collect()
}

pub fn table(rows: &[VersionRow]) -> String {
    let mut out = format!(
        "{:<8}  {:>10}  {:>7}  {:>8}  {:>10}\n",
        "VERSION", "INTRODUCED", "REMOVED", "BREAKING", "DETECTABLE"
    );
    for r in rows {
        out.push_str(&format!(
            "{:<8}  {:>10}  {:>7}  {:>8}  {:>10}\n",
            r.version, r.introduced, r.removed, r.breaking, r.detectable
        ));
    }
    out.push_str(
        "\nBREAKING counts the entries the schedule labels breaking; every removal breaks what \
         uses it.\n",
    );
    out
}
