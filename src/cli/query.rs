//! `uplint query`, `uplint explain`, `uplint versions` and `uplint data check`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::args::{ExplainArgs, ExplainFormat, QueryArgs, QueryFormat, VersionsArgs};
use super::{Failure, Outcome, Usage, print};
use uplint::catalog::error::nearest;
use uplint::catalog::query::Filter;
use uplint::catalog::{Catalog, Surface};
use uplint::render::catalog as render;
use uplint::version::Milestone;

fn milestone(cat: &Catalog, flag: &'static str, s: &str) -> Result<Milestone, Failure> {
    if s.starts_with(['v', 'V']) {
        return s.parse::<Milestone>().map_err(|_| {
            Failure::from(Usage::ApiVersion {
                flag,
                value: s.to_string(),
            })
        });
    }
    Ok(Milestone::Service(cat.parse_cli_version(flag, s)?))
}

pub fn query(cat: &Catalog, a: &QueryArgs) -> Outcome {
    let mut f = Filter {
        breaking: a.breaking,
        search: a.search.clone(),
        api_v5: a.api.as_deref() == Some("v5"),
        ..Filter::default()
    };
    if let Some(s) = &a.removed_in {
        f.removed_in = Some(milestone(cat, "--removed-in", s)?);
    }
    for (flag, val, slot) in [("--from", &a.from, &mut f.from), ("--to", &a.to, &mut f.to)] {
        if let Some(s) = val {
            *slot = Some(cat.parse_cli_version(flag, s)?);
            super::warn_past_data(cat, flag, *slot);
        }
    }
    if let (Some(from), Some(to)) = (f.from, f.to)
        && from > to
    {
        return Err(Usage::EmptyWindow { from, to }.into());
    }
    if f.removed_in.is_some() && (f.from.is_some() || f.to.is_some()) {
        return Err(Usage::RemovedInWithWindow.into());
    }
    for s in &a.surface {
        match Surface::parse(s) {
            Some(x) => f.surfaces.push(x),
            None => {
                let all: Vec<&str> = Surface::ALL.iter().map(|x| x.as_str()).collect();
                return Err(Usage::UnknownSurface(s.clone(), all.join(", ")).into());
            }
        }
    }
    let selected = f.apply(cat.entries());
    if selected.is_empty()
        && let Some(term) = &a.search
    {
        suggest(cat, term);
    }
    if a.literals {
        let mut lits: Vec<String> = selected
            .iter()
            .flat_map(|e| e.patterns.iter().map(|p| p.anchor()))
            .collect();
        lits.sort();
        lits.dedup();
        print(&(lits.join("\n") + "\n"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let out = match a.format {
        QueryFormat::Human => render::table(&selected),
        QueryFormat::Json => render::json(&selected),
        QueryFormat::Yaml => render::yaml(&selected),
        QueryFormat::Markdown => render::markdown(&selected),
        QueryFormat::Csv => render::csv(&selected),
    };
    print(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// A search that found nothing: the nearest entry id and written form, said on standard error
/// (standard output keeps the empty answer in the format asked for).
fn suggest(cat: &Catalog, term: &str) {
    let ids = cat.entries().iter().map(|e| e.id.as_str());
    let anchors: Vec<String> = cat
        .entries()
        .iter()
        .flat_map(|e| e.patterns.iter().map(|p| p.anchor()))
        .collect();
    let guesses: Vec<String> = [
        nearest(term, ids),
        nearest(term, anchors.iter().map(String::as_str)),
    ]
    .into_iter()
    .flatten()
    .map(|g| format!("`{g}`"))
    .collect();
    if !guesses.is_empty() {
        eprintln!(
            "uplint: no entry matches `{term}`; did you mean {}?",
            guesses.join(" or ")
        );
    }
}

pub fn explain(cat: &Catalog, a: &ExplainArgs) -> Outcome {
    let found: Vec<_> = match cat.get(&a.target) {
        Some(e) => vec![e],
        None => cat.find_by_written_form(&a.target),
    };
    if found.is_empty() {
        return Err(Usage::NoEntry(a.target.clone()).into());
    }
    let out = match a.format {
        ExplainFormat::Human => found
            .iter()
            .map(|e| render::explain(e))
            .collect::<Vec<_>>()
            .join("\n"),
        ExplainFormat::Json => render::json(&found),
    };
    print(&out)?;
    Ok(ExitCode::SUCCESS)
}

pub fn versions(cat: &Catalog, a: &VersionsArgs) -> Outcome {
    let rows = render::version_rows(cat.entries());
    let out = match a.format {
        ExplainFormat::Human => render::versions_table(&rows),
        ExplainFormat::Json => serde_json::to_string_pretty(&rows).expect("rows serialize") + "\n",
    };
    print(&out)?;
    Ok(ExitCode::SUCCESS)
}

pub fn data_check(files: &[PathBuf]) -> Outcome {
    let (n, markers) = Catalog::check_files(files)?;
    let evidence = match markers {
        0 => String::new(),
        1 => " and 1 evidence marker".to_string(),
        m => format!(" and {m} evidence markers"),
    };
    eprintln!(
        "ok: {n} entr{}{evidence} in {} path{} valid",
        if n == 1 { "y" } else { "ies" },
        files.len(),
        if files.len() == 1 { "" } else { "s" }
    );
    Ok(ExitCode::SUCCESS)
}
