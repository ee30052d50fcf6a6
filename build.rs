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
    // position-independent, dynamically linked executable.
    println!("cargo:rerun-if-env-changed=UPLINT_PIE");
    println!("cargo:rerun-if-env-changed=UPLINT_STATIC");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    // glibc only: a musl build links statically, as a static PIE or not, by its own choice.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
        && std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu")
        && !env_flag("UPLINT_PIE")
    {
        println!("cargo:rustc-link-arg-bins=-no-pie");
        if std::env::var_os("UPLINT_STATIC").is_none_or(|v| v != "0") {
            link_statically(Path::new(&out));
        }
    }
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
            // A built-in data file that does not parse fails the build, at its line, with the
            // lines around it (`uplint data check data/NAME` says the same, and checks the rest).
            Err(e) => {
                eprintln!("invalid built-in data in data/{name}: {e}");
                eprintln!("help: data/README.md lists the fields of an entry and of each pattern");
                std::process::exit(1);
            }
        };
        std::fs::write(Path::new(&out).join(format!("{name}.json")), json)
            .expect("OUT_DIR is writable");
    }
}

/// Whether an environment variable is set to something other than empty or `0`.
fn env_flag(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Link the `uplint` executable with glibc's static archives, as `-C target-feature=+crt-static`
/// does: a one-file scan (the pre-commit case) is then spared the dynamic loader's work, the
/// mapping of `libc.so.6` and `libgcc_s.so.1`, the binding of their symbols and 44 of its 147
/// page faults. Alternated 400 times, 4.98 ms became 4.24 ms (spawning `/bin/true`: 1.0 ms).
///
/// `crt-static` itself cannot be asked for here: given as a flag for the target, cargo gives it
/// to the proc-macro crates too when no `--target` is named, and rustc refuses to build them.
/// So the link is made static from the linker's side, for the executables only: `-static`, and a
/// directory searched before the system's that holds the static archives under the names rustc
/// asks for (`-lc`, `-lm`, ...; `-lgcc_s`, the unwinder, is `libgcc_eh.a`), so that no shared
/// library can be found. Where the C toolchain has no static glibc (`cc -print-file-name`
/// answers a bare name: `glibc-static` not installed), when cross-compiling without a
/// configured linker, or with `UPLINT_STATIC=0`, the executable stays dynamically linked.
fn link_statically(out: &Path) {
    // The C toolchain rustc links with: `cc` unless a linker is configured. Cross-compiling
    // with `cc`, its answers would be the build machine's archives: then nothing is changed.
    let linker = match std::env::var("RUSTC_LINKER") {
        Ok(linker) => linker,
        Err(_) if std::env::var("HOST") == std::env::var("TARGET") => "cc".to_string(),
        Err(_) => return,
    };
    let archive = |name: &str| -> Option<std::path::PathBuf> {
        let answer = std::process::Command::new(&linker)
            .arg(format!("-print-file-name={name}"))
            .output()
            .ok()?;
        let path = std::path::PathBuf::from(String::from_utf8(answer.stdout).ok()?.trim());
        (path.is_absolute() && path.is_file()).then_some(path)
    };
    // What rustc's standard library asks the linker for on linux-gnu, and where it is found.
    let wanted = [
        ("libc.a", "libc.a"),
        ("libm.a", "libm.a"),
        ("librt.a", "librt.a"),
        ("libpthread.a", "libpthread.a"),
        ("libdl.a", "libdl.a"),
        ("libutil.a", "libutil.a"),
        ("libgcc_s.a", "libgcc_eh.a"),
    ];
    let mut found = Vec::new();
    for (asked, archive_name) in wanted {
        match archive(archive_name) {
            Some(path) => found.push((asked, path)),
            None => return,
        }
    }
    let dir = out.join("static-libs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
    for (asked, path) in found {
        std::os::unix::fs::symlink(&path, dir.join(asked)).expect("OUT_DIR is writable");
    }
    println!("cargo:rustc-link-arg-bins=-static");
    println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
}
