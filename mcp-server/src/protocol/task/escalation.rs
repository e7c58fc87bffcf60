//! "Gather input inline, then escalate": a 2026-07-28 call of a tool that
//! may run as a task starts in the request. Questions the handler marks
//! [`before_task`](mcp_core::client::ElicitRequest::before_task) go into the
//! request's input round (an input-required result when unanswered); once
//! the handler waits on anything else, the call escalates to a task and the
//! running handler moves into it, its channel switching to the task's.

use std::fmt;
use std::sync::OnceLock;

use mcp_core::{
    BoxFuture,
    client::{
        CallChannel, ChannelError, CreateMessageRequest, CreateMessageResult, ElicitRequest,
        ElicitResult, LogMessage, Progress, Root,
    },
};
use tokio::sync::watch;

use super::channel::TaskChannel;
use crate::protocol::channel::interaction::InteractionChannel;

/// The channel of a call that may escalate to a task (see the module docs).
pub(crate) struct EscalatingChannel {
    inline: InteractionChannel,
    task: OnceLock<TaskChannel>,
    escalated: watch::Sender<bool>,
}

impl EscalatingChannel {
    pub(crate) fn new(inline: InteractionChannel) -> Self {
        Self {
            inline,
            task: OnceLock::new(),
            escalated: watch::Sender::new(false),
        }
    }

    /// From now on the call runs as the task of `channel`.
    pub(crate) fn escalate(&self, channel: TaskChannel) {
        if self.task.set(channel).is_ok() {
            self.escalated.send_replace(true);
        }
    }

    /// The task's channel, once the call escalated.
    async fn task(&self) -> Option<&TaskChannel> {
        let mut escalated = self.escalated.subscribe();
        // Ends with an error only when `self` is gone, which cannot happen
        // while borrowed; then there is no task.
        let _ = escalated.wait_for(|escalated| *escalated).await;
        self.task.get()
    }
}

impl CallChannel for EscalatingChannel {
    fn notify_progress(&self, progress: Progress) -> BoxFuture<'_, Result<(), ChannelError>> {
        match self.task.get() {
            Some(task) => task.notify_progress(progress),
            None => self.inline.notify_progress(progress),
        }
    }

    fn is_cancelled(&self) -> bool {
        match self.task.get() {
            Some(task) => task.is_cancelled(),
            None => self.inline.is_cancelled(),
        }
    }

    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            if self.task.get().is_none() {
                // Before escalation the request's cancellation counts; after
                // it, the task's.
                let mut escalated = self.escalated.subscribe();
                tokio::select! {
                    () = self.inline.cancelled() => {
                        if self.task.get().is_none() {
                            return;
                        }
                    }
                    _ = escalated.wait_for(|escalated| *escalated) => {}
                }
            }
            if let Some(task) = self.task.get() {
                task.cancelled().await;
            }
        })
    }

    fn close_sse_stream(
        &self,
        retry: std::time::Duration,
    ) -> BoxFuture<'_, Result<(), ChannelError>> {
        match self.task.get() {
            Some(task) => task.close_sse_stream(retry),
            None => self.inline.close_sse_stream(retry),
        }
    }

    fn log(&self, message: LogMessage) -> BoxFuture<'_, Result<(), ChannelError>> {
        self.inline.log(message)
    }

    fn create_message(
        &self,
        request: CreateMessageRequest,
    ) -> BoxFuture<'_, Result<CreateMessageResult, ChannelError>> {
        Box::pin(async move {
            match self.task().await {
                Some(task) => task.create_message(request).await,
                None => Err(ChannelError::Closed),
            }
        })
    }

    fn list_roots(&self) -> BoxFuture<'_, Result<Vec<Root>, ChannelError>> {
        self.inline.list_roots()
    }

    fn elicit(&self, request: ElicitRequest) -> BoxFuture<'_, Result<ElicitResult, ChannelError>> {
        Box::pin(async move {
            if request.before_task && self.task.get().is_none() {
                return self.inline.elicit(request).await;
            }
            match self.task().await {
                Some(task) => task.elicit(request).await,
                None => Err(ChannelError::Closed),
            }
        })
    }
}

impl fmt::Debug for EscalatingChannel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EscalatingChannel")
            .field("escalated", &self.task.get().is_some())
            .finish_non_exhaustive()
    }
}
