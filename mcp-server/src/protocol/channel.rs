//! The way back to the client while a request runs: the peer with the
//! request's cancellation ([`peer`]), the channel a handler talks to for
//! logging, sampling, elicitation and roots ([`interaction`]), and the input
//! rounds of 2026-07-28 requests, which ask the client by answering
//! input-required instead of sending requests ([`input_round`]).

pub(crate) mod input_round;
pub(crate) mod interaction;
pub(crate) mod peer;
