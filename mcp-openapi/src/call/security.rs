//! Security schemes of a document and the credentials that satisfy them
//! (see the [`call`](crate::call) module docs for the schemes supported and
//! the environment variables read).

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use crate::call::error::CallError;
use crate::ir::JsonObject;

/// A credential's secret part; its `Debug` output is `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(secret: impl Into<String>) -> Self {
        Self(secret.into())
    }

    /// The secret text (for building the request only).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// Where an `apiKey` goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiKeyLocation {
    /// A request header.
    Header,
    /// A query parameter.
    Query,
    /// A cookie.
    Cookie,
}

/// One entry of `components.securitySchemes`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SecurityScheme {
    /// `type: apiKey`.
    ApiKey {
        /// The header, query parameter or cookie name.
        name: String,
        /// Where it goes.
        location: ApiKeyLocation,
    },
    /// `type: http`, `scheme: bearer`.
    Bearer,
    /// `type: http`, `scheme: basic`.
    Basic,
    /// `type: oauth2`.
    OAuth2 {
        /// The token endpoint of the `clientCredentials` flow, when the
        /// scheme has one (absolute, or relative to the base URL).
        token_url: Option<String>,
    },
    /// `type: openIdConnect` (satisfied by an access token).
    OpenIdConnect,
    /// A scheme this crate cannot satisfy (named for messages).
    Unsupported(String),
}

impl SecurityScheme {
    /// Reads one security scheme object (OpenAPI 3.x shape).
    pub fn from_json(name: &str, scheme: &Value) -> Result<Self, CallError> {
        let fail = |reason: &str| CallError::Auth {
            scheme: name.to_owned(),
            reason: reason.to_owned(),
        };
        let text = |key: &str| scheme.get(key).and_then(Value::as_str);
        match text("type") {
            Some("apiKey") => {
                let key = text("name").ok_or_else(|| fail("an apiKey scheme needs `name`"))?;
                let location = match text("in") {
                    Some("header") => ApiKeyLocation::Header,
                    Some("query") => ApiKeyLocation::Query,
                    Some("cookie") => ApiKeyLocation::Cookie,
                    _ => return Err(fail("an apiKey scheme needs `in`: header, query or cookie")),
                };
                Ok(Self::ApiKey {
                    name: key.to_owned(),
                    location,
                })
            }
            Some("http") => match text("scheme").map(str::to_ascii_lowercase).as_deref() {
                Some("bearer") => Ok(Self::Bearer),
                Some("basic") => Ok(Self::Basic),
                other => Ok(Self::Unsupported(format!(
                    "http {}",
                    other.unwrap_or("(no scheme)")
                ))),
            },
            Some("oauth2") => {
                let token_url = scheme
                    .pointer("/flows/clientCredentials/tokenUrl")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                Ok(Self::OAuth2 { token_url })
            }
            Some("openIdConnect") => Ok(Self::OpenIdConnect),
            Some(other) => Ok(Self::Unsupported(other.to_owned())),
            None => Err(fail("the scheme has no `type`")),
        }
    }

    /// The environment variables that configure this scheme's credential.
    pub fn env_vars(&self, scheme_name: &str) -> Vec<String> {
        let prefix = env_prefix(scheme_name);
        let suffixes: &[&str] = match self {
            Self::ApiKey { .. } => &["API_KEY"],
            Self::Bearer => &["TOKEN"],
            Self::Basic => &["USERNAME", "PASSWORD"],
            Self::OAuth2 { token_url: Some(_) } => {
                &["TOKEN", "CLIENT_ID", "CLIENT_SECRET", "SCOPES"]
            }
            Self::OAuth2 { token_url: None } | Self::OpenIdConnect => &["TOKEN"],
            Self::Unsupported(_) => &[],
        };
        suffixes.iter().map(|s| format!("{prefix}{s}")).collect()
    }
}

fn env_prefix(scheme_name: &str) -> String {
    let upper: String = scheme_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("MCP_OPENAPI_{upper}_")
}

/// The security schemes of a document, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SecuritySchemes(BTreeMap<String, SecurityScheme>);

impl SecuritySchemes {
    /// Reads `components.securitySchemes`; malformed schemes are errors.
    pub fn from_components(schemes: &JsonObject) -> Result<Self, CallError> {
        schemes
            .iter()
            .map(|(name, scheme)| Ok((name.clone(), SecurityScheme::from_json(name, scheme)?)))
            .collect::<Result<_, _>>()
            .map(Self)
    }

    /// Adds or replaces one scheme.
    pub fn insert(&mut self, name: impl Into<String>, scheme: SecurityScheme) {
        self.0.insert(name.into(), scheme);
    }

    /// The scheme called `name`.
    pub fn get(&self, name: &str) -> Option<&SecurityScheme> {
        self.0.get(name)
    }

    /// Every scheme with its name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &SecurityScheme)> {
        self.0.iter().map(|(name, scheme)| (name.as_str(), scheme))
    }
}

