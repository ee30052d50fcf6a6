//! How the `uplint` executable is linked (build.rs): position-dependent on Linux with glibc,
//! which spares the dynamic loader's relocations at every start of a one-file scan, unless the
//! build asked for a position-independent one (`UPLINT_PIE=1`); and with glibc's static archives
//! where the C toolchain has them (`UPLINT_STATIC=0` keeps it dynamically linked).

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_executable_is_position_dependent_unless_asked() {
    let bytes = std::fs::read(env!("CARGO_BIN_EXE_uplint")).expect("the executable is readable");
    assert_eq!(&bytes[..4], b"\x7fELF", "not an ELF file");
    // e_type, little-endian on the targets uplint is built for: 2 = EXEC, 3 = DYN (PIE).
    let e_type = u16::from_le_bytes([bytes[16], bytes[17]]);
    let pie_asked = option_env!("UPLINT_PIE").is_some_and(|v| !v.is_empty() && v != "0");
    let expected = if pie_asked { 3 } else { 2 };
    assert_eq!(
        e_type, expected,
        "ELF type of the executable (2 = EXEC, 3 = PIE)"
    );
}

/// The ELF program header types of a 64-bit little-endian executable.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn program_header_types(bytes: &[u8]) -> Vec<u32> {
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
    let offset = u64::from_le_bytes(bytes[0x20..0x28].try_into().expect("8 bytes"));
    let offset = usize::try_from(offset).expect("the header table is in the file");
    let (size, count) = (u16_at(0x36), u16_at(0x38));
    (0..count)
        .map(|i| {
            let at = offset + i * size;
            u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
        })
        .collect()
}

/// Linked with glibc's static archives (build.rs) wherever the C toolchain has them, unless the
/// build asked otherwise (`UPLINT_STATIC=0`, or `UPLINT_PIE=1`): no interpreter, no dynamic
/// section, so a start maps no shared library.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_executable_is_statically_linked_where_glibc_has_static_archives() {
    let set = |v: Option<&str>| v.is_some_and(|v| !v.is_empty() && v != "0");
    if set(option_env!("UPLINT_PIE")) || option_env!("UPLINT_STATIC") == Some("0") {
        return;
    }
    let static_libc = std::process::Command::new("cc")
        .arg("-print-file-name=libc.a")
        .output()
        .ok()
        .map(|o| std::path::PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .is_some_and(|p| p.is_absolute() && p.is_file());
    let bytes = std::fs::read(env!("CARGO_BIN_EXE_uplint")).expect("the executable is readable");
    let types = program_header_types(&bytes);
    const PT_DYNAMIC: u32 = 2;
    const PT_INTERP: u32 = 3;
    let dynamic = types.iter().any(|&t| t == PT_DYNAMIC || t == PT_INTERP);
    assert_eq!(
        dynamic, !static_libc,
        "program headers {types:?}: with a static libc.a ({static_libc}) the executable must have no PT_INTERP or PT_DYNAMIC"
    );
    // And it runs.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_uplint"))
        .arg("--version")
        .output()
        .expect("the executable starts");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("uplint "));
}
