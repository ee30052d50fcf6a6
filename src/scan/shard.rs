//! Shards: `--shard I/N` scans a deterministic 1/N of the files, so N parallel CI jobs share a
//! tree that one job cannot scan in time, and the union of their findings is the whole scan's.
//!
//! The partition is specified, so that every job agrees on every machine: a file belongs to shard
//! `I` of `N` (1-based, like GitLab's `CI_NODE_INDEX`) when `fnv1a64(path) % N == I - 1`, where
//! `path` is the file's path relative to the scanned root with `/` separators, exactly as reports
//! show it (`chart/values.yaml`), and `fnv1a64` is FNV-1a with 64-bit offset basis
//! `0xcbf29ce484222325` and prime `0x100000001b3` over the path's UTF-8 bytes.

use std::fmt;

/// One part of a partition of the files: `index` of `total`, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub total: u64,
}

/// FNV-1a, 64 bits, of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A `--shard` value or CI variables that name no shard.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("--shard `{0}`: expected I/N with 1 <= I <= N (e.g. 2/5), or auto")]
    Malformed(String),
    #[error("--shard auto: {name}=`{value}` is not a positive number")]
    NotANumber { name: &'static str, value: String },
    #[error("--shard auto: CI_NODE_TOTAL is {0} but CI_NODE_INDEX is not set")]
    NoIndex(u64),
    #[error("--shard auto: CI_NODE_INDEX is set but CI_NODE_TOTAL is not")]
    NoTotal,
    #[error("--shard auto: CI_NODE_INDEX {index} is greater than CI_NODE_TOTAL {total}")]
    IndexOverTotal { index: u64, total: u64 },
}

impl Shard {
    /// `I/N` with 1 <= I <= N.
    pub fn parse(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::Malformed(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let total: u64 = n.trim().parse().map_err(|_| bad())?;
        if total == 0 || index == 0 || index > total {
            return Err(bad());
        }
        Ok(Shard { index, total })
    }

    /// GitLab's `parallel:` variables: `CI_NODE_INDEX` (from 1) of `CI_NODE_TOTAL`. A job without
    /// `parallel:` has no index (and a total of 1): it is the whole scan.
    pub fn from_ci(index: Option<&str>, total: Option<&str>) -> Result<Shard, ShardError> {
        let number = |name: &'static str, v: &str| -> Result<u64, ShardError> {
            v.trim()
                .parse::<u64>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| ShardError::NotANumber {
                    name,
                    value: v.to_string(),
                })
        };
        let total = total.map(|t| number("CI_NODE_TOTAL", t)).transpose()?;
        let index = index.map(|i| number("CI_NODE_INDEX", i)).transpose()?;
        match (index, total) {
            (None, None | Some(1)) => Ok(Shard { index: 1, total: 1 }),
            (None, Some(t)) => Err(ShardError::NoIndex(t)),
            (Some(_), None) => Err(ShardError::NoTotal),
            (Some(index), Some(total)) if index > total => {
                Err(ShardError::IndexOverTotal { index, total })
            }
            (Some(index), Some(total)) => Ok(Shard { index, total }),
        }
    }

    /// What `--shard VALUE` means, reading the CI variables through `env` for `auto`.
    pub fn resolve(value: &str, env: impl Fn(&str) -> Option<String>) -> Result<Shard, ShardError> {
        if value == "auto" {
            Shard::from_ci(
                env("CI_NODE_INDEX").as_deref(),
                env("CI_NODE_TOTAL").as_deref(),
            )
        } else {
            Shard::parse(value)
        }
    }

    /// Does the file at `path` (relative to the scanned root, `/`-separated) belong to this shard?
    pub fn contains(&self, path: &str) -> bool {
        fnv1a64(path.as_bytes()) % self.total == self.index - 1
    }
}

/// Is `path` scanned at all: no shard, or the shard holds it.
pub fn keeps(shard: Option<&Shard>, path: &str) -> bool {
    shard.is_none_or(|s| s.contains(path))
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_fnv1a_64() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn every_path_is_in_exactly_one_shard() {
        for total in 1..=7 {
            for p in ["a", ".gitlab-ci.yml", "chart/values.yaml", "é/ü.sh", ""] {
                let n = (1..=total)
                    .filter(|&index| Shard { index, total }.contains(p))
                    .count();
                assert_eq!(n, 1, "{p} in {total} shards");
            }
        }
    }

    #[test]
    fn parsing() {
        assert_eq!(Shard::parse("2/5"), Ok(Shard { index: 2, total: 5 }));
        assert_eq!(Shard::parse("1/1").unwrap().to_string(), "1/1");
        for bad in ["0/3", "4/3", "1/0", "x/2", "3", "-1/2", ""] {
            let e = Shard::parse(bad).unwrap_err();
            assert!(e.to_string().contains("expected I/N"), "{bad}: {e}");
        }
    }

    #[test]
    fn ci_variables() {
        let env = |i: Option<&'static str>, t: Option<&'static str>| {
            move |k: &str| match k {
                "CI_NODE_INDEX" => i.map(String::from),
                "CI_NODE_TOTAL" => t.map(String::from),
                _ => None,
            }
        };
        let whole = Shard { index: 1, total: 1 };
        assert_eq!(Shard::resolve("auto", env(None, None)), Ok(whole));
        assert_eq!(Shard::resolve("auto", env(None, Some("1"))), Ok(whole));
        assert_eq!(
            Shard::resolve("auto", env(Some("3"), Some("4"))),
            Ok(Shard { index: 3, total: 4 })
        );
        for (i, t, says) in [
            (None, Some("4"), "CI_NODE_INDEX is not set"),
            (Some("5"), Some("4"), "greater than CI_NODE_TOTAL"),
            (Some("x"), Some("4"), "CI_NODE_INDEX=`x`"),
            (Some("0"), Some("4"), "CI_NODE_INDEX=`0`"),
            (Some("1"), None, "CI_NODE_TOTAL is not"),
        ] {
            let e = Shard::resolve("auto", env(i, t)).unwrap_err();
            assert!(e.to_string().contains(says), "{i:?}/{t:?}: {e}");
        }
    }
}
