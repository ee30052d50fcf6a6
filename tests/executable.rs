//! How the `uplint` executable is linked (build.rs): position-dependent on Linux with glibc,
//! which spares the dynamic loader's relocations at every start of a one-file scan, unless the
//! build asked for a position-independent one (`UPLINT_PIE=1`).

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
