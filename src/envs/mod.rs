//! Environments.
