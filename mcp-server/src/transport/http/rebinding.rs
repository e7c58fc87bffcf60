//! DNS-rebinding protection: the `Host` and `Origin` a request must carry.
//!
//! The allowed lists are read once, when the endpoint is built; rmcp's
//! service, which would check the same, is given none (it copies its
//! settings, the lists among them, for every request and reads each entry
//! again). The rules are rmcp's: a `Host` matches an allowed host by name
//! (case-insensitively, IPv6 without brackets) and by port when the entry
//! names one, an empty list allowing any; an `Origin`, when present, must
//! match an allowed origin by scheme, host and port (`:*` for any port, no
//! port for any port too, the scheme's default port when the origin omits
//! it), or `null` for `null`. A refusal is `403 Forbidden`; a `Host` that
//! does not parse is left to rmcp, which answers `400 Bad Request`.

use axum::response::{IntoResponse, Response};
use http::uri::Authority;
use http::{HeaderMap, StatusCode, Uri};

/// The hosts and origins a request may name.
#[derive(Debug)]
pub(super) struct Rebinding {
    /// Allowed hosts (lowercase, without brackets) and their ports.
    hosts: Vec<(String, Option<u16>)>,
    /// Allowed origins.
    origins: Vec<AllowedOrigin>,
}

/// An origin as a request names it.
#[derive(Debug, PartialEq, Eq)]
enum Origin {
    Null,
    Tuple {
        scheme: String,
        host: String,
        port: Option<u16>,
    },
}

/// What port an allowed origin admits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Port {
    /// `:*`, or no port in the entry.
    Any,
    Exact(u16),
}

/// An allowed origin.
#[derive(Debug, PartialEq, Eq)]
enum AllowedOrigin {
    Null,
    Tuple {
        scheme: String,
        host: String,
        port: Port,
    },
}

impl Rebinding {
    /// The checks of `hosts` and `origins` (entries that do not parse
    /// admit nothing).
    pub(super) fn new(hosts: &[String], origins: &[String]) -> Self {
        for origin in origins {
            if !origin.trim().ends_with(":*")
                && matches!(parse_origin(origin), Some(Origin::Tuple { port: None, .. }))
            {
                tracing::warn!(
                    allowed_origin = origin.as_str(),
                    "allowed origin without a port matches any port; use `:*` or an explicit port instead",
                );
            }
        }
        Self {
            hosts: hosts.iter().filter_map(|host| allowed_host(host)).collect(),
            origins: origins
                .iter()
                .filter_map(|origin| allowed_origin(origin))
                .collect(),
        }
    }

    /// The response refusing a request to `uri` with `headers`, if its
    /// `Host` or `Origin` is not allowed.
    pub(super) fn refusal(&self, uri: &Uri, headers: &HeaderMap) -> Option<Response> {
        if let Some((host, port)) = request_host(uri, headers)
            && !self.host_allowed(&host, port)
        {
            tracing::warn!(
                host,
                port,
                "rejected request with disallowed Host header (possible DNS rebinding attempt)",
            );
            return Some(forbidden("Forbidden: Host header is not allowed"));
        }
        let origin = headers.get(http::header::ORIGIN)?;
        let Ok(text) = origin.to_str() else {
            tracing::warn!(origin = ?origin, "rejected request with non-UTF-8 Origin header");
            return Some(forbidden("Forbidden: Invalid Origin header encoding"));
        };
        let Some(origin) = parse_origin(text) else {
            tracing::warn!(
                origin = text,
                "rejected request with malformed Origin header"
            );
            return Some(forbidden("Forbidden: Invalid Origin header"));
        };
        if self.origins.iter().any(|allowed| admits(allowed, &origin)) {
            return None;
        }
        tracing::warn!(
            origin = text,
            "rejected request with disallowed Origin header (possible cross-origin attack)",
        );
        Some(forbidden("Forbidden: Origin header is not allowed"))
    }

    fn host_allowed(&self, host: &str, port: Option<u16>) -> bool {
        self.hosts.is_empty()
            || self.hosts.iter().any(|(allowed, allowed_port)| {
                allowed.eq_ignore_ascii_case(host) && allowed_port.is_none_or(|p| port == Some(p))
            })
    }
}

fn forbidden(message: &'static str) -> Response {
    (StatusCode::FORBIDDEN, message).into_response()
}

/// The host without brackets.
fn bare_host(host: &str) -> &str {
    host.trim_matches(|c| c == '[' || c == ']')
}

/// An allowed host entry: `host` or `host:port` (an IPv6 address may go
/// without brackets and port).
fn allowed_host(entry: &str) -> Option<(String, Option<u16>)> {
    let entry = entry.trim();
    if entry.is_empty() {
        return None;
    }
    Some(match Authority::try_from(entry) {
        Ok(authority) => (
            bare_host(authority.host()).to_ascii_lowercase(),
            authority.port_u16(),
        ),
        Err(_) => (bare_host(entry).to_ascii_lowercase(), None),
    })
}

