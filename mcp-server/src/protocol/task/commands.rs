//! What reaches a task wherever it runs: `tasks/update` answers and
//! `tasks/cancel` cancellations, carried out here when this replica runs the
//! task, else sent through the task store to the replica that does (and
//! carried out when they arrive, see [`Obey`]).

use std::collections::HashMap;

use mcp_core::BoxFuture;
use rmcp::ErrorData;
use rmcp::model::InputResponses;

use super::engine::{Tasks, store_failed};
use super::record::Running;
use super::replica::Obey;
use crate::store::task::{TaskCommand, TaskRecord, TaskState};

impl Tasks {
    /// `tasks/update`: the answers go to the task, wherever it runs.
    pub(crate) async fn update(
        &self,
        task_id: &str,
        responses: InputResponses,
    ) -> Result<(), ErrorData> {
        if let Some(running) = self.local(task_id) {
            self.answer_here(&running, task_id, responses).await;
            return Ok(());
        }
        let record = self.get(task_id).await?;
        if record.status.is_terminal() {
            return Ok(());
        }
        let command = TaskCommand::Answer {
            task_id: task_id.to_owned(),
            responses,
        };
        self.forward(record, &command).await
    }

    /// `tasks/cancel`: the cancellation goes to the task, wherever it runs.
    pub(crate) async fn cancel(&self, task_id: &str) -> Result<(), ErrorData> {
        if let Some(running) = self.local(task_id) {
            return self.cancel_here(&running, task_id).await;
        }
        let record = self.get(task_id).await?;
        if record.status.is_terminal() {
            return Ok(());
        }
        let command = TaskCommand::Cancel {
            task_id: task_id.to_owned(),
        };
        self.forward(record, &command).await
    }

    /// Sends `command` to the runner of `record`; a runner that no longer
    /// listens and no longer beats has stopped, and the task fails.
    async fn forward(&self, record: TaskRecord, command: &TaskCommand) -> Result<(), ErrorData> {
        let delivered = self
            .membership
            .store
            .send(&record.runner, command)
            .await
            .map_err(|error| store_failed(&error))?;
        if delivered {
            return Ok(());
        }
        let record = self.vouch(record, &mut HashMap::new()).await?;
        if record.status.is_terminal() {
            return Ok(());
        }
        Err(ErrorData::internal_error(
            format!(
                "the server replica running task {} cannot be reached right now: try again",
                record.id
            ),
            None,
        ))
    }

    /// Carries out `command` for a task this replica runs.
    async fn carry_out(&self, command: TaskCommand) {
        let task_id = match &command {
            TaskCommand::Cancel { task_id } | TaskCommand::Answer { task_id, .. } => task_id,
            TaskCommand::Ended { .. } => {
                self.ended_elsewhere.notify_waiters();
                return;
            }
        };
        let Some(running) = self.local(task_id) else {
            tracing::debug!(%task_id, "a command for a task this replica does not run (any more)");
            return;
        };
        match command {
            TaskCommand::Cancel { task_id } => {
                if let Err(error) = self.cancel_here(&running, &task_id).await {
                    tracing::debug!(%task_id, %error.message, "cannot cancel a task");
                }
            }
            TaskCommand::Answer { task_id, responses } => {
                self.answer_here(&running, &task_id, responses).await;
            }
            TaskCommand::Ended { .. } => {}
        }
    }

    async fn answer_here(&self, running: &Running, task_id: &str, responses: InputResponses) {
        let keys: Vec<String> = responses.keys().cloned().collect();
        if let Err(error) = self.manager.update_task(task_id, responses) {
            tracing::debug!(%task_id, %error.message, "cannot answer a task");
            return;
        }
        running
            .change(|record| {
                for key in &keys {
                    record.input_requests.remove(key);
                }
                if record.input_requests.is_empty() {
                    record.status = TaskState::Working;
                }
            })
            .await;
    }

    async fn cancel_here(&self, running: &Running, task_id: &str) -> Result<(), ErrorData> {
        self.manager.cancel_task(task_id)?;
        running
            .change(|record| {
                // Questions are dropped with the cancellation.
                record.input_requests.clear();
                record.status = TaskState::Working;
            })
            .await;
        Ok(())
    }
}

impl Obey for Tasks {
    fn obey(&self, command: TaskCommand) -> BoxFuture<'_, ()> {
        Box::pin(self.carry_out(command))
    }
}
