//! Turn the embedded data (`data/*.yml`) into JSON in OUT_DIR: the binary loads JSON several
//! times faster than YAML, and the JSON goes through the same checks as any data file. The YAML
//! is parsed into the typed raw structs (no YAML 1.1 surprises such as `y` becoming `true`).

#[path = "src/catalog/raw.rs"]
#[allow(dead_code)]
mod raw;

#[path = "src/patterns/raw.rs"]
pub mod pattern_raw;

/// `crate::patterns::raw` as the library names it.
mod patterns {
    pub use super::pattern_raw as raw;
}

use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=data");
    println!("cargo:rerun-if-changed=src/catalog/raw.rs");
    println!("cargo:rerun-if-changed=src/patterns/raw.rs");
    // The `uplint` executable is linked position-dependent on Linux (glibc): a position-independent
    // one has the dynamic loader apply 3,886 relative relocations at each start (into the 46
    // pages of `.data.rel.ro`). A one-file scan (the pre-commit case) took 4.69 ms with them
    // and 4.20 ms without (alternated runs; 325 -> 281 page faults). The cost is address-space
    // randomisation of the executable's own code. `UPLINT_PIE=1` at build time keeps a
    // position-independent executable.
    println!("cargo:rerun-if-env-changed=UPLINT_PIE");
    // glibc only: a musl build links statically, as a static PIE or not, by its own choice.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
        && std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu")
        && std::env::var_os("UPLINT_PIE").is_none_or(|v| v.is_empty() || v == "0")
    {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut names: Vec<String> = std::fs::read_dir("data")
        .expect("data/ is readable")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".yml"))
        .collect();
    names.sort();
    for name in names {
        let text =
            std::fs::read_to_string(Path::new("data").join(&name)).expect("data file is readable");
        let json = match serde_saphyr::from_str::<raw::RawFile>(&text) {
            Ok(file) => serde_json::to_string(&file).expect("raw data serializes"),
            // Invalid YAML: embed nothing compiled; the loader then reads the YAML itself and
            // reports the error with its position (and the unit tests fail).
            Err(_) => String::new(),
        };
        std::fs::write(Path::new(&out).join(format!("{name}.json")), json)
            .expect("OUT_DIR is writable");
    }
}
