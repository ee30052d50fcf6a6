//! Version types: the service version axis (`16.9`, `16.10`, `17.0`, `16.3.0`) and the
//! REST API axis (`v4`, `v5`).
//!
//! Service versions order numerically, component by component, so `16.10 > 16.9`.
//! A trailing `.0` patch is insignificant: `16.3.0 == 16.3`.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// A service version such as `17.0` or `16.3.0`.
#[derive(Clone, Copy, Debug, Eq)]
pub struct ServiceVersion {
    major: u32,
    minor: u32,
    patch: Option<u32>,
}

impl ServiceVersion {
    fn key(&self) -> (u32, u32, u32) {
        (self.major, self.minor, self.patch.unwrap_or(0))
    }
}

impl PartialEq for ServiceVersion {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl std::hash::Hash for ServiceVersion {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl Ord for ServiceVersion {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for ServiceVersion {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for ServiceVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.patch {
            Some(p) => write!(f, "{}.{}.{}", self.major, self.minor, p),
            None => write!(f, "{}.{}", self.major, self.minor),
        }
    }
}

/// Why a string is not a version.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VersionError {
    #[error(
        "`{0}` is not a service version: expected MAJOR.MINOR or MAJOR.MINOR.PATCH, e.g. `17.0`"
    )]
    Service(String),
    #[error("`{0}` is not a REST API version: expected `v4` or `v5`")]
    Api(String),
    #[error(
        "`{0}` is not a version: expected a service version such as `17.0`, or the REST API version `v5`"
    )]
    Either(String),
}

fn parse_component(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 6 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // No leading zeros except "0" itself: `16.09` is a typo, not 16.9.
    if s.len() > 1 && s.starts_with('0') {
        return None;
    }
    s.parse().ok()
}

impl FromStr for ServiceVersion {
    type Err = VersionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || VersionError::Service(s.to_string());
        let mut parts = s.split('.');
        let major = parts.next().and_then(parse_component).ok_or_else(err)?;
        let minor = parts.next().and_then(parse_component).ok_or_else(err)?;
        let patch = match parts.next() {
            None => None,
            Some(p) => Some(parse_component(p).ok_or_else(err)?),
        };
        if parts.next().is_some() {
            return Err(err());
        }
        Ok(Self {
            major,
            minor,
            patch,
        })
    }
}

/// A REST API version: `v4` (current) or `v5` (planned, release date unknown).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ApiVersion {
    V4,
    V5,
}

impl fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ApiVersion::V4 => "v4",
            ApiVersion::V5 => "v5",
        })
    }
}

impl FromStr for ApiVersion {
    type Err = VersionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "v4" | "V4" => Ok(ApiVersion::V4),
            "v5" | "V5" => Ok(ApiVersion::V5),
            _ => Err(VersionError::Api(s.to_string())),
        }
    }
}

/// When something is removed: in a service version, or in a REST API version.
///
/// REST API v5 has no release date, so it is not ordered against service versions; it sorts
/// after every service version only for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Milestone {
    Service(ServiceVersion),
    Api(ApiVersion),
}

impl Milestone {
    pub fn service(&self) -> Option<ServiceVersion> {
        match self {
            Milestone::Service(v) => Some(*v),
            Milestone::Api(_) => None,
        }
    }
}

impl Ord for Milestone {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Milestone::Service(a), Milestone::Service(b)) => a.cmp(b),
            (Milestone::Service(_), Milestone::Api(_)) => Ordering::Less,
            (Milestone::Api(_), Milestone::Service(_)) => Ordering::Greater,
            (Milestone::Api(a), Milestone::Api(b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for Milestone {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Milestone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Milestone::Service(v) => v.fmt(f),
            Milestone::Api(a) => a.fmt(f),
        }
    }
}

impl FromStr for Milestone {
    type Err = VersionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.starts_with(['v', 'V']) {
            return s
                .parse::<ApiVersion>()
                .map(Milestone::Api)
                .map_err(|_| VersionError::Either(s.to_string()));
        }
        s.parse::<ServiceVersion>()
            .map(Milestone::Service)
            .map_err(|_| VersionError::Either(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> ServiceVersion {
        s.parse().unwrap()
    }

    #[test]
    fn orders_numerically_not_lexically() {
        assert!(v("16.10") > v("16.9"));
        assert!(v("17.0") > v("16.11"));
        assert!(v("9.0") < v("10.0"));
        assert!(v("16.3.1") > v("16.3"));
    }

    #[test]
    fn trailing_zero_patch_is_the_same_version() {
        assert_eq!(v("16.3.0"), v("16.3"));
        assert_eq!(v("16.3.0").to_string(), "16.3.0");
        assert_eq!(v("17.0").to_string(), "17.0");
    }

    #[test]
    fn rejects_malformed_versions() {
        for bad in [
            "17", "17.x", "17.", ".0", "17.0.0.0", "v17.0", "17.0-ee", "16.09", "", " 17.0", "1.2.",
        ] {
            assert!(bad.parse::<ServiceVersion>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn milestones_cover_both_axes() {
        assert_eq!(
            "v5".parse::<Milestone>().unwrap(),
            Milestone::Api(ApiVersion::V5)
        );
        assert_eq!(
            "17.0".parse::<Milestone>().unwrap(),
            Milestone::Service(v("17.0"))
        );
        assert!("v6".parse::<Milestone>().is_err());
        assert!(Milestone::Api(ApiVersion::V5) > Milestone::Service(v("99.0")));
    }
}
