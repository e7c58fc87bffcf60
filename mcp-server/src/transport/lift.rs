//! The typed half of the `execution` lift: a transport wrapper that
//! rewrites `tools/list` responses carrying parked executions (see
//! [`crate::execution_wire`]).

use std::future::Future;

use ::rmcp::model::{CustomResult, ServerJsonRpcMessage, ServerResult};
use ::rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use ::rmcp::transport::Transport;

use crate::execution_wire::{EXECUTION_MARKER, lift_in_result};

/// Wraps a transport so 2025-11-25 clients see `Tool.execution`.
pub(crate) struct LiftExecution<T> {
    inner: T,
}

impl<T> LiftExecution<T> {
    pub(crate) fn new(inner: T) -> Self {
        Self { inner }
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for LiftExecution<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(lift(item))
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

fn lift(message: ServerJsonRpcMessage) -> ServerJsonRpcMessage {
    let ServerJsonRpcMessage::Response(mut response) = message else {
        return message;
    };
    if let ServerResult::ListToolsResult(result) = &response.result {
        let parked = result.tools.iter().any(|tool| {
            tool.meta
                .as_ref()
                .is_some_and(|meta| meta.0.contains_key(EXECUTION_MARKER))
        });
        if parked {
            match serde_json::to_value(result) {
                Ok(mut value) => {
                    lift_in_result(&mut value);
                    response.result = ServerResult::CustomResult(CustomResult(value));
                }
                Err(error) => tracing::error!(%error, "cannot serialize a tools/list result"),
            }
        }
    }
    ServerJsonRpcMessage::Response(response)
}