/// The host and port a request names: its `Host` header, else its URI's
/// authority; `None` when neither parses (rmcp refuses it).
fn request_host(uri: &Uri, headers: &HeaderMap) -> Option<(String, Option<u16>)> {
    let authority = match headers.get(http::header::HOST) {
        Some(host) => Authority::try_from(host.to_str().ok()?).ok()?,
        None => uri.authority()?.clone(),
    };
    Some((bare_host(authority.host()).to_owned(), authority.port_u16()))
}

/// An origin: `null`, or `scheme://host[:port]`.
fn parse_origin(text: &str) -> Option<Origin> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if text.eq_ignore_ascii_case("null") {
        return Some(Origin::Null);
    }
    let uri = Uri::try_from(text).ok()?;
    let authority = uri.authority()?;
    Some(Origin::Tuple {
        scheme: uri.scheme_str()?.to_ascii_lowercase(),
        host: bare_host(authority.host()).to_ascii_lowercase(),
        port: authority.port_u16(),
    })
}

/// An allowed origin entry: an origin, or one ending in `:*` for any port.
fn allowed_origin(entry: &str) -> Option<AllowedOrigin> {
    let entry = entry.trim();
    if let Some(base) = entry.strip_suffix(":*") {
        let Origin::Tuple {
            scheme,
            host,
            port: None,
        } = parse_origin(base)?
        else {
            return None;
        };
        return Some(AllowedOrigin::Tuple {
            scheme,
            host,
            port: Port::Any,
        });
    }
    Some(match parse_origin(entry)? {
        Origin::Null => AllowedOrigin::Null,
        Origin::Tuple { scheme, host, port } => AllowedOrigin::Tuple {
            scheme,
            host,
            port: port.map_or(Port::Any, Port::Exact),
        },
    })
}

/// Whether `allowed` admits `origin`.
fn admits(allowed: &AllowedOrigin, origin: &Origin) -> bool {
    match (allowed, origin) {
        (AllowedOrigin::Null, Origin::Null) => true,
        (
            AllowedOrigin::Tuple {
                scheme: allowed_scheme,
                host: allowed_host,
                port: allowed_port,
            },
            Origin::Tuple { scheme, host, port },
        ) => {
            allowed_scheme == scheme
                && allowed_host == host
                && match allowed_port {
                    Port::Any => true,
                    Port::Exact(allowed) => port.or_else(|| default_port(scheme)) == Some(*allowed),
                }
        }
        _ => false,
    }
}

/// The port a scheme implies when an origin omits it.
fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checks() -> Rebinding {
        let config = super::super::HttpConfig::new()
            .allow_host("api.example.com:8443")
            .allow_origin("https://app.example.com")
            .allow_origin("null");
        Rebinding::new(&config.allowed_hosts, &config.allowed_origins)
    }

    fn status(host: Option<&str>, origin: Option<&str>) -> Option<StatusCode> {
        let mut headers = HeaderMap::new();
        if let Some(host) = host {
            headers.insert(http::header::HOST, host.parse().unwrap());
        }
        if let Some(origin) = origin {
            headers.insert(http::header::ORIGIN, origin.parse().unwrap());
        }
        let uri: Uri = "/mcp".parse().unwrap();
        checks()
            .refusal(&uri, &headers)
            .map(|response| response.status())
    }

    #[test]
    fn hosts_match_by_name_and_by_port_when_the_entry_names_one() {
        for allowed in [
            "localhost:8000",
            "LOCALHOST",
            "127.0.0.1:1",
            "[::1]:8000",
            "api.example.com:8443",
        ] {
            assert_eq!(status(Some(allowed), None), None, "{allowed}");
        }
        for refused in ["evil.example", "api.example.com", "api.example.com:80"] {
            assert_eq!(
                status(Some(refused), None),
                Some(StatusCode::FORBIDDEN),
                "{refused}"
            );
        }
        // Not a host at all: rmcp answers 400.
        assert_eq!(status(Some("a b"), None), None);
        assert_eq!(status(None, None), None);
        let open = Rebinding::new(&[], &[]);
        let mut headers = HeaderMap::new();
        headers.insert(http::header::HOST, "evil.example".parse().unwrap());
        assert!(open.refusal(&"/".parse().unwrap(), &headers).is_none());
    }

    #[test]
    fn origins_match_by_scheme_host_and_port() {
        for allowed in [
            "http://localhost:3000",
            "https://127.0.0.1",
            "http://[::1]:9",
            "https://app.example.com:444",
            "null",
        ] {
            assert_eq!(status(Some("localhost"), Some(allowed)), None, "{allowed}");
        }
        for refused in [
            "https://evil.example",
            "http://app.example.com",
            "ftp://localhost",
            "not an origin",
        ] {
            assert_eq!(
                status(Some("localhost"), Some(refused)),
                Some(StatusCode::FORBIDDEN),
                "{refused}"
            );
        }
        assert_eq!(
            allowed_origin("https://a.example:443"),
            Some(AllowedOrigin::Tuple {
                scheme: "https".into(),
                host: "a.example".into(),
                port: Port::Exact(443)
            })
        );
        assert!(admits(
            &allowed_origin("https://a.example:443").unwrap(),
            &parse_origin("https://a.example").unwrap()
        ));
        assert_eq!(allowed_origin("https://a.example:443:*"), None);
        assert_eq!(allowed_origin("null:*"), None);
    }
}
