//! The embedded Petstore API the demo's generated tools call: the three
//! operations of `petstore.yaml`, in memory, on 127.0.0.1.

use std::sync::{Arc, Mutex};

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::net::TcpListener;

use super::error::CliError;

/// The embedded OpenAPI document.
pub(crate) const PETSTORE_YAML: &str = include_str!("petstore.yaml");

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Pet {
    id: i64,
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tag: Option<String>,
}

type Store = Arc<Mutex<Vec<Pet>>>;

#[derive(Deserialize)]
struct ListQuery {
    limit: Option<usize>,
}

fn error(status: StatusCode, message: &str) -> Response {
    (
        status,
        Json(json!({"code": status.as_u16(), "message": message})),
    )
        .into_response()
}

async fn list_pets(State(store): State<Store>, Query(query): Query<ListQuery>) -> Response {
    let Ok(pets) = store.lock() else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the store is unavailable",
        );
    };
    let limit = query.limit.unwrap_or(100).min(100);
    Json(pets.iter().take(limit).cloned().collect::<Vec<_>>()).into_response()
}

async fn create_pet(State(store): State<Store>, Json(pet): Json<Pet>) -> Response {
    let Ok(mut pets) = store.lock() else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the store is unavailable",
        );
    };
    if pets.iter().any(|existing| existing.id == pet.id) {
        return error(StatusCode::CONFLICT, "a pet with this id exists");
    }
    pets.push(pet);
    StatusCode::CREATED.into_response()
}

async fn show_pet(State(store): State<Store>, Path(pet_id): Path<String>) -> Response {
    let Ok(pets) = store.lock() else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the store is unavailable",
        );
    };
    match pets.iter().find(|pet| pet.id.to_string() == pet_id) {
        Some(pet) => Json(pet.clone()).into_response(),
        None => error(StatusCode::NOT_FOUND, "no pet with this id"),
    }
}

/// Starts the API on a free loopback port; returns its base URL (the
/// document's `servers` URL for it), for example `http://127.0.0.1:41234/v1`.
pub(crate) async fn start() -> Result<String, CliError> {
    let store: Store = Arc::new(Mutex::new(vec![
        Pet {
            id: 1,
            name: "Rex".to_owned(),
            tag: Some("dog".to_owned()),
        },
        Pet {
            id: 2,
            name: "Tom".to_owned(),
            tag: Some("cat".to_owned()),
        },
        Pet {
            id: 3,
            name: "Nemo".to_owned(),
            tag: None,
        },
    ]));
    let app = Router::new()
        .route("/v1/pets", get(list_pets).post(create_pet))
        .route("/v1/pets/{pet_id}", get(show_pet))
        .with_state(store);
    let listener =
        TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|error| mcp_server::ServeError::Bind {
                addr: "127.0.0.1:0".to_owned(),
                error,
            })?;
    let addr = listener
        .local_addr()
        .map_err(|error| mcp_server::ServeError::Io {
            context: "reading the Petstore API address",
            error,
        })?;
    tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, app).await {
            tracing::error!(%error, "the embedded Petstore API stopped");
        }
    });
    Ok(format!("http://{addr}/v1"))
}
