//! The upgrade audit as one self-contained HTML file: no network, no external assets. A
//! timeline of the version window, counts per status and per surface, findings per version and
//! per file with the source line, the replacement and the breaking flag, and filters by
//! version, surface and severity that run in the page.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::{Context, escape_xml as esc, escape_xml_attr as attr};
use crate::render::text::escape_line as line;
use crate::scan::{Finding, Report, Status};
use crate::version::Milestone;

const STYLE: &str = r#"
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg:#f6f8fa; --err:#cf222e; --warn:#9a6700; --info:#0969da; --ok:#1a7f37; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color:var(--fg); background:#fff; }
header { padding:24px 32px 16px; border-bottom:1px solid var(--line); background:var(--bg); }
h1 { margin:0 0 4px; font-size:22px; }
h2 { font-size:17px; margin:28px 0 10px; }
h3 { font-size:15px; margin:18px 0 6px; font-family:ui-monospace, SFMono-Regular, Menlo, monospace; }
main { padding:0 32px 48px; max-width:1280px; }
.muted { color:var(--muted); }
.cards { display:flex; gap:12px; flex-wrap:wrap; margin-top:16px; }
.card { border:1px solid var(--line); border-radius:8px; padding:10px 16px; min-width:130px; background:#fff; }
.card b { display:block; font-size:24px; }
.card.removed b { color:var(--err); } .card.deprecated b { color:var(--warn); } .card.behaviour b { color:var(--info); }
.timeline { position:relative; display:flex; justify-content:space-between; margin:22px 8px 8px; padding-top:18px; }
.timeline::before { content:""; position:absolute; left:0; right:0; top:27px; height:3px; background:var(--line); }
.tick { position:relative; text-align:center; flex:1; }
.tick .dot { width:20px; height:20px; border-radius:50%; margin:0 auto 6px; background:#fff; border:3px solid var(--line); position:relative; }
.tick.window .dot { border-color:var(--info); }
.tick.hit .dot { background:var(--err); border-color:var(--err); }
.tick.hit.later .dot { background:var(--warn); border-color:var(--warn); }
.tick.current .label::after { content:" (now)"; color:var(--muted); }
.tick.target .label { font-weight:700; }
.tick .count { font-size:12px; color:var(--muted); }
.surfaces { display:grid; grid-template-columns:140px 1fr 40px; gap:4px 10px; align-items:center; max-width:560px; }
.bar { height:10px; border-radius:5px; background:var(--info); }
.filters { display:flex; gap:14px; flex-wrap:wrap; align-items:center; padding:12px 14px; border:1px solid var(--line); border-radius:8px; background:var(--bg); position:sticky; top:0; z-index:1; }
.filters label { display:flex; gap:6px; align-items:center; }
select, input[type=search] { font:inherit; padding:3px 6px; border:1px solid var(--line); border-radius:6px; background:#fff; }
table { width:100%; border-collapse:collapse; margin:4px 0 10px; table-layout:fixed; }
col.c-line { width:70px; } col.c-repl { width:32%; }
th, td { text-align:left; padding:6px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
th { font-size:12px; color:var(--muted); font-weight:600; }
td.line { width:60px; font-family:ui-monospace, monospace; color:var(--muted); }
code, pre { font-family:ui-monospace, SFMono-Regular, Menlo, monospace; font-size:12.5px; }
pre { margin:4px 0 0; padding:6px 8px; background:var(--bg); border-radius:6px; white-space:pre-wrap; word-break:break-all; }
mark { background:#ffebe9; color:var(--err); border-radius:3px; }
.sev { display:inline-block; padding:0 8px; border-radius:10px; font-size:12px; font-weight:600; color:#fff; }
.sev.error { background:var(--err); } .sev.warning { background:var(--warn); } .sev.info { background:var(--info); }
.breaking { display:inline-block; margin-left:6px; padding:0 6px; border:1px solid var(--err); color:var(--err); border-radius:10px; font-size:11px; }
.version { border-top:2px solid var(--line); margin-top:20px; }
.empty { padding:20px; text-align:center; color:var(--ok); font-weight:600; }
.hidden { display:none; }
"#;

const SCRIPT: &str = r#"
(function () {
  var v = document.getElementById('f-version'), s = document.getElementById('f-surface'),
      q = document.getElementById('f-text'), sev = document.querySelectorAll('.f-sev');
  function apply() {
    var on = {};
    sev.forEach(function (c) { on[c.value] = c.checked; });
    var text = q.value.toLowerCase(), shown = 0;
    document.querySelectorAll('tr.finding').forEach(function (r) {
      var ok = (!v.value || r.dataset.version === v.value) && (!s.value || r.dataset.surface === s.value)
        && on[r.dataset.severity] && (!text || r.textContent.toLowerCase().indexOf(text) >= 0);
      r.classList.toggle('hidden', !ok);
      if (ok) shown++;
    });
    document.querySelectorAll('.file').forEach(function (f) {
      f.classList.toggle('hidden', !f.querySelector('tr.finding:not(.hidden)'));
    });
    document.querySelectorAll('.version').forEach(function (g) {
      g.classList.toggle('hidden', !g.querySelector('tr.finding:not(.hidden)'));
    });
    document.getElementById('shown').textContent = shown;
  }
  [v, s, q].forEach(function (e) { e.addEventListener('input', apply); });
  sev.forEach(function (c) { c.addEventListener('change', apply); });
  // Initial filters from the address: #version=17.0&surface=ci&severity=error,warning&text=jwt
  location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
    var p = kv.split('='), val = decodeURIComponent(p[1] || '');
    if (p[0] === 'version') v.value = val;
    if (p[0] === 'surface') s.value = val;
    if (p[0] === 'text') q.value = val;
    if (p[0] === 'severity') sev.forEach(function (c) { c.checked = val.split(',').indexOf(c.value) >= 0; });
  });
  apply();
})();
"#;

/// The source line with the match marked.
fn marked_line(f: &Finding) -> String {
    let chars: Vec<char> = f.source_line.chars().collect();
    let (a, b) = super::display_columns(f);
    let start = (a - 1).min(chars.len());
    let end = (b - 1).clamp(start, chars.len());
    let part = |a: usize, b: usize| esc(&chars[a..b].iter().collect::<String>());
    format!(
        "{}<mark>{}</mark>{}",
        part(0, start),
        part(start, end),
        part(end, chars.len())
    )
}

fn status_label(s: Status) -> &'static str {
    match s {
        Status::Removed => "removed",
        Status::Deprecated => "deprecated",
        Status::BehaviourChange => "behaviour change",
        Status::UnusedSuppression => "unused suppression",
        Status::Unavailable => "unavailable",
        Status::InvalidCall => "invalid call",
    }
}

/// Findings per removal version (`None`: uplint's own findings).
type PerVersion = BTreeMap<(bool, Option<Milestone>), usize>;

pub fn write(report: &Report, ctx: &Context, h: &mut dyn Write) -> io::Result<()> {
    let window = match &ctx.current {
        Some(c) => format!("{c} → {}", ctx.target),
        None => format!("target {}", ctx.target),
    };
    h.write_all(b"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")?;
    h.write_all(b"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")?;
    h.write_all(b"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n")?;
    write!(
        h,
        "<title>uplint upgrade audit: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(&window)
    )?;
    header(report, ctx, &window, h)?;
    // The findings in tests are summarised per file after the others (unless shown in full).
    let shown = |f: &&Finding| ctx.tests_in_full || !f.context.is_test();
    let mut per_version = PerVersion::new();
    for f in report.findings.iter().filter(shown) {
        *per_version.entry(version_key(f.removed_in)).or_default() += 1;
    }
    timeline(ctx, &per_version, h)?;
    let mut per_surface: BTreeMap<&str, usize> = BTreeMap::new();
    for f in report.findings.iter().filter(shown) {
        *per_surface.entry(f.surface_name()).or_default() += 1;
    }
    surfaces(&per_surface, h)?;
    filters(report, &per_version, &per_surface, h)?;
    if report.findings.is_empty() {
        h.write_all(b"<div class=\"empty\">No deprecated or removed items found.</div>\n")?;
    }
    for (version, findings) in super::by_version(report) {
        let findings: Vec<&Finding> = findings.into_iter().filter(shown).collect();
        if !findings.is_empty() {
            version_section(version, &findings, h)?;
        }
    }
    if !ctx.tests_in_full {
        tests_section(report, h)?;
    }
    h.write_all(super::projects::html_sections(report, ctx).as_bytes())?;
    problems(report, h)?;
    write!(h, "</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n")
}

pub fn render(report: &Report, ctx: &Context) -> String {
    super::to_string(|out| write(report, ctx, out))
}

/// Timeline order: service versions, then `v5`, then none.
fn version_key(v: Option<Milestone>) -> (bool, Option<Milestone>) {
    (v.is_none(), v)
}

/// A version as the page's filters name it (`""`: none).
fn version_value(v: Option<Milestone>) -> String {
    v.map(|m| m.to_string()).unwrap_or_default()
}

/// The title and the cards of counts.
fn header(report: &Report, ctx: &Context, window: &str, h: &mut dyn Write) -> io::Result<()> {
    let s = &report.summary;
    h.write_all(b"<header>\n")?;
    writeln!(h, "<h1>Upgrade audit: {}</h1>", esc(window))?;
    writeln!(
        h,
        "<div class=\"muted\">uplint {} · {} files scanned{}</div>",
        super::TOOL_VERSION,
        s.files_scanned,
        if ctx.api_v5 {
            " · REST API v5 removals count as removed"
        } else {
            ""
        }
    )?;
    h.write_all(b"<div class=\"cards\">\n")?;
    for (class, label, n) in [
        ("removed", "removed", s.removed),
        ("deprecated", "deprecated", s.deprecated),
        ("behaviour", "behaviour changes", s.behaviour_change),
        ("", "suppressed", s.suppressed),
        ("", "problems", s.errors),
    ] {
        writeln!(h, "<div class=\"card {class}\"><b>{n}</b>{label}</div>")?;
    }
    h.write_all(b"</div>\n</header>\n<main>\n")?;
    h.write_all(super::projects::html_table(ctx).as_bytes())
}

/// Every version of the data, the window highlighted, counts of findings.
fn timeline(ctx: &Context, per_version: &PerVersion, h: &mut dyn Write) -> io::Result<()> {
    let target = Milestone::Service(ctx.target);
    let current = ctx.current.map(Milestone::Service);
    h.write_all(b"<h2>Timeline</h2>\n<div class=\"timeline\">\n")?;
    for &v in &ctx.versions {
        let in_window = current.is_none_or(|c| v > c) && v <= target;
        let n = per_version.get(&version_key(Some(v))).copied().unwrap_or(0);
        let mut classes = vec!["tick"];
        if in_window {
            classes.push("window");
        }
        if n > 0 {
            classes.push("hit");
            if v > target {
                classes.push("later");
            }
        }
        if current == Some(v) {
            classes.push("current");
        }
        if v == target {
            classes.push("target");
        }
        writeln!(
            h,
            "<div class=\"{}\"><div class=\"dot\"></div><div class=\"label\">{}</div><div class=\"count\">{}</div></div>",
            classes.join(" "),
            esc(&v.to_string()),
            if n > 0 {
                format!("{n} finding{}", if n == 1 { "" } else { "s" })
            } else {
                String::new()
            }
        )?;
    }
    h.write_all(b"</div>\n")
}

fn surfaces(per_surface: &BTreeMap<&str, usize>, h: &mut dyn Write) -> io::Result<()> {
    if per_surface.is_empty() {
        return Ok(());
    }
    let max = per_surface.values().copied().max().unwrap_or(1);
    h.write_all(b"<h2>By surface</h2>\n<div class=\"surfaces\">\n")?;
    for (surface, n) in per_surface {
        writeln!(
            h,
            "<div>{}</div><div><div class=\"bar\" style=\"width:{}%\"></div></div><div>{n}</div>",
            esc(surface),
            (n * 100 / max).max(2)
        )?;
    }
    h.write_all(b"</div>\n")
}

fn filters(
    report: &Report,
    per_version: &PerVersion,
    per_surface: &BTreeMap<&str, usize>,
    h: &mut dyn Write,
) -> io::Result<()> {
    h.write_all(b"<h2>Findings</h2>\n<div class=\"filters\">\n<label>Version <select id=\"f-version\"><option value=\"\">all</option>")?;
    for &(_, v) in per_version.keys() {
        let value = version_value(v);
        let label = if v.is_none() { "uplint" } else { &value };
        write!(
            h,
            "<option value=\"{}\">{}</option>",
            attr(&value),
            esc(label)
        )?;
    }
    h.write_all(b"</select></label>\n<label>Surface <select id=\"f-surface\"><option value=\"\">all</option>")?;
    for surface in per_surface.keys() {
        write!(h, "<option>{}</option>", esc(surface))?;
    }
    h.write_all(b"</select></label>\n")?;
    for sev in ["error", "warning", "info"] {
        writeln!(
            h,
            "<label><input type=\"checkbox\" class=\"f-sev\" value=\"{sev}\" checked> {sev}</label>"
        )?;
    }
    h.write_all(
        b"<label><input type=\"search\" id=\"f-text\" placeholder=\"filter text\"></label>\n",
    )?;
    writeln!(
        h,
        "<span class=\"muted\"><span id=\"shown\">{}</span> shown</span>\n</div>",
        report.findings.len()
    )
}

/// The findings of one removal version, per file.
fn version_section(
    version: Option<Milestone>,
    findings: &[&Finding],
    h: &mut dyn Write,
) -> io::Result<()> {
    let mut files: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
    for f in findings {
        files.entry(&f.path).or_default().push(f);
    }
    let title = match version {
        Some(Milestone::Api(v)) => format!("Removed in REST API {v}"),
        Some(v) => format!("Removed in {v}"),
        None => "uplint".to_string(),
    };
    let version = version_value(version);
    let n: usize = files.values().map(Vec::len).sum();
    writeln!(
        h,
        "<section class=\"version\"><h2>{} <span class=\"muted\">({n})</span></h2>",
        esc(&title)
    )?;
    for (path, findings) in &files {
        writeln!(
            h,
            "<div class=\"file\"><h3>{}</h3>\n<table>\n<colgroup><col class=\"c-line\"><col><col class=\"c-repl\"></colgroup>\n<tr><th>line</th><th>finding</th><th>replacement</th></tr>",
            esc(&line(path))
        )?;
        for f in findings {
            finding_row(f, &version, h)?;
        }
        h.write_all(b"</table></div>\n")?;
    }
    h.write_all(b"</section>\n")
}

fn finding_row(f: &Finding, version: &str, h: &mut dyn Write) -> io::Result<()> {
    let sev = f.severity.as_str();
    write!(
        h,
        "<tr class=\"finding\" data-version=\"{}\" data-surface=\"{}\" data-severity=\"{sev}\" data-context=\"{}\">",
        attr(version),
        attr(f.surface_name()),
        f.context.as_str()
    )?;
    write!(h, "<td class=\"line\">{}:{}</td>", f.line, f.column)?;
    write!(
        h,
        "<td><span class=\"sev {sev}\">{}</span> <code>{}</code>{}<div>{}</div><pre>{}</pre></td>",
        status_label(f.status),
        esc(&f.id),
        if f.breaking {
            "<span class=\"breaking\">breaking</span>"
        } else {
            ""
        },
        esc(&f.message),
        marked_line(f)
    )?;
    writeln!(
        h,
        "<td>{}</td></tr>",
        f.replacement
            .as_deref()
            .map(esc)
            .unwrap_or_else(|| "<span class=\"muted\">—</span>".into())
    )
}

/// The findings in tests, counted per file.
fn tests_section(report: &Report, h: &mut dyn Write) -> io::Result<()> {
    let files = super::tests_per_file(report);
    if files.is_empty() {
        return Ok(());
    }
    let n: usize = files.iter().map(|(_, n)| n).sum();
    writeln!(
        h,
        "<section class=\"tests\"><h2>Findings in tests <span class=\"muted\">({n})</span></h2>\n<p class=\"muted\">Test files and mocks: not counted by --fail-on; shown in full with --tests include.</p>\n<table>\n<tr><th>file</th><th>findings</th></tr>"
    )?;
    for (path, n) in files {
        writeln!(h, "<tr><td>{}</td><td>{n}</td></tr>", esc(&line(path)))?;
    }
    h.write_all(b"</table></section>\n")
}

fn problems(report: &Report, h: &mut dyn Write) -> io::Result<()> {
    if report.errors.is_empty() {
        return Ok(());
    }
    h.write_all(b"<h2>Problems</h2>\n<table>\n<tr><th>file</th><th>problem</th></tr>\n")?;
    for e in &report.errors {
        writeln!(
            h,
            "<tr><td><code>{}</code></td><td>{}</td></tr>",
            esc(&line(&e.path)),
            esc(&e.message)
        )?;
    }
    h.write_all(b"</table>\n")
}
