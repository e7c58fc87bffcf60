//! The rule for the URLs the resource server trusts: `https`, except on
//! loopback hosts (local development and tests).

use std::net::IpAddr;

use url::{Host, Url};

use super::error::AuthError;

/// Parses `url` and checks it is `https` or on a loopback host.
pub(super) fn trusted_url(what: &'static str, url: &str) -> Result<Url, AuthError> {
    let parsed = Url::parse(url).map_err(|error| AuthError::InvalidUrl {
        what,
        url: url.to_owned(),
        reason: error.to_string(),
    })?;
    if is_allowed(&parsed) {
        Ok(parsed)
    } else {
        Err(AuthError::NotHttps {
            what,
            url: url.to_owned(),
        })
    }
}

/// Whether `url` is `https`, or `http` on a loopback host.
pub(super) fn is_allowed(url: &Url) -> bool {
    match url.scheme() {
        "https" => url.host().is_some(),
        "http" => is_loopback(url),
        _ => false,
    }
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::trusted_url;

    #[test]
    fn https_anywhere_http_on_loopback_only() {
        for ok in [
            "https://login.example.com",
            "http://127.0.0.1:4000",
            "http://localhost/x",
            "http://[::1]:9/",
        ] {
            assert!(trusted_url("issuer", ok).is_ok(), "{ok}");
        }
        for bad in [
            "http://login.example.com",
            "http://10.0.0.1",
            "ftp://127.0.0.1",
            "not a url",
        ] {
            assert!(trusted_url("issuer", bad).is_err(), "{bad}");
        }
    }
}