/// A credential for one scheme.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Credential {
    /// The key of an `apiKey` scheme.
    ApiKey(Secret),
    /// The token of an `http` bearer scheme.
    Bearer(Secret),
    /// User and password of an `http` basic scheme.
    Basic {
        /// The user name.
        username: String,
        /// The password.
        password: Secret,
    },
    /// Client id and secret of an `oauth2` client-credentials flow.
    ClientCredentials {
        /// The client id.
        client_id: String,
        /// The client secret.
        client_secret: Secret,
        /// Scopes to ask for (space-joined); empty asks for none.
        scopes: Vec<String>,
    },
}

/// Credentials by scheme name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Credentials(BTreeMap<String, Credential>);

impl Credentials {
    /// No credentials.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the credential of scheme `name`.
    pub fn insert(&mut self, name: impl Into<String>, credential: Credential) {
        self.0.insert(name.into(), credential);
    }

    /// The credential of scheme `name`.
    pub fn get(&self, name: &str) -> Option<&Credential> {
        self.0.get(name)
    }

    /// Reads the documented environment variables of every scheme.
    pub fn from_env(schemes: &SecuritySchemes) -> Self {
        Self::from_lookup(schemes, |name| std::env::var(name).ok())
    }

    /// Like [`from_env`](Self::from_env) with a custom variable lookup.
    pub fn from_lookup(schemes: &SecuritySchemes, lookup: impl Fn(&str) -> Option<String>) -> Self {
        let mut credentials = Self::new();
        for (name, scheme) in schemes.iter() {
            let prefix = env_prefix(name);
            let var = |suffix: &str| lookup(&format!("{prefix}{suffix}")).filter(|v| !v.is_empty());
            let credential = match scheme {
                SecurityScheme::ApiKey { .. } => {
                    var("API_KEY").map(|k| Credential::ApiKey(Secret(k)))
                }
                SecurityScheme::Bearer
                | SecurityScheme::OpenIdConnect
                | SecurityScheme::OAuth2 { token_url: None } => {
                    var("TOKEN").map(|t| Credential::Bearer(Secret(t)))
                }
                SecurityScheme::Basic => {
                    var("USERNAME")
                        .zip(var("PASSWORD"))
                        .map(|(username, password)| Credential::Basic {
                            username,
                            password: Secret(password),
                        })
                }
                SecurityScheme::OAuth2 { token_url: Some(_) } => var("TOKEN")
                    .map(|t| Credential::Bearer(Secret(t)))
                    .or_else(|| {
                        var("CLIENT_ID")
                            .zip(var("CLIENT_SECRET"))
                            .map(|(client_id, secret)| Credential::ClientCredentials {
                                client_id,
                                client_secret: Secret(secret),
                                scopes: var("SCOPES")
                                    .map(|s| s.split_whitespace().map(str::to_owned).collect())
                                    .unwrap_or_default(),
                            })
                    }),
                SecurityScheme::Unsupported(_) => None,
            };
            if let Some(credential) = credential {
                credentials.insert(name, credential);
            }
        }
        credentials
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn reads_schemes_and_env_credentials() {
        let components = json!({
            "api_key": {"type": "apiKey", "name": "X-Key", "in": "header"},
            "petstore-auth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "/token", "scopes": {}}}},
            "basic": {"type": "http", "scheme": "Basic"},
            "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://x"}
        });
        let schemes = SecuritySchemes::from_components(components.as_object().expect("object"))
            .expect("schemes");
        assert_eq!(schemes.get("basic"), Some(&SecurityScheme::Basic));
        assert_eq!(schemes.get("oidc"), Some(&SecurityScheme::OpenIdConnect));
        let env = BTreeMap::from([
            ("MCP_OPENAPI_API_KEY_API_KEY", "k1"),
            ("MCP_OPENAPI_PETSTORE_AUTH_CLIENT_ID", "id"),
            ("MCP_OPENAPI_PETSTORE_AUTH_CLIENT_SECRET", "s3cr3t"),
            ("MCP_OPENAPI_BASIC_USERNAME", "u"),
        ]);
        let credentials =
            Credentials::from_lookup(&schemes, |name| env.get(name).map(|v| (*v).to_owned()));
        assert_eq!(
            credentials.get("api_key"),
            Some(&Credential::ApiKey(Secret::new("k1")))
        );
        assert!(credentials.get("petstore-auth").is_some());
        assert_eq!(credentials.get("basic"), None, "a password is needed too");
        assert!(!format!("{credentials:?}").contains("s3cr3t"));
        let names = schemes
            .get("petstore-auth")
            .map(|s| s.env_vars("petstore-auth"));
        assert_eq!(
            names,
            Some(
                ["TOKEN", "CLIENT_ID", "CLIENT_SECRET", "SCOPES"]
                    .map(|s| format!("MCP_OPENAPI_PETSTORE_AUTH_{s}"))
                    .to_vec()
            )
        );
    }

    #[test]
    fn malformed_schemes_name_themselves() {
        let error =
            SecurityScheme::from_json("k", &json!({"type": "apiKey", "in": "body", "name": "x"}));
        assert!(matches!(error, Err(CallError::Auth { scheme, .. }) if scheme == "k"));
    }
}
